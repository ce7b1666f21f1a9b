import { eq } from "drizzle-orm";
import { users } from "../db/schema";
import type { Db } from "../platform/db";
import { invalidInput } from "../platform/errors";
import { timeZoneNamed } from "../platform/time";

/**
 * Sets the account's time zone (its "today" for default dates and overdue filters): an IANA name
 * Intl knows, stored as Intl spells it; anything else is a 400 naming timeZone, nothing changed.
 */
export async function setTimeZone(db: Db, userId: string, name: string): Promise<string> {
  const timeZone = timeZoneNamed(name.trim());
  if (!timeZone)
    throw invalidInput("timeZone", `timeZone: '${name.slice(0, 64)}' is not an IANA time zone (e.g. Asia/Tokyo, Europe/Berlin, UTC).`);
  await db.update(users).set({ timeZone }).where(eq(users.id, userId));
  return timeZone;
}
