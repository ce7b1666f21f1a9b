import { Hono } from "hono";
import { createAdminRouter } from "./admin/adminRoutes";
import type { AppEnv } from "./env";
import { docsPage } from "./faces/docs";
import { mountDownloadRoutes } from "./faces/downloads";
import { browserAccess, jsonWithCharset, rateLimitState, requestIds } from "./faces/httpHeaders";
import { MCP_PATH, mountMcpEndpoint } from "./faces/mcp";
import { mountToolRoutes } from "./faces/rest";
import { mountUploadRoutes } from "./faces/uploads";
import { ApiError, asApiError } from "./platform/errors";
import { randomBase62 } from "./platform/ids";
import { mountCatalogRoutes } from "./registry/catalogRoutes";
import type { ToolDefinition } from "./registry/defineTool";
import { TOOL_PATH_PREFIX } from "./registry/defineTool";
import { tools as registeredTools } from "./tools";

/** Seconds a client should wait before retrying during maintenance. */
export const MAINTENANCE_RETRY_AFTER_SEC = 300;

function errorResponse(error: ApiError, requestId: string): Response {
  const headers = new Headers({ "Content-Type": "application/json; charset=UTF-8" });
  if (typeof error.details.allow === "string") headers.set("Allow", error.details.allow);
  if (error.details.retryAfterSec !== undefined) headers.set("Retry-After", String(error.details.retryAfterSec));
  if (error.status === 401) headers.set("WWW-Authenticate", "Bearer");
  return new Response(JSON.stringify(error.toBody(requestId)), { status: error.status, headers });
}

/** The whole service as one Hono app; tests build it with other tools or settings. */
export function createApp(tools: readonly ToolDefinition[] = registeredTools) {
  const app = new Hono<AppEnv>();

  app.use("*", requestIds, jsonWithCharset);
  for (const path of [`${TOOL_PATH_PREFIX}*`, MCP_PATH]) app.use(path, browserAccess(), rateLimitState);

  app.use("*", async (_c, next) => {
    if (_c.env.MAINTENANCE_MODE === "on") {
      throw new ApiError("maintenance", "The service is under maintenance; retry later.", {
        retryable: true,
        retryAfterSec: MAINTENANCE_RETRY_AFTER_SEC,
      });
    }
    await next();
  });

  mountCatalogRoutes(app, tools);
  mountToolRoutes(app, tools);
  mountMcpEndpoint(app, tools);
  mountDownloadRoutes(app);
  mountUploadRoutes(app);
  app.route("/admin/v1", createAdminRouter());
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
