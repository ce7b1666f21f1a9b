import { and, asc, count, eq, or, type SQL, sql } from "drizzle-orm";
import { attributes, libraryEntries, physicalCopies } from "../../db/schema";
import { jsonArrayHolds } from "../../platform/columns";
import { type Db, isUniqueViolation, queryBatch, statements } from "../../platform/db";
import { ApiError, invalidInput } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { addWithinLimit, type LimitContext, planCounter } from "../../platform/registeredLimits";
import { nowIso } from "../../platform/time";
import { type Attribute, attributeLabelsFrom, type OwnAttributeRow, toOwnAttribute } from "./items";
import { SYSTEM_ATTRIBUTES } from "./systemAttributes";

/** The plan limit on attributes: counted here, where its rows are written. */
export const ATTRIBUTES_COUNTER = planCounter("attributes", attributes, attributes.userId);

const ownedBy = (userId: string) => eq(attributes.userId, userId);

export async function userAttributePage(db: Db, userId: string, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(attributes).where(ownedBy(userId)).orderBy(asc(attributes.createdAt), asc(attributes.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(attributes).where(ownedBy(userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The test of an attribute reference: its id or its exact label. */
const namedBy = (ref: string) => (attribute: { id: string; label: string }) => attribute.id === ref || attribute.label === ref;

export const systemAttribute = (ref: string) => SYSTEM_ATTRIBUTES.find(namedBy(ref));

/** The caller's own attribute named by id or exact label; another user's is simply not found. */
export async function findOwnAttribute(db: Db, userId: string, ref: string) {
  const [row] = await db
    .select()
    .from(attributes)
    .where(and(ownedBy(userId), or(eq(attributes.id, ref), eq(attributes.label, ref))));
  return row;
}

export async function insertOwnAttribute(db: Db, limit: LimitContext, label: string): Promise<Attribute> {
  const exists = () => new ApiError("already_exists", `An attribute labelled '${label}' already exists.`, { field: "label" });
  if (systemAttribute(label) || (await findOwnAttribute(db, limit.userId, label))) throw exists();
  const id = newId("attr");
  try {
    await addWithinLimit(db, limit, ATTRIBUTES_COUNTER, [
      statements.insert(attributes).values({ id, userId: limit.userId, label, createdAt: nowIso() }).getSQL(),
    ]);
    return toOwnAttribute({ id, label });
  } catch (error) {
    // Two adds of one label at once: the unique index lets only one through.
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
}

/** Deletes the attribute and takes it off every library entry and copy, in one batch (with removeAttribute's confirm marker). */
export async function deleteOwnAttribute(db: Db, userId: string, id: string, marker: SQL) {
  await queryBatch(db, [
    marker,
    ...stripAttributeSql(userId, id),
    statements
      .delete(attributes)
      .where(and(ownedBy(userId), eq(attributes.id, id)))
      .getSQL(),
  ]);
}

/** Every attribute label the user can see, by id (system and own): to name ids in results. */
export async function attributeLabels(db: Db, userId: string): Promise<Map<string, Attribute>> {
  return attributeLabelsFrom(await db.all<OwnAttributeRow>(ownAttributesQuery(userId)));
}

/** The user's own attributes, as a statement for a list's batch (attributeLabelsFrom reads its rows). */
export const ownAttributesQuery = (userId: string) =>
  statements.select({ id: attributes.id, label: attributes.label }).from(attributes).where(ownedBy(userId)).getSQL();

/**
 * Turns attribute references (ids or exact labels, system or own) into ids, in order and
 * without repeats; an unknown one is a 400 naming `field[i]`.
 */
export async function resolveAttributeIds(db: Db, userId: string, refs: readonly string[], field: string): Promise<string[]> {
  if (refs.length === 0) return [];
  const known = [...(await attributeLabels(db, userId)).values()];
  const ids = refs.map((ref, i) => {
    const found = known.find(namedBy(ref));
    if (!found) throw invalidInput(`${field}[${i}]`, `${field}[${i}]: no attribute has the id or label '${ref}'.`);
    return found.id;
  });
  return [...new Set(ids)];
}

/** The records that carry attributes: library entries and physical copies. */
const CARRIERS = [libraryEntries, physicalCopies] as const;

const carrying = (table: (typeof CARRIERS)[number], userId: string, attributeId: string) =>
  and(eq(table.userId, userId), jsonArrayHolds(table.attributeIds, attributeId));

/** Library entries and physical copies that carry the attribute. */
export async function countCarriers(db: Db, userId: string, attributeId: string) {
  const countOf = (table: (typeof CARRIERS)[number]) =>
    db
      .select({ n: count() })
      .from(table)
      .where(carrying(table, userId, attributeId));
  const [[entries], [copies]] = await db.batch([countOf(libraryEntries), countOf(physicalCopies)]);
  return { entries: entries?.n ?? 0, copies: copies?.n ?? 0 };
}

/** Takes an attribute off every library entry and copy of the user that carries it. */
export const stripAttributeSql = (userId: string, attributeId: string) =>
  CARRIERS.map((table) =>
    statements
      .update(table)
      // raw SQL: json_each and json_group_array rewrite the stored JSON array without the id
      .set({ attributeIds: sql`(SELECT json_group_array(value) FROM json_each(${table.attributeIds}) WHERE value <> ${attributeId})` })
      .where(carrying(table, userId, attributeId))
      .getSQL(),
  );
