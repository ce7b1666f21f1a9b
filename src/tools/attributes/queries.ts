import { asc, count, eq } from "drizzle-orm";
import { attributes } from "../../db/schema";
import type { Db } from "../../platform/db";

export async function userAttributePage(db: Db, userId: string, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(attributes).where(eq(attributes.userId, userId)).orderBy(asc(attributes.createdAt), asc(attributes.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(attributes).where(eq(attributes.userId, userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}
