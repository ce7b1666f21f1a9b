// Where a REST call's arguments come from: GET reads the query string; POST and PUT read the JSON
// body and the query string beside it by the GET rules, so no parameter is ever silently ignored.
import { describe, expect, it } from "vitest";
import { authHeader, newAccount, send } from "../support/harness";
import { ok } from "../support/replies";

const post = (apiKey: string, pathAndQuery: string, body: unknown, method = "POST") =>
  send(`/rest/v1/${pathAndQuery}`, {
    method,
    headers: { ...authHeader(apiKey), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("a query string on POST and PUT", () => {
  it("refuses an unknown parameter with the very answer GET gives", async () => {
    const account = await newAccount();
    const viaGet = await send("/rest/v1/getAccount?unexpected=1", { headers: { ...authHeader(account.apiKey), "X-Request-Id": "same" } });
    for (const method of ["POST", "PUT"]) {
      const viaPost = await send("/rest/v1/getAccount?unexpected=1", {
        method,
        headers: { ...authHeader(account.apiKey), "Content-Type": "application/json", "X-Request-Id": "same" },
        body: "{}",
      });
      expect(viaPost.status, method).toBe(400);
      expect(viaPost.body).toEqual(viaGet.body);
    }
  });

  it("reads a known parameter by the GET rules, beside the body's arguments", async () => {
    const account = await newAccount();
    const page = ok(await post(account.apiKey, "getLibrary?limit=1&fields=", { sortOrder: "desc" }));
    expect(page).toMatchObject({ effectiveLimit: 1 });
    const write = await post(account.apiKey, "addTag?name=%E3%82%BF%E3%82%B0", {});
    expect(write.status).toBe(200);
    expect(write.body.item.name).toBe("タグ");
  });

  it("refuses a parameter given both in the query string and in the body, naming it", async () => {
    const account = await newAccount();
    const reply = await post(account.apiKey, "getLibrary?limit=1", { limit: 1 });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field: "limit" });
    expect(reply.body.message).toContain("both");
  });

  it("refuses an object argument in the query string of a POST, as GET does", async () => {
    const account = await newAccount();
    const reply = await post(account.apiKey, "searchGames?externalId=1", {});
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("externalId");
  });
});
