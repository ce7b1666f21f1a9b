// The MCP face on revision 2026-07-28, driven by the official SDK v2 client pinned to it: discovery,
// lists with cache hints, calls and errors, and removals confirmed by the person through form
// elicitation (accept removes, decline keeps, a client without forms gets the token preview, a
// replayed, forged or foreign requestState is refused, a changed target asks again). The v2 client
// in its default negotiation (the 2025 handshake) keeps the spec's token flow.
import { exports } from "cloudflare:workers";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { atWindowStart, burstUsed } from "../support/accounting";
import { type Account, newAccount, ORIGIN } from "../support/harness";
import { importLibraryMaster } from "../support/masterSets";
import { mcpClientV2, type PersonsReply, type WireLog } from "../support/mcp";

const A = 750001;
const B = 750002;

beforeAll(importLibraryMaster);

const clients: ClientV2[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(account: Pick<Account, "apiKey">, options: Parameters<typeof mcpClientV2>[1] = {}) {
  const client = await mcpClientV2(account.apiKey, options);
  clients.push(client);
  return client;
}

/** A tool's answer as an assistant reads it: structured, or the error body of an isError result. */
async function call(client: ClientV2, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0]?.text ?? "";
  return { isError: result.isError === true, body: result.isError ? JSON.parse(text) : result.structuredContent };
}

/** A person who answers every form the same way, and remembers what they were shown. */
function personWho(reply: Awaited<ReturnType<PersonsReply>>) {
  const shown: string[] = [];
  const person: PersonsReply = async (message) => {
    shown.push(message);
    return reply;
  };
  return { person, shown };
}

/** Re-sends a recorded 2026-07-28 request as it was (or changed), with a key: the raw HTTP answer. */
async function resend(recorded: WireLog["requests"][number], apiKey: string, body: unknown = recorded.body) {
  const headers = new Headers(recorded.headers);
  headers.set("Authorization", `Bearer ${apiKey}`);
  const response = await exports.default.fetch(new Request(`${ORIGIN}/mcp`, { method: "POST", headers, body: JSON.stringify(body) }));
  return { status: response.status, body: (await response.json()) as any };
}

/** The retried tools/call of a confirmation round trip: the one carrying inputResponses and requestState. */
const retriedCall = (wire: WireLog) => wire.requests.find((request) => request.body.params?.requestState !== undefined)!;

describe("revision 2026-07-28 with the SDK v2 client", () => {
  it("connects by server/discover, lists the key's tools with private cache hints, and calls them", async () => {
    const account = await newAccount();
    const wire: WireLog = { requests: [], answers: [] };
    const client = await connect(account, { wire });
    expect(client.getProtocolEra()).toBe("modern");
    expect(wire.requests[0]!.body.method).toBe("server/discover");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("removeFromLibrary");
    const listAnswer = wire.answers[wire.requests.findIndex((request) => request.body.method === "tools/list")];
    expect(listAnswer.result).toMatchObject({ ttlMs: 300_000, cacheScope: "private" });
    const account_ = await call(client, "getAccount");
    expect(account_.isError).toBe(false);
    expect(account_.body.userId).toBe(account.userId);
    // Answered as one JSON body, not an event stream (the SDK's default mode, with no mid-call notification).
    expect(wire.answers[wire.requests.findIndex((request) => request.body.method === "tools/call")]).toMatchObject({ result: {} });
  });

  it("answers tool errors as isError results with the REST body, and an unknown tool as a protocol error without a doubled prefix", async () => {
    const client = await connect(await newAccount());
    const refused = await call(client, "addToLibrary", { gameId: "x" });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ code: "invalid_input", field: "gameId" });
    const error = await client.callTool({ name: "noSuchTool", arguments: {} }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toMatch(/MCP error .*MCP error/);
    expect((error as Error).message).toContain("There is no tool named 'noSuchTool'.");
  });
});

