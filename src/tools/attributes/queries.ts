import { and, asc, count, eq, or } from "drizzle-orm";
import { attributes } from "../../db/schema";
import { type Db, isUniqueViolation } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { SYSTEM_ATTRIBUTES } from "./systemAttributes";

export interface Attribute {
  id: string;
  label: string;
  custom: boolean;
}

export async function userAttributePage(db: Db, userId: string, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(attributes).where(eq(attributes.userId, userId)).orderBy(asc(attributes.createdAt), asc(attributes.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(attributes).where(eq(attributes.userId, userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function countOwnAttributes(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(attributes).where(eq(attributes.userId, userId));
  return row?.n ?? 0;
}

export const systemAttribute = (ref: string) => SYSTEM_ATTRIBUTES.find((a) => a.id === ref || a.label === ref);

/** The caller's own attribute named by id or exact label; another user's is simply not found. */
export async function findOwnAttribute(db: Db, userId: string, ref: string) {
  const [row] = await db
    .select()
    .from(attributes)
    .where(and(eq(attributes.userId, userId), or(eq(attributes.id, ref), eq(attributes.label, ref))));
  return row;
}

export async function insertOwnAttribute(db: Db, userId: string, label: string): Promise<Attribute> {
  const exists = () => new ApiError("already_exists", `An attribute labelled '${label}' already exists.`, { field: "label" });
  if (systemAttribute(label) || (await findOwnAttribute(db, userId, label))) throw exists();
  try {
    const [row] = await db.insert(attributes).values({ id: newId("attr"), userId, label }).returning();
    return { id: row!.id, label: row!.label, custom: true };
  } catch (error) {
    // Two adds of one label at once: the unique index lets only one through.
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
}

export async function deleteOwnAttribute(db: Db, userId: string, id: string) {
  await db.delete(attributes).where(and(eq(attributes.userId, userId), eq(attributes.id, id)));
}
