import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../bindings";
import { digestsEqual } from "./hashing";
import { PLAN_LIMITS, type Plan, type Scope } from "./plans";
import { burstWindowOf, type CallTerms } from "./quota";
import { DAY_MS, utcDay } from "./time";

/**
 * One user's accounting, in a Durable Object of its own (SQLite-backed): the daily quota's count
 * per UTC day (the last USAGE_HISTORY_DAYS days, which the settings page charts), each key's burst
 * window and last use, and what admission needs to know of the keys and the account to decide
 * alone: each key's hash, scopes, expiry and revocation, the user's plan and suspension. An object
 * runs one request at a time and every method here is synchronous SQL, so each check-then-count is
 * exact however many calls arrive at once, and a read call writes nothing to D1.
 *
 * D1 stays the directory (users, keys). The object learns a key or the account the first time a
 * call presents it (a seed read from D1, taken only where the object knows nothing yet), and hears
 * every change after that before D1 does (revocations, plan, suspension), so what it knows is never
 * staler than D1: a revoked key is refused at once, and a seed read before the change cannot undo it.
 */
export class UserAccounting extends DurableObject<Bindings> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    for (const statement of TABLES) this.sql.exec(statement);
  }

  /**
   * Admits a request of a key: checks the key and the account, counts `units` in the key's burst
   * window when it has room for them all, and, for a tool call (`charge`), adds its cost to today's
   * count when the call will be admitted (the key holds the scopes, the plan is one the tool runs
   * on, the window had room, the quota has room). A refused call never holds a unit of the quota.
   */
  admit(request: AdmitRequest): AdmitAnswer {
    if (request.seed) this.takeSeed(request.keyId, request.seed);
    const key = this.keyOf(request.keyId);
    const account = this.accountOf();
    if (!key || !account) return { status: "unseeded" };
    if (!keyAccepts(key, request.keyHash, request.now)) return { status: "invalid" };
    if (account.suspended) return { status: "suspended" };
    const { burstLimit } = PLAN_LIMITS[account.plan];
    const window = burstWindowOf(new Date(request.now)).start;
    const inWindow = key.window_start === window ? key.window_count : 0;
    const burstAdmitted = inWindow + request.units <= burstLimit;
    const scopes = JSON.parse(key.scopes) as Scope[];
    const terms = request.charge;
    const chargeable = terms !== undefined && burstAdmitted && holdsTerms(scopes, account.plan, terms);
    const daily = chargeable
      ? this.chargeDay(request.now, terms.cost ?? 1, account.plan)
      : { used: this.usedOn(utcDay(new Date(request.now))), charged: false };
    if (burstAdmitted) {
      this.sql.exec(
        "UPDATE keys SET window_start = ?, window_count = ?, last_used_at = ? WHERE key_id = ?",
        window,
        inWindow + request.units,
        request.now,
        request.keyId,
      );
    }
    return {
      status: "admitted",
      plan: account.plan,
      scopes,
      burst: { used: burstAdmitted ? inWindow + request.units : burstLimit, admitted: burstAdmitted },
      daily,
    };
  }

  /**
   * Charges `cost` to today's count with no key (a signed link's download, an import's batches):
   * only while the quota has room and the account is not suspended.
   */
  chargeAccount(request: AccountChargeRequest): AccountChargeAnswer {
    if (request.seed) this.takeAccountSeed(request.seed);
    const account = this.accountOf();
    if (!account) return { status: "unseeded" };
    if (account.suspended) return { status: "suspended" };
    const daily = this.chargeDay(request.now, request.cost, account.plan);
    return { status: daily.charged ? "charged" : "quota_exceeded", plan: account.plan, used: daily.used };
  }

  /** Gives back a charge whose work delivered nothing. */
  refund(day: string, cost: number): void {
    this.sql.exec("UPDATE daily_usage SET count = max(0, count - ?) WHERE day = ?", cost, day);
  }

  /** The counts of these UTC days (a day without calls is left out). */
  usage(days: readonly string[]): UsageCount[] {
    return this.sql
      .exec<{ day: string; count: number }>(
        "SELECT day, count FROM daily_usage WHERE day IN (SELECT value FROM json_each(?)) ORDER BY day",
        JSON.stringify(days),
      )
      .toArray()
      .map(({ day, count }) => ({ day, count }));
  }

  /** When each of these keys was last admitted (epoch ms); a key never used is left out. */
  lastUses(keyIds: readonly string[]): KeyLastUse[] {
    return this.sql
      .exec<{ key_id: string; last_used_at: number }>(
        "SELECT key_id, last_used_at FROM keys WHERE last_used_at IS NOT NULL AND key_id IN (SELECT value FROM json_each(?))",
        JSON.stringify(keyIds),
      )
      .toArray()
      .map((row) => ({ keyId: row.key_id, lastUsedAt: row.last_used_at }));
  }

  /** Refuses these keys from now on, whether or not a call has presented them yet. */
  revokeKeys(keyIds: readonly string[]): void {
    for (const keyId of keyIds) {
      this.sql.exec("INSERT INTO keys (key_id, revoked) VALUES (?, 1) ON CONFLICT (key_id) DO UPDATE SET revoked = 1", keyId);
    }
  }

  /** The operator changed the plan or the suspension: the object holds the new value from now on. */
  changeAccount(change: AccountChange): void {
    this.sql.exec(
      `INSERT INTO account (one, plan, suspended) VALUES (1, ?, ?)
       ON CONFLICT (one) DO UPDATE SET plan = coalesce(excluded.plan, plan), suspended = coalesce(excluded.suspended, suspended)`,
      change.plan ?? null,
      change.suspended === undefined ? null : Number(change.suspended),
    );
  }

  /** Adds `cost` to today's count when it stays within the plan's quota; today's count either way. */
  private chargeDay(now: number, cost: number, plan: Plan): DailyCount {
    const day = utcDay(new Date(now));
    const used = this.usedOn(day);
    if (cost === 0) return { used, charged: true };
    if (used + cost > PLAN_LIMITS[plan].dailyQuota) return { used, charged: false };
    if (used === 0) this.forgetDaysBefore(now);
    this.sql.exec(
      "INSERT INTO daily_usage (day, count) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET count = count + excluded.count",
      day,
      cost,
    );
    return { used: used + cost, charged: true };
  }

  private usedOn(day: string): number {
    return this.sql.exec<{ count: number }>("SELECT count FROM daily_usage WHERE day = ?", day).toArray()[0]?.count ?? 0;
  }

  /** Days older than the history the settings page charts are of no more use. */
  private forgetDaysBefore(now: number) {
    this.sql.exec("DELETE FROM daily_usage WHERE day < ?", utcDay(new Date(now - (USAGE_HISTORY_DAYS - 1) * DAY_MS)));
  }

  private keyOf(keyId: string): KeyRecord | undefined {
    return this.sql.exec<KeyRecord>("SELECT * FROM keys WHERE key_id = ?", keyId).toArray()[0];
  }

  private accountOf(): AccountRecord | undefined {
    const row = this.sql.exec<{ plan: Plan | null; suspended: number | null }>("SELECT plan, suspended FROM account").toArray()[0];
    if (!row || row.plan === null || row.suspended === null) return undefined;
    return { plan: row.plan, suspended: row.suspended === 1 };
  }

  /** A seed fills in only what the object does not know: what it heard directly is never older. */
  private takeSeed(keyId: string, seed: KeySeed) {
    this.sql.exec(
      "INSERT INTO keys (key_id, key_hash, scopes, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (key_id) DO NOTHING",
      keyId,
      seed.keyHash,
      JSON.stringify(seed.scopes),
      seed.expiresAt,
    );
    this.takeAccountSeed(seed);
  }

  private takeAccountSeed(seed: AccountSeed) {
    this.sql.exec(
      `INSERT INTO account (one, plan, suspended) VALUES (1, ?, ?)
       ON CONFLICT (one) DO UPDATE SET plan = coalesce(plan, excluded.plan), suspended = coalesce(suspended, excluded.suspended)`,
      seed.plan,
      Number(seed.suspended),
    );
  }
}

