import { describe, expect, it } from "vitest";
import { createInvite } from "../../src/accounts/invites";
import { ADDRESS_CEILING } from "../../src/accounts/throttle";
import { countFailure, failuresIn, FAILED_ATTEMPTS_PER_WINDOW as LIMIT } from "../../src/platform/failedAttempts";
import { burstWindowOf } from "../../src/platform/quota";
import { atWindowStart } from "../support/accounting";
import { db, freshAddress, member, newUser, TestBrowser } from "../support/accountsHarness";
import { SoftwareAuthenticator } from "../support/authenticator";

/**
 * Runs `attempt` until it starts and ends within one fixed window (it takes far less than one,
 * but could straddle a boundary, where the count starts again), and answers its result.
 */
async function withinOneWindow<T>(attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    const window = burstWindowOf(new Date()).start;
    const result = await attempt();
    if (burstWindowOf(new Date()).start === window) return result;
  }
}

/** A passkey the service does not know: every sign-in with it fails verification (401). */
async function strangerKey() {
  const stranger = new SoftwareAuthenticator();
  await stranger.createCredential(
    { rp: { id: "api.test", name: "x" }, user: { id: "dXNy", name: "u", displayName: "" }, challenge: "AAAA", pubKeyCredParams: [] },
    "https://api.test",
  );
  return stranger;
}

/** Sign-in answers prepared beforehand, so the failures themselves land together. */
async function preparedSignIns(browser: TestBrowser, authenticator: SoftwareAuthenticator, count: number) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const { ceremonyToken, options } = (await browser.post("/signin/options")).body;
      return { ceremonyToken, response: await authenticator.getAssertion(options, browser.origin) };
    }),
  );
}

describe("failed sign-ins per address", () => {
  it("answers the 11th failure within a window with 429 and Retry-After", async () => {
    const stranger = await strangerKey();
    const replies = await withinOneWindow(async () => {
      const browser = new TestBrowser();
      const answers = await preparedSignIns(browser, stranger, LIMIT + 1);
      const out = [];
      for (const answer of answers) out.push(await browser.post("/signin/verify", answer));
      return out;
    });
    expect(replies.slice(0, LIMIT).map((r) => r.status)).toEqual(Array(LIMIT).fill(401));
    const throttled = replies[LIMIT]!;
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ code: "rate_limited", retryable: true, message: expect.stringContaining("failed sign-ins") });
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(throttled.headers.get("Retry-After"))).toBeLessThanOrEqual(10);
  });

  it("counts parallel failures exactly: the limit answered with their own error, every other with 429", async () => {
    const stranger = await strangerKey();
    const statuses = await withinOneWindow(async () => {
      const browser = new TestBrowser();
      const answers = await preparedSignIns(browser, stranger, LIMIT * 3);
      return (await Promise.all(answers.map((answer) => browser.post("/signin/verify", answer)))).map((r) => r.status);
    });
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT * 2);
  });

  it("refuses even a right passkey from a throttled address, and only from that address", async () => {
    const { userId, authenticator } = await member();
    const stranger = await strangerKey();
    const { right, elsewhere } = await withinOneWindow(async () => {
      const browser = new TestBrowser();
      for (const answer of await preparedSignIns(browser, stranger, LIMIT)) await browser.post("/signin/verify", answer);
      return { right: await browser.signIn(authenticator), elsewhere: await new TestBrowser().signIn(authenticator) };
    });
    expect(right.status).toBe(429);
    expect(right.headers.get("Set-Cookie")).toBeNull();
    expect(elsewhere.body.userId).toBe(userId);
  });

  it("counts per address and browser: another browser (user agent) behind the same address still signs in", async () => {
    const { userId, authenticator } = await member();
    const stranger = await strangerKey();
    const { throttled, otherBrowser } = await withinOneWindow(async () => {
      const browser = new TestBrowser();
      const asAgent = (agent: string) => ({ "User-Agent": agent });
      for (const answer of await preparedSignIns(browser, stranger, LIMIT))
        await browser.post("/signin/verify", answer, asAgent("Browser A"));
      const [again] = await preparedSignIns(browser, stranger, 1);
      const started = await browser.post("/signin/options");
      const response = await authenticator.getAssertion(started.body.options, browser.origin);
      return {
        throttled: await browser.post("/signin/verify", again, asAgent("Browser A")),
        otherBrowser: await browser.post("/signin/verify", { ceremonyToken: started.body.ceremonyToken, response }, asAgent("Browser B")),
      };
    });
    expect(throttled.status).toBe(429);
    expect(otherBrowser.body.userId).toBe(userId);
  });

  it(`holds the whole address to ${ADDRESS_CEILING} failures per window, whatever user agents it names`, async () => {
    const stranger = await strangerKey();
    const browser = new TestBrowser();
    // Prepared first (the signing takes its time), fired together at the start of a window.
    const answers = await preparedSignIns(browser, stranger, ADDRESS_CEILING + 5);
    await atWindowStart();
    const replies = await Promise.all(
      answers.map((answer, i) => browser.post("/signin/verify", answer, { "User-Agent": `Agent ${i % 20}` })),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_CEILING);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  }, 60_000);

  it("does not count successful sign-ins", async () => {
    const { authenticator } = await member();
    const browser = new TestBrowser();
    for (let i = 0; i <= LIMIT; i++) expect((await browser.signIn(authenticator)).status).toBe(200);
  });
});

describe("failed invite links per address", () => {
  it("throttles guessed invite tokens, apart from sign-ins", async () => {
    const { token } = await createInvite(db, await newUser());
    const stranger = await strangerKey();
    const { guesses, rightInvite, signIn } = await withinOneWindow(async () => {
      const browser = new TestBrowser();
      const guesses = await Promise.all(
        Array.from({ length: LIMIT + 5 }, (_, i) => browser.post("/invite/options", { token: `guess-${i}` })),
      );
      const [answer] = await preparedSignIns(browser, stranger, 1);
      return {
        guesses,
        rightInvite: await browser.post("/invite/options", { token }),
        signIn: await browser.post("/signin/verify", answer),
      };
    });
    expect(guesses.filter((r) => r.status === 404)).toHaveLength(LIMIT);
    expect(guesses.filter((r) => r.status === 429)).toHaveLength(5);
    expect(rightInvite.status).toBe(429);
    expect(rightInvite.body.message).toContain("failed invite links");
    expect(signIn.status).toBe(401);
  });
});

describe("the shared counter", () => {
  it("counts in fixed windows: the limit holds within one, a new window starts again at one", async () => {
    const counter = `test:${freshAddress()}`;
    const windowAt = (start: number) => ({ start, end: new Date(start + 10_000) });
    const first = windowAt(2_000_000);
    const counted = await Promise.all([0, 1, 2, 3, 4].map(() => countFailure(db, counter, first, 3)));
    expect(counted.filter(Boolean)).toHaveLength(3);
    expect(await failuresIn(db, counter, first)).toBe(3);
    const next = windowAt(2_010_000);
    expect(await failuresIn(db, counter, next)).toBe(0);
    expect(await countFailure(db, counter, next, 3)).toBe(true);
    expect(await failuresIn(db, counter, next)).toBe(1);
  });
});
