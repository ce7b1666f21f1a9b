// Tools that exist only in tests, to exercise rules every real tool inherits from the registry.
import { z } from "zod";
import { limitArg, pageArg, resolveLimit } from "../../src/platform/paging";
import { ALL_PLANS, PREMIUM_ONLY } from "../../src/platform/plans";
import { defineTool } from "../../src/registry/defineTool";

const common = { family: "test", title: "テスト", description: "Test tool.", restNote: "Test only." };

export const echoTool = defineTool({
  ...common,
  name: "testEcho",
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  input: z.strictObject({
    ids: z.array(z.number().int()).max(10).optional(),
    flag: z.boolean().optional(),
    count: z.number().int().optional(),
    text: z.string().max(30).optional(),
    fields: z.array(z.enum(["game", "userLinks"])).optional(),
    externalId: z.object({ dbId: z.number().int() }).optional(),
    limit: limitArg(200, 50),
    page: pageArg,
  }),
  output: z.any(),
  planDifferences: {
    FREE: {
      removedProperties: ["flag"],
      changedProperties: { count: z.number().int().max(5).describe("at most 5 on FREE") },
    },
    LIGHT: { required: ["text"] },
  },
  async handler(_ctx, input) {
    const caps = [{ cap: 200, reason: "testEcho allows 200 per page" }];
    if (input.fields?.includes("game")) caps.push({ cap: 100, reason: "the game field group caps the page at 100" });
    if (input.fields?.includes("userLinks")) caps.push({ cap: 50, reason: "the userLinks field group caps the page at 50" });
    return { input, limit: resolveLimit(input.limit, 50, caps) };
  },
});

export const failingTool = defineTool({
  ...common,
  name: "testFailing",
  scopes: [],
  plans: ALL_PLANS,
  kind: "read",
  input: z.strictObject({}),
  output: z.any(),
  async handler() {
    throw new Error("SQLITE_ERROR: secret table internals");
  },
});

export const premiumWriteTool = defineTool({
  ...common,
  name: "testPremiumWrite",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  input: z.strictObject({ value: z.number().int() }),
  output: z.any(),
  async handler(_ctx, input) {
    return { saved: input.value };
  },
});

export const testTools = [echoTool, failingTool, premiumWriteTool];
