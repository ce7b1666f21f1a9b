// Idempotency-Key on REST writes: a retried write runs once; the same key for another request is a 409.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { canonical, sha256Hex } from "../../src/platform/hashing";
import { addPlayLog } from "../../src/tools/play/addPlayLog";
import { type Account, authHeader, newAccount, send, sendTo, testApp } from "../support/harness";
import { holdFirstCall } from "../support/heldCalls";
import { importLibraryMaster } from "../support/masterSets";

const A = 750001;
const B = 750002;

beforeAll(importLibraryMaster);

const post = (account: Pick<Account, "apiKey">, tool: string, args: Record<string, unknown>, key?: string) =>
  send(`/rest/v1/${tool}`, {
    method: "POST",
    headers: { ...authHeader(account.apiKey), "Content-Type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
    body: JSON.stringify(args),
  });

const withKey = (account: Pick<Account, "apiKey">, args: Record<string, unknown>, key: string): RequestInit => ({
  method: "POST",
  headers: { ...authHeader(account.apiKey), "Content-Type": "application/json", "Idempotency-Key": key },
  body: JSON.stringify(args),
});

const libraryCount = async (account: Account) => (await account.call("getLibrary", { fields: [] })).body.totalCount as number;

describe("Idempotency-Key", () => {
  it("replays the stored answer for a retry with the same key and arguments, writing once", async () => {
    const account = await newAccount();
    const first = await post(account, "addToLibrary", { gameId: A, memo: "初回" }, "retry-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const retry = await post(account, "addToLibrary", { memo: "初回", gameId: A }, "retry-1");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect(await libraryCount(account)).toBe(1);
    // Without the key the same add is a conflict: the key is what makes a retry safe.
    expect((await post(account, "addToLibrary", { gameId: A })).body.code).toBe("already_exists");
  });

  it("refuses the same key with other arguments or another tool with a 409 naming the header", async () => {
    const account = await newAccount();
    await post(account, "addToLibrary", { gameId: A }, "k-2");
    for (const [tool, args] of [
      ["addToLibrary", { gameId: B }],
      ["addToWishlist", { gameId: A }],
    ] as const) {
      const reply = await post(account, tool, args, "k-2");
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ code: "idempotency_conflict", field: "Idempotency-Key" });
    }
    expect(await libraryCount(account)).toBe(1);
  });

  it("keeps keys apart per user", async () => {
    const [one, two] = [await newAccount(), await newAccount()];
    expect((await post(one, "addToLibrary", { gameId: A }, "shared")).status).toBe(200);
    const other = await post(two, "addToLibrary", { gameId: A }, "shared");
    expect(other.status).toBe(200);
    expect(other.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await libraryCount(two)).toBe(1);
  });

  it("stores nothing for a failed request, so its retry runs again", async () => {
    const account = await newAccount();
    const failed = await post(account, "updateLibraryEntry", { gameId: A, memo: "x" }, "k-4");
    expect(failed.status).toBe(404);
    await account.call("addToLibrary", { gameId: A });
    const retried = await post(account, "updateLibraryEntry", { gameId: A, memo: "x" }, "k-4");
    expect(retried.status).toBe(200);
    expect(retried.body.item.memo).toBe("x");
  });

  it("runs one of many concurrent duplicates; the others replay it or are told to retry", async () => {
    const account = await newAccount();
    const keys = [account, ...(await Promise.all(Array.from({ length: 3 }, () => account.newKey(["library:read", "library:write"]))))];
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(keys[i % keys.length]!, "addToLibrary", { gameId: A }, "burst-key")),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(
      statuses.every((status) => status === 200 || status === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    const fresh = replies.filter((reply) => reply.status === 200 && reply.headers.get("Idempotent-Replayed") === null);
    expect(fresh).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status === 409)) {
      expect(reply.body).toMatchObject({ code: "idempotency_conflict", retryable: true });
    }
    expect(await libraryCount(account)).toBe(1);
  });

  it("keeps a two-step removal working under keys: the confirmation's answer replays, removing once", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const preview = await post(account, "removeFromLibrary", { gameId: A }, "rm-preview");
    expect(preview.body.confirmRequired).toBe(true);
    const confirmed = { gameId: A, confirmToken: preview.body.confirmToken };
    const removed = await post(account, "removeFromLibrary", confirmed, "rm-confirm");
    expect(removed.body).toMatchObject({ gameId: A, removed: true });
    const again = await post(account, "removeFromLibrary", confirmed, "rm-confirm");
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(removed.body);
    expect(await libraryCount(account)).toBe(0);
  });

  it("refuses a malformed key with 400 naming the header, and ignores keys on reads", async () => {
    const account = await newAccount();
    const bad = await post(account, "addToLibrary", { gameId: A }, "has space");
    expect(bad.body).toMatchObject({ code: "invalid_input", field: "Idempotency-Key" });
    const read = await post(account, "getLibrary", {}, "read-key");
    expect(read.status).toBe(200);
    const again = await post(account, "getLibrary", { limit: 5 }, "read-key");
    expect(again.status).toBe(200);
  });

  it("takes over a key whose 24 hours have passed", async () => {
    const account = await newAccount();
    await post(account, "addToLibrary", { gameId: A }, "old-key");
    await env.DB.prepare("UPDATE idempotency_keys SET expires_at = 0 WHERE user_id = ?").bind(account.userId).run();
    const reused = await post(account, "addToLibrary", { gameId: B }, "old-key");
    expect(reused.status).toBe(200);
    expect(reused.headers.get("Idempotent-Replayed")).toBeNull();
  });
});

