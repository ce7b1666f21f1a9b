import { and, count, desc, eq, exists, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { apiKeys } from "../db/schema";
import { type AccountingEnv, accountingOf } from "../platform/admission";
import { API_KEYS_COUNTER, issueApiKey, keyIsLive } from "../platform/auth";
import { type Db, statements } from "../platform/db";
import { notFound } from "../platform/errors";
import { KEY_PRESETS, SCOPES, type Scope } from "../platform/plans";
import { addWithinLimit, type LimitContext, replaceWithinLimit, runConditional } from "../platform/registeredLimits";
import { DAY_MS, nowIso } from "../platform/time";
import { parseWith, refuseMalformedText } from "../platform/validation";
import { eventStatement } from "./events";

/** The spec's choices at issue time: two presets, or individual settings (the only way to `*:delete`). */
export const KEY_PRESET_CHOICES = ["viewOnly", "standard", "individual"] as const;
export type KeyPresetChoice = (typeof KEY_PRESET_CHOICES)[number];

/** The expiries a key may be given (days from its creation); null: it never expires. */
export const KEY_EXPIRY_DAYS = [30, 90, 365] as const;

const DELETE_SCOPES = SCOPES.filter((scope) => scope.endsWith(":delete"));

/** Why the chosen scopes do not go with the chosen preset; undefined when they do. */
function scopesProblem({ preset, scopes }: { preset: KeyPresetChoice; scopes?: readonly Scope[] }): string | undefined {
  if (preset === "individual") return scopes ? undefined : "choose the key's scopes: individual settings grant exactly the scopes chosen";
  if (!scopes) return undefined;
  if (scopes.some((scope) => DELETE_SCOPES.includes(scope))) {
    return `${DELETE_SCOPES.join(" and ")} can be granted only with individual settings (preset individual)`;
  }
  return `scopes are chosen only with individual settings (preset individual); ${preset} grants ${KEY_PRESETS[preset].join(", ")}`;
}

/** What a person (the settings page) or the operator (src/admin) chooses for a new key. */
export const keyChoiceInput = z
  .strictObject({
    preset: z.enum(KEY_PRESET_CHOICES),
    scopes: z.array(z.enum(SCOPES)).min(1).optional(),
    name: z.string().min(1).max(100).nullable().optional(),
    expiresInDays: z
      .literal(KEY_EXPIRY_DAYS, { error: "must be 30, 90 or 365 (days), or null for a key that never expires" })
      .nullable()
      .optional(),
  })
  .superRefine((choice, ctx) => {
    const problem = scopesProblem(choice);
    if (problem) ctx.addIssue({ code: "custom", path: ["scopes"], message: problem });
  });
export type KeyChoice = z.input<typeof keyChoiceInput>;

export interface IssuedKeyAnswer {
  keyId: string;
  /** The secret, shown this once: only its hash is stored. */
  apiKey: string;
  scopes: Scope[];
  expiresAt: string | null;
}

const expiryOf = (days: number | null | undefined, now: Date) => (days ? new Date(now.getTime() + days * DAY_MS).toISOString() : null);

/** The label of a key in the activity list: its id, prefix and name (when it has one). */
export const keyDetail = (keyId: string, displayPrefix: string, name: string | null) => ({
  keyId,
  displayPrefix,
  ...(name ? { name } : {}),
});

/**
 * The OAuth connection a key is granted to (a connected assistant, connectedAssistants.ts), and
 * which of the user's live keys it replaces: the earlier keys of the same connection.
 */
export interface KeyConnection {
  /** Told of the replaced keys' revocation (revokeKeysOf). */
  accounting: AccountingEnv;
  oauthClientId: string;
  oauthRedirectUri: string;
  replaces: SQL;
}

/**
 * The one way keys are made (the operator API, the settings page, an OAuth consent): checks the
 * choice (400 naming the field), then stores the key's hash and records keyCreated in one batch
 * that holds the plan's key limit (403 plan_required past it). A connection's key revokes the keys
 * it replaces in the same batch, so reconnecting an assistant at the limit still works.
 */
export async function issueKeyFor(
  db: Db,
  limit: LimitContext,
  choice: KeyChoice,
  { connection, expiresAt: chosenExpiry }: { connection?: KeyConnection; expiresAt?: string } = {},
): Promise<IssuedKeyAnswer> {
  refuseMalformedText(choice);
  const { preset, scopes: chosen, name = null, expiresInDays } = parseWith(keyChoiceInput, choice);
  const scopes = preset === "individual" ? [...new Set(chosen)] : [...KEY_PRESETS[preset]];
  const expiresAt = chosenExpiry ?? expiryOf(expiresInDays, new Date());
  const issued = await issueApiKey();
  const row = { id: issued.keyId, userId: limit.userId, name, displayPrefix: issued.displayPrefix, keyHash: issued.keyHash };
  const { replaces, accounting, ...connectedTo } = connection ?? { replaces: undefined, accounting: undefined };
  const adds = [
    statements
      .insert(apiKeys)
      .values({ ...row, scopes, createdAt: nowIso(), expiresAt, ...connectedTo })
      .getSQL(),
    eventStatement(limit.userId, "keyCreated", keyDetail(issued.keyId, issued.displayPrefix, name)),
  ];
  if (replaces && accounting) {
    await revokeKeysOf(accounting, db, limit.userId, replaces, nowIso(), (revoking) =>
      replaceWithinLimit(db, limit, API_KEYS_COUNTER, [revoking, ...adds]),
    );
  } else await addWithinLimit(db, limit, API_KEYS_COUNTER, adds);
  return { keyId: issued.keyId, apiKey: issued.apiKey, scopes, expiresAt };
}

const keyIdsOf = async (db: Db, userId: string, which: SQL) =>
  (
    await db
      .select({ keyId: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), which))
  ).map((key) => key.keyId);

