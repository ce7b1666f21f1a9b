import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import type { Db } from "../../platform/db";

export async function findUser(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user;
}