/**
 * A request that died (kill -9, a lost isolate) leaves its claim pending. These put such a claim
 * in place (its lease long over), or hold a real request in flight and end its lease, then retry.
 */
describe("Idempotency-Key after a request died", () => {
  /** A claim as a request that died while running `tool` with `args` left it: pending, its lease over. */
  async function abandonedClaim(account: Account, key: string, tool: string, args: Record<string, unknown>, saved: boolean) {
    const requestHash = await sha256Hex(JSON.stringify([tool, canonical(args)]));
    await env.DB.prepare(
      "INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, state, expires_at, claim_id, lease_until, saved) VALUES (?, ?, ?, 'pending', ?, 'dead', ?, ?)",
    )
      .bind(account.userId, key, requestHash, Date.now() + 86_400_000, Date.now() - 1000, saved ? 1 : 0)
      .run();
  }

  /** Ends the lease of the user's pending claims, as the passing of time would for a request that died. */
  const endLeases = (account: Account) =>
    env.DB.prepare("UPDATE idempotency_keys SET lease_until = 0 WHERE user_id = ? AND state = 'pending'").bind(account.userId).run();

  it("runs the write on a retry when the request died before saving it, then replays that answer", async () => {
    const account = await newAccount();
    await abandonedClaim(account, "died-early", "addToLibrary", { gameId: A }, false);
    const retry = await post(account, "addToLibrary", { gameId: A }, "died-early");
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await libraryCount(account)).toBe(1);
    const again = await post(account, "addToLibrary", { gameId: A }, "died-early");
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(retry.body);
  });

  it("answers saved: true, writing nothing, when the request died after saving and before answering", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    await abandonedClaim(account, "died-late", "addToLibrary", { gameId: A }, true);
    for (let i = 0; i < 2; i++) {
      const retry = await post(account, "addToLibrary", { gameId: A }, "died-late");
      expect(retry.status).toBe(409);
      expect(retry.body).toMatchObject({ code: "idempotency_conflict", saved: true, retryable: false, field: "Idempotency-Key" });
    }
    expect(await libraryCount(account)).toBe(1);
  });

  it("marks the claim saved in the write's own batch: a request stopped right after its write is told apart", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const playId = (await account.call("addPlayRecord", { gameId: A })).body.playId as string;
    const held = holdFirstCall(addPlayLog, "testHeldAddPlayLog", "afterHandler");
    const app = testApp([held.tool]);
    const args = { playId, playTime: 30 };
    const first = sendTo(app, "/rest/v1/testHeldAddPlayLog", withKey(account, args, "log-once"));
    await held.reached;
    const claim = await env.DB.prepare("SELECT state, saved FROM idempotency_keys WHERE user_id = ?").bind(account.userId).first();
    expect(claim).toEqual({ state: "pending", saved: 1 });
    await endLeases(account);
    const retry = await sendTo(app, "/rest/v1/testHeldAddPlayLog", withKey(account, args, "log-once"));
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: "idempotency_conflict", saved: true });
    held.release();
    expect((await first).status).toBe(200);
    expect((await account.call("getPlayLogs", { playId })).body.totalCount).toBe(1);
  });

  it("lets a retry take over a request that outlived its lease before writing; the late request cannot write", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: A });
    const playId = (await account.call("addPlayRecord", { gameId: A })).body.playId as string;
    const held = holdFirstCall(addPlayLog, "testHeldAddPlayLog", "beforeHandler");
    const app = testApp([held.tool]);
    const args = { playId, playTime: 45 };
    const late = sendTo(app, "/rest/v1/testHeldAddPlayLog", withKey(account, args, "log-takeover"));
    await held.reached;
    await endLeases(account);
    const retry = await sendTo(app, "/rest/v1/testHeldAddPlayLog", withKey(account, args, "log-takeover"));
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    held.release();
    const lateReply = await late;
    expect(lateReply.status).toBe(409);
    expect(lateReply.body).toMatchObject({ code: "idempotency_conflict", retryable: true });
    expect((await account.call("getPlayLogs", { playId })).body.totalCount).toBe(1);
    const replay = await sendTo(app, "/rest/v1/testHeldAddPlayLog", withKey(account, args, "log-takeover"));
    expect(replay.body).toEqual(retry.body);
  });
});
