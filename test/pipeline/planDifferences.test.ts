// The catalog tells the whole truth about plans: every expectation here is derived from what
// GET /rest/v1/tools publishes (plans, planDifferences, inputSchema), then checked against the
// server, so the published differences and the enforced ones cannot drift apart.
// Made-up ids answer 404 once the plan check has passed; only the plan outcome is asserted.
import { beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/platform/plans";
import { type Reply, send } from "../support/harness";
import { type KeyPool, keyPool } from "../support/keyPool";
import { exampleOf, type JsonSchema, outsideNarrower, requiredExample, satisfies } from "../support/schemaExamples";

type LowerPlan = "FREE" | "LIGHT";
const LOWER_PLANS: LowerPlan[] = ["FREE", "LIGHT"];

interface PublishedDifference {
  removedProperties?: string[];
  changedProperties?: Record<string, JsonSchema>;
  required?: string[];
}

interface CatalogTool {
  name: string;
  plans: Plan[];
  inputSchema: JsonSchema & { properties: Record<string, JsonSchema>; required?: string[] };
  planDifferences?: Partial<Record<LowerPlan, PublishedDifference>>;
}

let catalog: CatalogTool[];
const pools = {} as Record<Plan, KeyPool>;

beforeAll(async () => {
  const reply = await send("/rest/v1/tools");
  expect(reply.status).toBe(200);
  catalog = reply.body.tools;
  // Burst limits are per key (FREE: 20 calls per 10 s, 3 keys per user): enough keys that no 429 shows up.
  pools.FREE = await keyPool("FREE", { accounts: 3, keysPerAccount: 3 });
  pools.LIGHT = await keyPool("LIGHT", { keysPerAccount: 5 });
  pools.PREMIUM = await keyPool("PREMIUM", { keysPerAccount: 5 });
});

const isPlanRequired = (reply: Reply) => reply.status === 403 && reply.body?.code === "plan_required";
const show = (reply: Reply) => `${reply.status} ${JSON.stringify(reply.body)}`;

/** Asserts a plan_required refusal (naming `field` when given) with where to upgrade. */
function expectPlanRequired(reply: Reply, what: string, field?: string) {
  expect(isPlanRequired(reply), `${what}: expected 403 plan_required, got ${show(reply)}`).toBe(true);
  expect(typeof reply.body.upgradeUrl, `${what}: upgradeUrl`).toBe("string");
  if (field !== undefined) expect(reply.body.field, `${what}: field`).toBe(field);
}

function expectNotPlanRequired(reply: Reply, what: string) {
  expect(reply.status, `${what}: ${show(reply)}`).toBeLessThan(500);
  expect(reply.status, `${what}: throttled, so nothing was checked`).not.toBe(429);
  expect(isPlanRequired(reply), `${what}: refused with plan_required: ${show(reply)}`).toBe(false);
}

const differenceOf = (tool: CatalogTool, plan: LowerPlan): PublishedDifference => tool.planDifferences?.[plan] ?? {};

/** The tool's required arguments, valid for `plan` (a required argument the plan narrows takes the narrower value). */
const baseArgs = (tool: CatalogTool, plan: Plan) =>
  requiredExample(tool.inputSchema, plan === "PREMIUM" ? {} : (differenceOf(tool, plan).changedProperties ?? {}));

/** Every (tool, lower plan) pair the tool is available on. */
const availablePairs = () =>
  catalog.flatMap((tool) => LOWER_PLANS.filter((plan) => tool.plans.includes(plan)).map((plan) => ({ tool, plan })));

describe("planDifferences are enforced exactly as the catalog publishes them", () => {
  it("publishes differences only about arguments the tool takes, and only for lower plans", () => {
    for (const tool of catalog) {
      for (const [plan, difference] of Object.entries(tool.planDifferences ?? {})) {
        expect(LOWER_PLANS, `${tool.name}: planDifferences key`).toContain(plan);
        const names = [
          ...(difference.removedProperties ?? []),
          ...Object.keys(difference.changedProperties ?? {}),
          ...(difference.required ?? []),
        ];
        for (const name of names) expect(Object.keys(tool.inputSchema.properties), `${tool.name} ${plan}: ${name}`).toContain(name);
      }
    }
  });

  it("refuses a tool on a plan outside its published plans with 403 plan_required; PREMIUM is let through", async () => {
    for (const tool of catalog) {
      for (const plan of LOWER_PLANS) {
        const reply = await pools[plan].call(tool.name, baseArgs(tool, "PREMIUM"));
        if (tool.plans.includes(plan)) expectNotPlanRequired(reply, `${tool.name} on ${plan} (published in plans)`);
        else expectPlanRequired(reply, `${tool.name} on ${plan} (not in plans ${tool.plans.join(", ")})`);
      }
      expect(tool.plans, tool.name).toContain("PREMIUM");
      expectNotPlanRequired(await pools.PREMIUM.call(tool.name, baseArgs(tool, "PREMIUM")), `${tool.name} on PREMIUM`);
    }
  });

  it("refuses every removed property with 403 plan_required naming it, and PREMIUM accepts it", async () => {
    let checked = 0;
    for (const { tool, plan } of availablePairs()) {
      for (const name of differenceOf(tool, plan).removedProperties ?? []) {
        const value = exampleOf(tool.inputSchema.properties[name]!);
        expect(satisfies(tool.inputSchema.properties[name]!, value), `${tool.name}.${name} example ${JSON.stringify(value)}`).toBe(true);
        const args = { ...baseArgs(tool, plan), [name]: value };
        expectPlanRequired(await pools[plan].call(tool.name, args), `${tool.name} on ${plan} with ${name}=${JSON.stringify(value)}`, name);
        expectNotPlanRequired(await pools.PREMIUM.call(tool.name, args), `${tool.name} on PREMIUM with ${name}=${JSON.stringify(value)}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("answers 400 naming an argument the plan requires when it is omitted; PREMIUM does not require it", async () => {
    for (const { tool, plan } of availablePairs()) {
      for (const name of differenceOf(tool, plan).required ?? []) {
        const { [name]: _omitted, ...args } = baseArgs(tool, plan);
        const reply = await pools[plan].call(tool.name, args);
        expect(reply.status, `${tool.name} on ${plan} without ${name}: ${show(reply)}`).toBe(400);
        expect(reply.body).toMatchObject({ code: "invalid_input", field: name });
        const premium = await pools.PREMIUM.call(tool.name, args);
        expect(premium.status === 400 && premium.body.field === name, `${tool.name} on PREMIUM without ${name}: ${show(premium)}`).toBe(
          false,
        );
      }
    }
  });

  it("accepts values inside a changed property's narrower schema, and refuses PREMIUM-valid values outside it", async () => {
    let narrowed = 0;
    for (const { tool, plan } of availablePairs()) {
      for (const [name, narrower] of Object.entries(differenceOf(tool, plan).changedProperties ?? {})) {
        const premiumSchema = tool.inputSchema.properties[name]!;
        expect(typeof narrower.description, `${tool.name} ${plan}: ${name} says how it differs`).toBe("string");
        const inside = exampleOf(narrower);
        expect(
          satisfies(premiumSchema, inside),
          `${tool.name}.${name}: narrower example ${JSON.stringify(inside)} is valid on PREMIUM`,
        ).toBe(true);
        const insideArgs = { ...baseArgs(tool, plan), [name]: inside };
        expectNotPlanRequired(
          await pools[plan].call(tool.name, insideArgs),
          `${tool.name} on ${plan} with ${name}=${JSON.stringify(inside)}`,
        );

        const outside = outsideNarrower(premiumSchema, narrower);
        if (outside === undefined) continue;
        const outsideArgs = { ...baseArgs(tool, plan), [name]: outside };
        expectPlanRequired(
          await pools[plan].call(tool.name, outsideArgs),
          `${tool.name} on ${plan} with ${name}=${JSON.stringify(outside)}`,
          name,
        );
        expectNotPlanRequired(
          await pools.PREMIUM.call(tool.name, outsideArgs),
          `${tool.name} on PREMIUM with ${name}=${JSON.stringify(outside)}`,
        );
        narrowed++;
      }
    }
    expect(narrowed).toBeGreaterThan(0);
  });

  it("publishes the FREE/LIGHT replay of addPlayRecord and FREE's default fields of getPlayRecords", () => {
    const byName = Object.fromEntries(catalog.map((tool) => [tool.name, tool]));
    for (const plan of LOWER_PLANS) {
      const replay = byName.addPlayRecord!.planDifferences?.[plan]?.changedProperties?.replay;
      expect(replay, `addPlayRecord ${plan} replay`).toMatchObject({ type: "boolean" });
      expect(replay!.description).toMatch(/play:delete/);
      expect(replay!.description).toMatch(/confirmToken/);
      expect(satisfies(replay!, true) && satisfies(replay!, false)).toBe(true);
    }
    const fields = byName.getPlayRecords!.planDifferences?.FREE?.changedProperties?.fields;
    expect(fields, "getPlayRecords FREE fields").toMatchObject({ type: "array" });
    expect(fields!.description).toMatch(/game and goal/);
    expect(fields!.items).toEqual(byName.getPlayRecords!.inputSchema.properties.fields!.items);
  });
});
