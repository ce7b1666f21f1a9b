/** Time as this service counts it: UTC days (quotas, "today" in play and wish dates), ISO timestamps. */

export const DAY_MS = 86_400_000;

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (instant: Date) => instant.toISOString().slice(0, 10);

export const nextUtcMidnight = (now: Date) => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);

/** Whole seconds from one instant to a later one, rounded up, never below `atLeast`. */
export const secondsUntil = (from: Date, to: Date, atLeast = 0) => Math.max(atLeast, Math.ceil((to.getTime() - from.getTime()) / 1000));

export const nowIso = () => new Date().toISOString();
