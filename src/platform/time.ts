/**
 * Time as this service counts it: UTC days for quotas, the person's own day (their account's time
 * zone) for "today" in dates they record and overdue filters, ISO timestamps.
 */

export const DAY_MS = 86_400_000;

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (instant: Date) => instant.toISOString().slice(0, 10);

export const nextUtcMidnight = (now: Date) => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);

/** Whole seconds from one instant to a later one, rounded up, never below `atLeast`. */
export const secondsUntil = (from: Date, to: Date, atLeast = 0) => Math.max(atLeast, Math.ceil((to.getTime() - from.getTime()) / 1000));

/** Formatters by time zone: building one costs far more than using it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day of an instant in an IANA time zone, YYYY-MM-DD. */
export function dayIn(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day}`;
}

/** The time zone new accounts start with (existing ones got it by migration 0010). */
export const DEFAULT_TIME_ZONE = "Asia/Tokyo";

/** The IANA name of a time zone as Intl knows it (canonical case), or undefined when it is not one. */
export function timeZoneNamed(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name) || name.length > 64) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  // ICU also takes abbreviations (JST, EST) as aliases: a zone is named by its region ("Asia/Tokyo",
  // links such as "Japan/..." included) or as Intl itself names it ("UTC").
  return name.includes("/") || name.toLowerCase() === resolved.toLowerCase() ? resolved : undefined;
}

export const nowIso = () => new Date().toISOString();

/** Formatters of an instant's wall-clock parts by time zone. */
const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** An instant's date and time on the clocks of a time zone: `YYYY-MM-DD HH:MM`. */
export function clockIn(instant: Date, timeZone: string): string {
  let format = clockFormats.get(timeZone);
  if (!format) {
    const parts = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
    format = new Intl.DateTimeFormat("en-US", { timeZone, ...parts });
    clockFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}

/** How far a time zone's clocks are ahead of UTC at an instant, in milliseconds. */
const offsetAt = (instant: Date, timeZone: string) => {
  const [day = "", time = ""] = clockIn(instant, timeZone).split(" ");
  return Date.parse(`${day}T${time}:00Z`) - Math.floor(instant.getTime() / 60_000) * 60_000;
};

/** The instant a day (YYYY-MM-DD) begins in a time zone (its midnight, or the first minute after a gap). */
export function startOfDayIn(day: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const guess = midnightUtc - offsetAt(new Date(midnightUtc), timeZone);
  return new Date(midnightUtc - offsetAt(new Date(guess), timeZone));
}

/** The day `days` after a day (YYYY-MM-DD), on the calendar. */
export const dayAfter = (day: string, days = 1) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
