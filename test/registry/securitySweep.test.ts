// A registry-driven security sweep: every tool, present and future, gets these checks for free.
import { beforeAll, describe, expect, it } from "vitest";
import { PLANS, SCOPES, type Scope } from "../../src/platform/plans";
import { methodsOf } from "../../src/registry/defineTool";
import { tools } from "../../src/tools";
import { callWith, newAccount, player, type Reply, send } from "../support/harness";

type Call = (tool: string, args?: Record<string, unknown>, method?: "POST" | "GET") => Promise<Reply>;

let premium: Call;
/** PREMIUM keys with every scope, used in turn (the burst limit is per key). */
const premiumKeys: string[] = [];
let nextKey = 0;
/** For each scope, a PREMIUM key holding every scope but that one. */
const withoutScope = new Map<Scope, string>();
const lowerPlanKeys = new Map<string, string>();

beforeAll(async () => {
  premium = (await player({ plan: "PREMIUM" }, 5)).call;
  const account = await newAccount({ plan: "PREMIUM" });
  premiumKeys.push(account.apiKey, ...(await Promise.all([1, 2].map(async () => (await account.newKey([...SCOPES])).apiKey))));
  for (const scope of SCOPES) withoutScope.set(scope, (await account.newKey(SCOPES.filter((s) => s !== scope))).apiKey);
  for (const plan of PLANS) lowerPlanKeys.set(plan, (await newAccount({ plan })).apiKey);
});

describe.each(tools.map((tool) => [tool.name, tool] as const))("%s", (name, tool) => {
  it("answers 401 without a key, whatever the arguments", async () => {
    const reply = await send(`/rest/v1/${name}`, { method: "POST", body: "{}" });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("WWW-Authenticate")).toBe("Bearer");
  });

  it("answers 403 insufficient_scope to a key missing any one of its scopes", async () => {
    for (const scope of tool.scopes) {
      const reply = await callWith(withoutScope.get(scope)!, name, {});
      expect(reply.status, scope).toBe(403);
      expect(reply.body.code).toBe("insufficient_scope");
    }
  });

  it("answers 403 plan_required on every plan it is not offered on", async () => {
    for (const plan of PLANS.filter((p) => !tool.plans.includes(p))) {
      const reply = await callWith(lowerPlanKeys.get(plan)!, name, {});
      expect(reply.status, plan).toBe(403);
      expect(reply.body.code).toBe("plan_required");
    }
  });

  it("answers 405 to a method it does not take, with Allow", async () => {
    const methods = [...methodsOf(tool), "PUT"];
    for (const method of ["DELETE", "PATCH", "HEAD", ...(methods.includes("GET") ? [] : ["GET"])]) {
      const reply = await send(`/rest/v1/${name}`, { method });
      expect(reply.status, method).toBe(405);
      expect(reply.headers.get("Allow")).toBe(methods.join(", "));
    }
  });

  it("answers 400 naming an argument it does not take", async () => {
    const reply = await premium(name, { notAnArgument: 1 });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
    expect((reply.body.issues as { field: string }[]).map((issue) => issue.field)).toContain("notAnArgument");
  });

  it("answers 400 naming an argument it does not take in the query string of a POST, as GET does", async () => {
    const reply = await send(`/rest/v1/${name}?notAnArgument=1`, {
      method: "POST",
      headers: { Authorization: `Bearer ${premiumKeys[nextKey++ % premiumKeys.length]}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
    expect((reply.body.issues as { field: string }[]).map((issue) => issue.field)).toContain("notAnArgument");
  });
});
