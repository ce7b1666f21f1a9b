import { eq } from "drizzle-orm";
import { users } from "../db/schema";
import type { Db } from "./db";
import { DEFAULT_TIME_ZONE, dayIn } from "./time";

/** The user's time zone (the account's setting; the default if the user is gone). */
export async function timeZoneOf(db: Db, userId: string): Promise<string> {
  const [user] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
  return user?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** The user's "today" at `now`: the day in their account's time zone, YYYY-MM-DD. */
export const todayOf = async (db: Db, userId: string, now: Date) => dayIn(now, await timeZoneOf(db, userId));

/**
 * The user's "today", read only when a write needs it (a default date): a write that sets its
 * dates itself reads nothing more. Read once per call.
 */
export function lazyToday(db: Db, userId: string, now: Date): () => Promise<string> {
  let today: Promise<string> | undefined;
  return () => {
    today ??= todayOf(db, userId, now);
    return today;
  };
}
