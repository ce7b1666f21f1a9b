import { Scalar } from "@scalar/hono-api-reference";
import { Hono } from "hono";
import { createAdminRouter } from "./admin/adminRoutes";
import type { AppEnv } from "./env";
import { ApiError, asApiError } from "./platform/errors";
import { randomBase62 } from "./platform/ids";
import { mountCatalogRoutes } from "./registry/catalogRoutes";
import type { ToolDefinition } from "./registry/defineTool";
import { mountMcpEndpoint } from "./faces/mcp";
import { mountToolRoutes } from "./faces/rest";
import { methodNotAllowed } from "./platform/errors";
import { TOOL_PATH_PREFIX } from "./registry/defineTool";
import { tools as registeredTools } from "./tools";

/** Seconds a client should wait before retrying during maintenance. */
export const MAINTENANCE_RETRY_AFTER_SEC = 300;
const SERVICE_METHODS = ["GET", "POST", "PUT"];

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

  app.use("*", async (c, next) => {
    c.set("requestId", `req_${randomBase62(20)}`);
    await next();
    c.res.headers.set("X-Request-Id", c.get("requestId"));
  });

  app.use("*", async (_c, next) => {
    if (_c.env.MAINTENANCE_MODE === "on") {
      throw new ApiError("maintenance", "The service is under maintenance; retry later.", {
        retryable: true,
        retryAfterSec: MAINTENANCE_RETRY_AFTER_SEC,
      });
    }
    await next();
  });

  app.use(`${TOOL_PATH_PREFIX}*`, async (c, next) => {
    if (!SERVICE_METHODS.includes(c.req.method) && c.req.method !== "HEAD") throw methodNotAllowed(SERVICE_METHODS);
    await next();
  });

  mountCatalogRoutes(app, tools);
  mountToolRoutes(app, tools);
  mountMcpEndpoint(app, tools);
  app.route("/admin/v1", createAdminRouter());
  app.get("/docs", Scalar({ url: `${TOOL_PATH_PREFIX}openapi.json`, pageTitle: "Retro Game Collection API" }));
  app.get("/", (c) => c.redirect("/docs"));

  app.notFound((c) =>
    errorResponse(
      new ApiError("not_found", `Nothing is served at ${new URL(c.req.url).pathname}.`, { entry: true }),
      c.get("requestId"),
    ),
  );

  app.onError((error, c) => {
    const requestId = c.get("requestId") ?? `req_${randomBase62(20)}`;
    return errorResponse(asApiError(error, requestId), requestId);
  });

  return app;
}
