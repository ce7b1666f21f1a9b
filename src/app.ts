import { Hono } from "hono";
import { type MetadataFetch, publicFetch } from "./accounts/clientMetadata";
import { MCP_OAUTH_PATH } from "./accounts/oauthServer";
import { createAdminRouter } from "./admin/adminRoutes";
import type { AppEnv } from "./env";
import { docsPage } from "./faces/docs";
import { mountDownloadRoutes } from "./faces/downloads";
import { errorResponse, serviceFrame } from "./faces/httpHeaders";
import { MCP_PATH, mcpFace, mountMcpEndpoint } from "./faces/mcp";
import { mountOAuth } from "./faces/oauth";
import { mountPages } from "./faces/pages";
import { mountToolRoutes } from "./faces/rest";
import { mountUploadRoutes } from "./faces/uploads";
import { ApiError, asApiError } from "./platform/errors";
import { randomBase62 } from "./platform/ids";
import { mountCatalogRoutes } from "./registry/catalogRoutes";
import type { ToolDefinition } from "./registry/defineTool";
import { TOOL_PATH_PREFIX } from "./registry/defineTool";
import { tools as registeredTools } from "./tools";

/** What the service reaches outside itself, and the clock tool calls read; a test sets them itself. */
export interface Services {
  /** How Client ID Metadata Documents are fetched (src/accounts/clientMetadata.ts): the public internet by default. */
  fetchClientMetadata?: MetadataFetch;
  /** The instant tool calls take as now over REST and MCP alike (a fixed one in tests), by default the system's. */
  clock?: () => Date;
}

/** The whole service as one Hono app; tests build it with other tools, settings, services or clock. */
export function createApp(tools: readonly ToolDefinition[] = registeredTools, services: Services = {}) {
  const clock = services.clock ?? (() => new Date());
  const app = new Hono<AppEnv>();

  app.use(
    "*",
    serviceFrame((path) => path.startsWith(TOOL_PATH_PREFIX) || path === MCP_PATH || path === MCP_OAUTH_PATH),
  );

  mountCatalogRoutes(app, tools);
  mountToolRoutes(app, tools, clock);
  const mcp = mcpFace(tools, clock);
  mountMcpEndpoint(app, mcp);
  mountOAuth(app, mcp, services.fetchClientMetadata ?? publicFetch);
  mountDownloadRoutes(app);
  mountUploadRoutes(app);
  app.route("/admin/v1", createAdminRouter());
  mountPages(app);
  app.get("/docs", docsPage());
  app.get("/", (c) => c.redirect("/docs"));

  app.notFound((c) =>
    errorResponse(new ApiError("not_found", `Nothing is served at ${new URL(c.req.url).pathname}.`, { entry: true }), c.get("requestId")),
  );

  app.onError((error, c) => {
    const requestId = c.get("requestId") ?? `req_${randomBase62(20)}`;
    return errorResponse(asApiError(error, requestId), requestId);
  });

  return app;
}
