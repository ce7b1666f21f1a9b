import { Scalar } from "@scalar/hono-api-reference";
import { TOOL_PATH_PREFIX } from "../registry/defineTool";

/**
 * The Scalar reference bundle, served by this Worker as a static asset (wrangler.toml `[assets]`):
 * public/docs/assets/ links it to node_modules/@scalar/api-reference/dist/browser/standalone.js,
 * the exact version package.json pins. The version in the name lets public/_headers cache it for
 * a year; a test fails when the name and the installed package disagree.
 */
export const SCALAR_BUNDLE_VERSION = "1.72.1";
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
