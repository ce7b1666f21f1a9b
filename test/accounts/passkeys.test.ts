import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventStatement, listEvents } from "../../src/accounts/events";
import { createInvite } from "../../src/accounts/invites";
import { listPasskeys, markPasskeyUsed, removePasskey } from "../../src/accounts/passkeys";
import { passkeys } from "../../src/db/schema";
import { queryBatch } from "../../src/platform/db";
import { db, type Member, member, TestBrowser } from "../support/accountsHarness";
import { SoftwareAuthenticator } from "../support/authenticator";
import { headStartOf, race } from "../support/race";

/** Adds a passkey of a new authenticator while signed in, as the settings page does. */
async function addPasskey({ browser, csrfToken }: Member, name?: string) {
  const authenticator = new SoftwareAuthenticator();
  const started = await browser.checked("/passkeys/options", csrfToken);
  const response = await authenticator.createCredential(started.body.options, browser.origin);
  const done = await browser.checked("/passkeys/verify", csrfToken, { ceremonyToken: started.body.ceremonyToken, response, name });
  return { authenticator, done };
}

describe("passkeys of a signed-in person", () => {
  it("adds another passkey, listed oldest first without the public key", async () => {
    const someone = await member();
    const { done, authenticator } = await addPasskey(someone, "Phone");
    expect(done.body).toEqual({ userId: someone.userId, passkeyId: authenticator.credentials[0]!.id, newUser: false });
    const listed = await listPasskeys(db, someone.userId);
    expect(listed.map((p) => p.passkeyId)).toEqual([someone.authenticator.credentials[0]!.id, authenticator.credentials[0]!.id]);
    expect(listed[1]).toEqual({
      passkeyId: authenticator.credentials[0]!.id,
      name: "Phone",
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain("publicKey");
    expect((await new TestBrowser().signIn(authenticator)).body.userId).toBe(someone.userId);
  });

  it("excludes the passkeys the user has, and refuses one registered twice", async () => {
    const someone = await member();
    const started = await someone.browser.checked("/passkeys/options", someone.csrfToken);
    expect(started.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([someone.authenticator.credentials[0]!.id]);
    // A credential id that is already stored (planted here under another user) is not registered again.
    const again = await new SoftwareAuthenticator().createCredential(started.body.options, someone.browser.origin);
    const other = await member();
    await db.insert(passkeys).values({ id: again.id, userId: other.userId, publicKey: "AA", counter: 0, transports: [], name: "planted" });
    const reply = await someone.browser.checked("/passkeys/verify", someone.csrfToken, {
      ceremonyToken: started.body.ceremonyToken,
      response: again,
    });
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe("already_exists");
    expect(await listPasskeys(db, someone.userId)).toHaveLength(1);
  });

  it("completes a settings ceremony only there and for its own person: not through the invite route, not in another session", async () => {
    const someone = await member();
    const other = await member();
    const start = async () => {
      const started = await someone.browser.checked("/passkeys/options", someone.csrfToken);
      const response = await new SoftwareAuthenticator().createCredential(started.body.options, someone.browser.origin);
      return { ceremonyToken: started.body.ceremonyToken, response };
    };
    const viaInvite = await start();
    const asInvite = await someone.browser.post("/register/verify", viaInvite);
    expect(asInvite.status).toBe(400);
    expect(asInvite.body.field).toBe("ceremonyToken");
    const viaOther = await start();
    expect((await other.browser.checked("/passkeys/verify", other.csrfToken, viaOther)).status).toBe(400);
    const stored = await db
      .select()
      .from(passkeys)
      .where(inArray(passkeys.id, [viaInvite.response.id, viaOther.response.id]));
    expect(stored).toEqual([]);
  });

  it("needs a session and its CSRF token to start adding one", async () => {
    const someone = await member();
    expect((await new TestBrowser().post("/passkeys/options")).status).toBe(401);
    expect((await someone.browser.post("/passkeys/options")).status).toBe(401);
  });
});

describe("a sign-in's counter", () => {
  it("is stored only while it moves forward, or stays 0 for authenticators that keep none", async () => {
    const someone = await member();
    const id = someone.authenticator.credentials[0]!.id;
    const at = new Date().toISOString();
    expect(await Promise.all([markPasskeyUsed(db, id, 7, at), markPasskeyUsed(db, id, 7, at)])).toEqual(
      expect.arrayContaining([true, false]),
    );
    expect(await markPasskeyUsed(db, id, 6, at)).toBe(false);
    expect(await markPasskeyUsed(db, id, 0, at)).toBe(false);
    const counterless = (await addPasskey(someone)).authenticator.credentials[0]!.id;
    expect([await markPasskeyUsed(db, counterless, 0, at), await markPasskeyUsed(db, counterless, 0, at)]).toEqual([true, true]);
  });
});

describe("removing a passkey", () => {
  it("removes one of two, records passkeyRemoved, and the removed one no longer signs in", async () => {
    const someone = await member();
    const { authenticator } = await addPasskey(someone, "Old key");
    const removedId = authenticator.credentials[0]!.id;
    await removePasskey(db, someone.userId, removedId);
    expect((await listPasskeys(db, someone.userId)).map((p) => p.passkeyId)).toEqual([someone.authenticator.credentials[0]!.id]);
    const { items } = await listEvents(db, someone.userId, 1, 1);
    expect(items[0]).toMatchObject({ kind: "passkeyRemoved", detail: { passkeyId: removedId, name: "Old key" } });
    expect((await new TestBrowser().signIn(authenticator)).status).toBe(401);
  });

  it("never removes the last one", async () => {
    const someone = await member();
    const only = someone.authenticator.credentials[0]!.id;
    await expect(removePasskey(db, someone.userId, only)).rejects.toMatchObject({
      code: "invalid_input",
      details: { field: "passkeyId" },
      message: "A passkey is the only way in: add another before removing this one.",
    });
    expect(await listPasskeys(db, someone.userId)).toHaveLength(1);
  });

  it("answers another user's passkey, and an unknown id, with not_found, touching nothing", async () => {
    const [me, them] = [await member(), await member()];
    await addPasskey(them);
    for (const passkeyId of [them.authenticator.credentials[0]!.id, "no-such-passkey"]) {
      await expect(removePasskey(db, me.userId, passkeyId)).rejects.toMatchObject({ code: "not_found" });
    }
    expect(await listPasskeys(db, them.userId)).toHaveLength(2);
  });

  it("leaves one when the last two are removed at once, whatever their interleaving", async () => {
    for (let round = 0; round < 8; round++) {
      const someone = await member();
      const { authenticator } = await addPasskey(someone);
      const ids = [someone.authenticator.credentials[0]!.id, authenticator.credentials[0]!.id];
      const outcomes = await race(
        () =>
          removePasskey(db, someone.userId, ids[0]!).then(
            () => "removed",
            (e) => e.code,
          ),
        () =>
          removePasskey(db, someone.userId, ids[1]!).then(
            () => "removed",
            (e) => e.code,
          ),
        headStartOf(round),
      );
      expect(outcomes.sort()).toEqual(["invalid_input", "removed"]);
      expect(await listPasskeys(db, someone.userId)).toHaveLength(1);
    }
  });

  it("removes one passkey once when two removals of it cross: the other is told it is gone", async () => {
    const someone = await member();
    const { authenticator } = await addPasskey(someone);
    await addPasskey(someone);
    const id = authenticator.credentials[0]!.id;
    const outcomes = await Promise.all(
      [0, 1].map(() =>
        removePasskey(db, someone.userId, id).then(
          () => "removed",
          (e) => e.code,
        ),
      ),
    );
    expect(outcomes.sort()).toEqual(["not_found", "removed"]);
    expect(await listPasskeys(db, someone.userId)).toHaveLength(2);
  });
});

describe("the activity list", () => {
  it("lists the user's events newest first, a page at a time, with the total", async () => {
    const someone = await member();
    await addPasskey(someone, "Second");
    const all = await listEvents(db, someone.userId, 1, 10);
    expect(all.totalCount).toBe(3);
    expect(all.items.map((e) => e.kind)).toEqual(["passkeyAdded", "signedIn", "passkeyAdded"]);
    expect(all.items[0]).toEqual({
      kind: "passkeyAdded",
      detail: { passkeyId: expect.any(String), name: "Second" },
      createdAt: expect.any(String),
    });
    const second = await listEvents(db, someone.userId, 2, 2);
    expect(second).toEqual({ items: [all.items[2]], totalCount: 3 });
  });

  it("keeps the order of events recorded in one batch", async () => {
    const someone = await member();
    await queryBatch(db, [
      eventStatement(someone.userId, "keyCreated", { keyId: "key_1" }),
      eventStatement(someone.userId, "keyRevoked", { keyId: "key_1" }),
    ]);
    const { items } = await listEvents(db, someone.userId, 1, 2);
    expect(items.map((e) => e.kind)).toEqual(["keyRevoked", "keyCreated"]);
  });

  it("never shows one person's events to another", async () => {
    const [me, them] = [await member(), await member()];
    await addPasskey(them);
    const mine = await listEvents(db, me.userId, 1, 50);
    expect(mine.totalCount).toBe(2);
    expect(JSON.stringify(mine)).not.toContain(them.authenticator.credentials[0]!.id);
  });

  it("is what an invite registration, a sign-in and a removal leave", async () => {
    const someone = await member();
    const extra = new SoftwareAuthenticator();
    await new TestBrowser().registerWithInvite(extra, (await createInvite(db, someone.userId)).token);
    await removePasskey(db, someone.userId, extra.credentials[0]!.id);
    const { items } = await listEvents(db, someone.userId, 1, 10);
    expect(items.map((e) => e.kind)).toEqual(["passkeyRemoved", "passkeyAdded", "signedIn", "passkeyAdded"]);
  });
});