describe("a removal confirmed by the person", () => {
  it("asks the person with the spec's summary, and removes only after they accept", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const { person, shown } = personWho({ action: "accept", content: { confirm: true } });
    const client = await connect(account, { person });
    const removed = await call(client, "removeFromLibrary", { gameId: A });
    expect(removed.isError).toBe(false);
    expect(removed.body).toMatchObject({ gameId: A, removed: true });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^Removes '.+' from your library/);
    expect((await account.call("getLibrary", {})).body.totalCount).toBe(0);
  });

  it("keeps the entry when the person declines, cancels or leaves the box unticked, and says so", async () => {
    for (const reply of [
      { action: "decline" as const },
      { action: "cancel" as const },
      { action: "accept" as const, content: { confirm: false } },
    ]) {
      const account = await newAccount();
      await account.call("addToLibrary", { gameId: A });
      const client = await connect(account, { person: personWho(reply).person });
      const kept = await call(client, "removeFromLibrary", { gameId: A });
      expect(kept.isError, JSON.stringify(reply)).toBe(true);
      expect(kept.body.code).toBe("confirmation_declined");
      expect((await account.call("getLibrary", {})).body.totalCount).toBe(1);
    }
  });

  it("counts every round in the key's burst window: the preview in the pipeline, the declined answer at the door", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const client = await connect(account, { person: personWho({ action: "decline" }).person });
    await atWindowStart();
    const before = await burstUsed(account.keyId);
    expect((await call(client, "removeFromLibrary", { gameId: A })).body.code).toBe("confirmation_declined");
    expect(await burstUsed(account.keyId)).toBe(before + 2);
  });

  it("never shows the model a confirmToken, and refuses one the model sends itself", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const rest = await account.call("removeFromLibrary", { gameId: A });
    const client = await connect(account, { person: personWho({ action: "decline" }).person });
    const sent = await call(client, "removeFromLibrary", { gameId: A, confirmToken: rest.body.confirmToken });
    expect(sent.isError).toBe(true);
    expect(sent.body).toMatchObject({ code: "invalid_input", field: "confirmToken" });
    expect((await account.call("getLibrary", {})).body.totalCount).toBe(1);
  });

  it("asks again when the target changed before the person answered", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const shown: string[] = [];
    const person: PersonsReply = async (message) => {
      shown.push(message);
      // While the first form is open, the entry changes: the person is asked about what it is now.
      if (shown.length === 1) await account.call("updateLibraryEntry", { gameId: A, memo: "changed meanwhile" });
      return { action: "accept", content: { confirm: true } };
    };
    const client = await connect(account, { person });
    const removed = await call(client, "removeFromLibrary", { gameId: A });
    expect(removed.body).toMatchObject({ removed: true });
    expect(shown).toHaveLength(2);
  });

  it("confirms a LIGHT replay of a finished game the same way", async () => {
    const account = await newAccount({ plan: "LIGHT" });
    await account.call("addToLibrary", { gameId: B });
    await account.call("addPlayRecord", { gameId: B, status: "COMPLETED" });
    const { person, shown } = personWho({ action: "accept", content: { confirm: true } });
    const client = await connect(account, { person });
    const replay = await call(client, "addPlayRecord", { gameId: B, replay: true });
    expect(replay.isError, JSON.stringify(replay.body)).toBe(false);
    expect(replay.body).toMatchObject({ replayed: true, item: { status: "PLAYING" } });
    expect(shown).toHaveLength(1);
  });
});