/**
 * Revokes the user's unrevoked keys that `which` selects: `write` runs the D1 statement (in its
 * batch). The user's accounting object, which admits calls, is told first, so a failure in between
 * leaves the keys refused rather than listed revoked but working; it is told again of every key
 * the statement revoked, which covers a key made in between.
 */
export async function revokeKeysOf(
  accounting: AccountingEnv,
  db: Db,
  userId: string,
  which: SQL,
  revokedAt: string,
  write: (revoking: SQL) => Promise<void>,
  endedReason: EndedReason | null = null,
) {
  const unrevoked = and(isNull(apiKeys.revokedAt), which)!;
  const account = accountingOf(accounting, userId);
  await account.revokeKeys(await keyIdsOf(db, userId, unrevoked));
  await write(
    statements
      .update(apiKeys)
      .set({ revokedAt, endedReason })
      .where(and(eq(apiKeys.userId, userId), unrevoked))
      .getSQL(),
  );
  await account.revokeKeys(await keyIdsOf(db, userId, and(isNotNull(apiKeys.revokedAt), which)!));
}

export type KeyState = "active" | "revoked" | "expired";

/** Why the service itself ended a connected assistant (src/accounts/oauthClaims.ts): a code or refresh token used twice. */
export type EndedReason = "code_reused" | "refresh_token_reused";

export const keyState = sql<KeyState>`CASE WHEN ${apiKeys.revokedAt} IS NOT NULL THEN 'revoked'
  WHEN ${keyIsLive(apiKeys.revokedAt, apiKeys.expiresAt)} THEN 'active' ELSE 'expired' END`;

export interface KeyListItem {
  keyId: string;
  name: string | null;
  /** The key's first characters (`rgc_` and six more), enough to recognise it; never the secret. */
  displayPrefix: string;
  scopes: Scope[];
  createdAt: string;
  /** When a call with the key was last admitted; null: never used. */
  lastUsedAt: string | null;
  expiresAt: string | null;
  state: KeyState;
  /** A connected assistant's key: the host its OAuth grant sends access to; null for other keys. */
  connectedTo: string | null;
  /** Why the service ended the connection; null unless it did. */
  endedReason: EndedReason | null;
}

/** Which of a user's keys a list shows: those made as keys, those made by an assistant's OAuth consent, or all. */
export type KeyKind = "keys" | "assistants" | "all";

const OF_KIND: Record<KeyKind, SQL | undefined> = {
  keys: isNull(apiKeys.oauthClientId),
  assistants: isNotNull(apiKeys.oauthClientId),
  all: undefined,
};

/**
 * Where a redirect URI sends access, as a person recognises it: its host and port (a web address,
 * or an app on this computer), or the scheme and name of a desktop app's own URI (cursor://...).
 */
export function redirectTargetOf(uri: string): string {
  const url = new URL(uri);
  return url.protocol === "https:" || url.protocol === "http:" ? url.host : `${url.protocol}//${url.host}`;
}

const hostOf = (uri: string | null) => (uri === null ? null : redirectTargetOf(uri));

/** Which of a kind's keys a list shows: the live ones, the revoked and expired ones, or all. */
export type KeyStates = "live" | "ended" | "all";

const OF_STATES: Record<KeyStates, SQL | undefined> = {
  live: keyIsLive(apiKeys.revokedAt, apiKeys.expiresAt),
  ended: sql`NOT (${keyIsLive(apiKeys.revokedAt, apiKeys.expiresAt)})`,
  all: undefined,
};