/** Days the settings page charts: today and the 29 UTC days before it. */
export const USAGE_HISTORY_DAYS = 30;

/**
 * The object's tables. `keys` rows are made by a seed (a live key as D1 holds it) or by a
 * revocation the object hears of first (no hash: a key that can never be admitted).
 */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS keys (
    key_id TEXT PRIMARY KEY,
    key_hash TEXT,
    scopes TEXT NOT NULL DEFAULT '[]',
    expires_at INTEGER,
    revoked INTEGER NOT NULL DEFAULT 0,
    window_start INTEGER NOT NULL DEFAULT 0,
    window_count INTEGER NOT NULL DEFAULT 0,
    last_used_at INTEGER
  )`,
  "CREATE TABLE IF NOT EXISTS account (one INTEGER PRIMARY KEY CHECK (one = 1), plan TEXT, suspended INTEGER)",
  "CREATE TABLE IF NOT EXISTS daily_usage (day TEXT PRIMARY KEY, count INTEGER NOT NULL)",
];

interface KeyRecord extends Record<string, SqlStorageValue> {
  key_id: string;
  key_hash: string | null;
  scopes: string;
  expires_at: number | null;
  revoked: number;
  window_start: number;
  window_count: number;
  last_used_at: number | null;
}

interface AccountRecord {
  plan: Plan;
  suspended: boolean;
}

/** A key is admitted while it is unrevoked, unexpired and presented with its secret (compared in constant time). */
function keyAccepts(key: KeyRecord, presentedHash: string, now: number): boolean {
  if (key.key_hash === null || !digestsEqual(presentedHash, key.key_hash)) return false;
  return key.revoked === 0 && (key.expires_at === null || key.expires_at > now);
}

const holdsTerms = (scopes: readonly Scope[], plan: Plan, terms: CallTerms) =>
  terms.scopes.every((scope) => scopes.includes(scope)) && terms.plans.includes(plan);

export interface AccountSeed {
  plan: Plan;
  suspended: boolean;
}

/** A live key and its account as D1 holds them, verified against the presented secret. */
export interface KeySeed extends AccountSeed {
  keyHash: string;
  scopes: readonly Scope[];
  /** Epoch ms; null: never expires. */
  expiresAt: number | null;
}

export interface AdmitRequest {
  keyId: string;
  /** SHA-256 hex of the presented key. */
  keyHash: string;
  seed?: KeySeed;
  /** The call's instant (epoch ms): its burst window and UTC day. */
  now: number;
  /** Requests counted in the burst window, all or none (0: authentication only). */
  units: number;
  /** A tool call: charged to today's count when it will be admitted. */
  charge?: CallTerms;
}

export interface DailyCount {
  /** Today's count after this request. */
  used: number;
  charged: boolean;
}

export type AdmitAnswer =
  /** The object does not know the key or the account yet: read them from D1 and send a seed. */
  | { status: "unseeded" }
  /** Unknown secret, revoked or expired. */
  | { status: "invalid" }
  | { status: "suspended" }
  | {
      status: "admitted";
      plan: Plan;
      scopes: Scope[];
      /** The window's count after this request (the limit when it had no room). */
      burst: { used: number; admitted: boolean };
      daily: DailyCount;
    };

export interface AccountChargeRequest {
  now: number;
  cost: number;
  seed?: AccountSeed;
}

export type AccountChargeAnswer =
  | { status: "unseeded" }
  | { status: "suspended" }
  | { status: "charged" | "quota_exceeded"; plan: Plan; used: number };

export interface UsageCount {
  day: string;
  count: number;
}

export interface KeyLastUse {
  keyId: string;
  lastUsedAt: number;
}

export interface AccountChange {
  plan?: Plan;
  suspended?: boolean;
}
