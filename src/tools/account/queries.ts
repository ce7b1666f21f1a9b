import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { type Db, statements } from "../../platform/db";

const byId = (userId: string) => eq(users.id, userId);

export async function findUser(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(byId(userId));
  return user;
}

/** What getAccount shows of the user, as a statement for its batch. */
export const accountUserQuery = (userId: string) =>
  statements
    .select({ id: users.id, name: users.name, plan: users.plan, timeZone: users.timeZone })
    .from(users)
    .where(byId(userId))
    .getSQL();
