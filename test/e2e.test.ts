// Over real HTTP against `npm run dev`, started by test/setup/devServer.ts with its own state.
import { describe, expect, inject, it } from "vitest";

const url = inject("devServerUrl");
const log = inject("devServerLog");

describe("npm run dev", () => {
  it("serves the catalog within 20 s of start", async () => {
    expect(inject("devServerStartMs")).toBeLessThan(20_000);
    const reply = await fetch(`${url}/rest/v1/tools`);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  });

  it("seeded a demo account whose printed keys work", async () => {
    const keys = [...log.matchAll(/^\s+(standard|viewOnly|full)\s+(rgc_[A-Za-z0-9]{48})/gm)];
    expect(keys.map((k) => k[1])).toEqual(["standard", "viewOnly", "full"]);
    const reply = await fetch(`${url}/rest/v1/getAccount`, { headers: { Authorization: `Bearer ${keys[0]![2]}` } });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ plan: "PREMIUM", name: "demo" });
  });

  it("takes the operator token from ADMIN_TOKEN and refuses anything else", async () => {
    const ok = await fetch(`${url}/admin/v1/users`, { headers: { Authorization: `Bearer ${inject("devServerAdminToken")}` } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { totalCount: number }).totalCount).toBe(1);
    const refused = await fetch(`${url}/admin/v1/users`, { headers: { Authorization: "Bearer guess" } });
    expect(refused.status).toBe(401);
  });

  it("answers bad input with a 4xx and a request id over the wire", async () => {
    const reply = await fetch(`${url}/rest/v1/getAccount`, { method: "DELETE" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("Allow")).toBe("GET, POST, PUT");
    expect(reply.headers.get("X-Request-Id")).toMatch(/^req_/);
  });
});
