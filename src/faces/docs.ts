import { Scalar } from "@scalar/hono-api-reference";
import { TOOL_PATH_PREFIX } from "../registry/defineTool";
import docsBundle from "./docsBundle.json";

/**
 * The Scalar reference bundle, served by this Worker as a static asset (wrangler.toml `[assets]`):
 * `npm install` puts @scalar/api-reference's dist/browser/standalone.js, at the version and hash
 * docsBundle.json pins, into public/docs/assets/ (scripts/docs-bundle.mjs). The version in the
 * name lets public/_headers cache it for a year.
 */
export const SCALAR_BUNDLE_VERSION = docsBundle.version;
export const SCALAR_BUNDLE_PATH = `/docs/assets/scalar-api-reference-${SCALAR_BUNDLE_VERSION}.js`;

/**
 * GET /docs: the API reference, rendered in the browser from /rest/v1/openapi.json. Everything it
 * loads comes from this origin, so it works offline: the bundle above instead of Scalar's CDN, the
 * system fonts instead of Scalar's font host, no telemetry, and none of the features that call
 * Scalar's own services (the AI agent, MCP generation, the deploy/share toolbar shown on localhost).
 */
export const docsPage = () =>
  Scalar({
    url: `${TOOL_PATH_PREFIX}openapi.json`,
    pageTitle: "Retro Game Collection API",
    cdn: SCALAR_BUNDLE_PATH,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
  });