describe("the requestState of a confirmation", () => {
  /** A removal the person accepted, with the wire recorded: its retried call can be sent again. */
  async function acceptedRemoval() {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const wire: WireLog = { requests: [], answers: [] };
    const client = await connect(account, { person: personWho({ action: "accept", content: { confirm: true } }).person, wire });
    expect((await call(client, "removeFromLibrary", { gameId: A })).body.removed).toBe(true);
    return { account, retried: retriedCall(wire) };
  }

  const expectRefusedState = (answer: { body: any }) => {
    expect(answer.body.error?.code, JSON.stringify(answer.body)).toBe(-32602);
    expect(answer.body.error.message).toContain("requestState");
  };

  it("is single-use: the accepted round sent again is refused", async () => {
    const { account, retried } = await acceptedRemoval();
    await account.call("addToLibrary", { gameId: A });
    expectRefusedState(await resend(retried, account.apiKey));
    expect((await account.call("getLibrary", {})).body.totalCount).toBe(1);
  });

  it("refuses a changed state, a state for other arguments, and another person's state", async () => {
    const { account, retried } = await acceptedRemoval();
    const state: string = retried.body.params.requestState;
    const flipped = `${state.slice(0, 20)}${state[20] === "A" ? "B" : "A"}${state.slice(21)}`;
    expectRefusedState(
      await resend(retried, account.apiKey, { ...retried.body, params: { ...retried.body.params, requestState: flipped } }),
    );
    const otherArgs = { ...retried.body, params: { ...retried.body.params, arguments: { gameId: B } } };
    expectRefusedState(await resend(retried, account.apiKey, otherArgs));

    // Another person's state, asked and not yet answered: their token is theirs alone.
    const owner = await newAccount();
    const { first, answering } = await openConfirmation(owner);
    const intruder = await newAccount();
    await intruder.call("addToLibrary", { gameId: A });
    expectRefusedState(await resend(first, intruder.apiKey, answering(ACCEPT)));
    expect((await owner.call("getLibrary", {})).body.totalCount).toBe(1);
    expect((await intruder.call("getLibrary", {})).body.totalCount).toBe(1);
  });

  const ACCEPT = { action: "accept", content: { confirm: true } };
  const NO_ANSWERS = [{ action: "decline" }, { action: "cancel" }, { action: "accept", content: { confirm: false } }];

  /**
   * A confirmation asked and not yet answered: the account's entry of A, the recorded first
   * tools/call of a 2026-07-28 client, sent again for a fresh requestState; `answering` makes the
   * retried call that answers it.
   */
  async function openConfirmation(account: Account) {
    await account.call("addToLibrary", { gameId: A });
    const wire: WireLog = { requests: [], answers: [] };
    const client = await connect(account, { person: personWho({ action: "decline" }).person, wire });
    await call(client, "removeFromLibrary", { gameId: A });
    const first = wire.requests.find((request) => request.body.method === "tools/call" && !request.body.params.requestState)!;
    const asked = await resend(first, account.apiKey);
    const requestState: string = asked.body.result.requestState;
    expect(requestState, JSON.stringify(asked.body)).toEqual(expect.any(String));
    const answering = (inputResponse: object) => ({
      ...first.body,
      params: { ...first.body.params, requestState, inputResponses: { confirm: inputResponse } },
    });
    return { first, answering };
  }

  /** What an answered round came to: removed, declined, or its state refused. */
  const outcomeOf = (answer: { body: any }) => {
    if (answer.body.error?.code === -32602) return "refused";
    const result = answer.body.result;
    return result.isError ? JSON.parse(result.content[0].text).code : result.structuredContent.removed ? "removed" : "other";
  };

  it("is spent by the person's no: the same state sent later with a yes is refused and removes nothing", async () => {
    for (const no of NO_ANSWERS) {
      const account = await newAccount();
      const { first, answering } = await openConfirmation(account);
      expect(outcomeOf(await resend(first, account.apiKey, answering(no))), JSON.stringify(no)).toBe("confirmation_declined");
      expectRefusedState(await resend(first, account.apiKey, answering(ACCEPT)));
      expectRefusedState(await resend(first, account.apiKey, answering(no)));
      expect((await account.call("getLibrary", {})).body.totalCount).toBe(1);
    }
  });

  it("is single-use under concurrency: of yeses sent at once, exactly one removes", async () => {
    const account = await newAccount();
    const { first, answering } = await openConfirmation(account);
    const answers = await Promise.all(Array.from({ length: 6 }, () => resend(first, account.apiKey, answering(ACCEPT))));
    expect(answers.map(outcomeOf).sort()).toEqual(["refused", "refused", "refused", "refused", "refused", "removed"]);
    expect((await account.call("getLibrary", {})).body.totalCount).toBe(0);
  });

  it("is single-use under concurrency: of a no and a yes sent at once, exactly one counts, and the library says which", async () => {
    for (let round = 0; round < 4; round++) {
      const account = await newAccount();
      const { first, answering } = await openConfirmation(account);
      const answers = await Promise.all(
        [NO_ANSWERS[round % 3]!, ACCEPT, NO_ANSWERS[0]!, ACCEPT].map((reply) => resend(first, account.apiKey, answering(reply))),
      );
      const outcomes = answers.map(outcomeOf);
      const counted = outcomes.filter((outcome) => outcome !== "refused");
      expect(counted, JSON.stringify(outcomes)).toHaveLength(1);
      expect((await account.call("getLibrary", {})).body.totalCount).toBe(counted[0] === "removed" ? 0 : 1);
    }
  });
});

describe("clients that confirm with the token", () => {
  it("a 2026-07-28 client without form elicitation gets the spec's preview with its confirmToken", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const client = await connect(account);
    const preview = await call(client, "removeFromLibrary", { gameId: A });
    expect(preview.body).toMatchObject({ confirmRequired: true, confirmToken: expect.stringMatching(/^ct_/) });
    const removed = await call(client, "removeFromLibrary", { gameId: A, confirmToken: preview.body.confirmToken });
    expect(removed.body).toMatchObject({ removed: true });
  });

  it("the SDK v2 client in its default negotiation speaks the 2025 handshake and keeps the token flow, elicitation or not", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const { person, shown } = personWho({ action: "accept", content: { confirm: true } });
    const client = await connect(account, { era: "default", person });
    expect(client.getProtocolEra()).toBe("legacy");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("removeFromLibrary");
    expect((await call(client, "addToLibrary", { gameId: "x" })).body).toMatchObject({ code: "invalid_input", field: "gameId" });
    const preview = await call(client, "removeFromLibrary", { gameId: A });
    expect(preview.body.confirmRequired).toBe(true);
    expect(shown).toEqual([]);
    expect((await call(client, "removeFromLibrary", { gameId: A, confirmToken: preview.body.confirmToken })).body.removed).toBe(true);
  });
});