/**
 * The user's keys of one kind, newest first, a page at a time; never the secret nor its hash. Last
 * use comes from the user's accounting object, which notes it as it admits each call (D1 is not
 * written per call).
 */
export async function listKeys(
  accounting: AccountingEnv,
  db: Db,
  userId: string,
  page: number,
  limit: number,
  kind: KeyKind = "all",
  states: KeyStates = "all",
): Promise<{ items: KeyListItem[]; totalCount: number }> {
  const ofUser = and(eq(apiKeys.userId, userId), OF_KIND[kind], OF_STATES[states]);
  const [rows, [total]] = await db.batch([
    keyRows(db, ofUser)
      // raw SQL: rowid is no schema column; it orders keys made within one millisecond as they were made.
      .orderBy(desc(apiKeys.createdAt), sql`${apiKeys}.rowid DESC`)
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(apiKeys).where(ofUser),
  ]);
  return { items: await withLastUse(accounting, userId, rows), totalCount: total?.n ?? 0 };
}

/** One of the user's keys as a list shows it; undefined when the user has no key of that id. */
export async function userKey(accounting: AccountingEnv, db: Db, userId: string, keyId: string): Promise<KeyListItem | undefined> {
  const rows = await keyRows(db, and(eq(apiKeys.userId, userId), eq(apiKeys.id, keyId)));
  return (await withLastUse(accounting, userId, rows))[0];
}

const keyRows = (db: Db, where: SQL | undefined) =>
  db
    .select({
      keyId: apiKeys.id,
      name: apiKeys.name,
      displayPrefix: apiKeys.displayPrefix,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      expiresAt: apiKeys.expiresAt,
      state: keyState,
      redirectUri: apiKeys.oauthRedirectUri,
      endedReason: apiKeys.endedReason,
    })
    .from(apiKeys)
    .where(where);

type KeyRow = Awaited<ReturnType<typeof keyRows>>[number];

async function withLastUse(accounting: AccountingEnv, userId: string, rows: KeyRow[]): Promise<KeyListItem[]> {
  const uses = rows.length > 0 ? await accountingOf(accounting, userId).lastUses(rows.map((row) => row.keyId)) : [];
  const lastUseOf = new Map(uses.map((use) => [use.keyId, new Date(use.lastUsedAt).toISOString()]));
  return rows.map(({ redirectUri, endedReason, ...key }) => ({
    ...key,
    endedReason: endedReason as EndedReason | null,
    scopes: key.scopes as Scope[],
    lastUsedAt: lastUseOf.get(key.keyId) ?? null,
    connectedTo: hostOf(redirectUri),
  }));
}

/** The user a key belongs to (revoked or not), for the operator, who names keys without their owner. */
export async function keyOf(
  db: Db,
  keyId: string,
): Promise<(Pick<typeof apiKeys.$inferSelect, "userId" | "name" | "displayPrefix"> & { connectedTo: string | null }) | undefined> {
  const [key] = await db
    .select({ userId: apiKeys.userId, name: apiKeys.name, displayPrefix: apiKeys.displayPrefix, redirectUri: apiKeys.oauthRedirectUri })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId));
  if (!key) return undefined;
  const { redirectUri, ...named } = key;
  return { ...named, connectedTo: hostOf(redirectUri) };
}

/**
 * Revokes one of the user's unrevoked keys and records keyRevoked, in one batch guarded so that of
 * two concurrent revocations one does it and the other is told 404. Another user's key, an unknown
 * id or a key already revoked: 404. The user's accounting object, which admits every call, is told
 * first (revokeKeysOf), so the key stops working at once.
 */
export async function revokeKeyOf(
  accounting: AccountingEnv,
  db: Db,
  userId: string,
  keyId: string,
  endedReason: EndedReason | null = null,
): Promise<{ keyId: string; revokedAt: string }> {
  const thisKey = eq(apiKeys.id, keyId);
  const unrevoked = and(thisKey, eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));
  const [key] = await db.select({ name: apiKeys.name, displayPrefix: apiKeys.displayPrefix }).from(apiKeys).where(unrevoked);
  const gone = () => notFound("The active key");
  if (!key) throw gone();
  const stillUnrevoked = exists(statements.select({ one: sql`1` }).from(apiKeys).where(unrevoked));
  const revokedAt = nowIso();
  await revokeKeysOf(
    accounting,
    db,
    userId,
    thisKey,
    revokedAt,
    (revoking) =>
      runConditional(
        db,
        [{ holds: stillUnrevoked, error: gone }],
        [revoking, eventStatement(userId, "keyRevoked", keyDetail(keyId, key.displayPrefix, key.name))],
      ),
    endedReason,
  );
  return { keyId, revokedAt };
}
