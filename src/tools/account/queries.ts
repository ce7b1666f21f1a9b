import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema";
import type { Db } from "../../platform/db";
import type { Plan } from "../../platform/plans";

export async function findUser(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user;
}

export interface AccountUser {
  id: string;
  name: string | null;
  plan: Plan;
}

/** What getAccount shows of the user, as a statement for its batch. */
export const accountUserQuery = (userId: string) => sql`SELECT id, name, plan FROM users WHERE id = ${userId}`;
