/**
 * Plans, scopes, key presets and every per-plan size, in one place. docs/conventions.md
 * ("Plans") mirrors this file.
 */
export const PLANS = ["FREE", "LIGHT", "PREMIUM"] as const;
export type Plan = (typeof PLANS)[number];

export const ALL_PLANS: readonly Plan[] = PLANS;
export const LIGHT_AND_ABOVE: readonly Plan[] = ["LIGHT", "PREMIUM"];
export const PREMIUM_ONLY: readonly Plan[] = ["PREMIUM"];

export const SCOPES = ["library:read", "library:write", "library:delete", "play:read", "play:write", "play:delete", "games:read"] as const;
export type Scope = (typeof SCOPES)[number];

const VIEW_ONLY: readonly Scope[] = ["library:read", "play:read", "games:read"];
/** Presets an operator picks from when issuing a key; only `individual` can grant `*:delete`. */
export const KEY_PRESETS = {
  viewOnly: VIEW_ONLY,
  standard: [...VIEW_ONLY, "library:write", "play:write"],
} as const satisfies Record<string, readonly Scope[]>;

/** One burst window for every plan, so the counter can be found before the key's plan is known. */
export const BURST_WINDOW_SEC = 10;

export interface PlanLimits {
  /** Calls one key may make per burst window (BURST_WINDOW_SEC). */
  burstLimit: number;
  /** Calls one user may make per UTC day, all keys together. */
  dailyQuota: number;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  FREE: { burstLimit: 20, dailyQuota: 1_000 },
  LIGHT: { burstLimit: 40, dailyQuota: 5_000 },
  PREMIUM: { burstLimit: 80, dailyQuota: 20_000 },
};

/** How many records of each kind a user may register, per plan (null: no limit). */
export const REGISTERED_LIMITS = {
  apiKeys: { FREE: 3, LIGHT: 10, PREMIUM: 25 },
  attributes: { FREE: 10, LIGHT: 50, PREMIUM: 200 },
  customGames: { FREE: 0, LIGHT: 0, PREMIUM: 1_000 },
  customPlatforms: { FREE: 0, LIGHT: 0, PREMIUM: 100 },
  customPublishers: { FREE: 0, LIGHT: 0, PREMIUM: 100 },
  library: { FREE: 500, LIGHT: 3_000, PREMIUM: 50_000 },
  wishlist: { FREE: 100, LIGHT: 1_000, PREMIUM: 10_000 },
  consoles: { FREE: 0, LIGHT: 50, PREMIUM: 500 },
  tags: { FREE: 0, LIGHT: 100, PREMIUM: 1_000 },
  collections: { FREE: 0, LIGHT: 0, PREMIUM: 200 },
} as const satisfies Record<string, Record<Plan, number | null>>;
export type RegisteredResource = keyof typeof REGISTERED_LIMITS;

/** Where plan_required errors send the user: the configured page, else this service's docs. */
export const upgradeUrlOf = (env: { UPGRADE_URL?: string }, origin: string) => env.UPGRADE_URL ?? `${origin}/docs`;
