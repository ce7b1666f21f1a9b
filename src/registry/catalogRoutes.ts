import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { methodNotAllowed } from "../platform/errors";
import { CATALOG_REVISION } from "./catalogRevision";
import { TOOL_PATH_PREFIX, type ToolDefinition } from "./defineTool";
import { catalogDocument, openApiDocument } from "./publishedForms";

/** True when If-None-Match names this revision (quoted or not, weak or strong) or is `*`. */
export function matchesRevision(ifNoneMatch: string | undefined, revision: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, "")
        .replace(/^"(.*)"$/, "$1"),
    )
    .some((tag) => tag === "*" || tag === revision);
}

/** The revision as an entity tag: quoted, as HTTP spells one, its value the revision itself. */
const CATALOG_ETAG = `"${CATALOG_REVISION}"`;

function serveCatalog(c: Context<AppEnv>, body: () => object): Response {
  c.header("ETag", CATALOG_ETAG);
  c.header("Cache-Control", "no-cache");
  if (matchesRevision(c.req.header("If-None-Match"), CATALOG_REVISION)) return c.body(null, 304);
  return c.json(body());
}

/** Built once per isolate: the catalog cannot change while the code is running. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** The catalog needs no key and ignores one; it never counts toward quota. */
export function mountCatalogRoutes(app: Hono<AppEnv>, tools: readonly ToolDefinition[]): void {
  const catalog = once(() => catalogDocument(tools, CATALOG_REVISION));
  const openapi = once(() => openApiDocument(tools, CATALOG_REVISION));
  const routes: [string, () => object][] = [
    [`${TOOL_PATH_PREFIX}tools`, catalog],
    [`${TOOL_PATH_PREFIX}openapi.json`, openapi],
  ];
  for (const [path, body] of routes) {
    app.get(path, (c) => serveCatalog(c, body));
    app.all(path, () => {
      throw methodNotAllowed(["GET"]);
    });
  }
}
