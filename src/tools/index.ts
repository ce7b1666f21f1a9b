import type { ToolDefinition } from "../registry/defineTool";
import { getAccount } from "./account/getAccount";

/** The registry: every tool, in catalog order. REST routes, the catalog and OpenAPI come from here. */
export const tools: readonly ToolDefinition[] = [getAccount];
