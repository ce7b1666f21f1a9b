import { and, asc, count, eq, or, type SQL, sql } from "drizzle-orm";
import { attributes } from "../../db/schema";
import { type Db, isUniqueViolation, nowIso, queryBatch } from "../../platform/db";
import { ApiError, invalidInput } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { addWithinLimit, type LimitContext, planCounter } from "../../platform/registeredLimits";
import { SYSTEM_ATTRIBUTES } from "./systemAttributes";

/** The plan limit on attributes: counted here, where its rows are written. */
export const ATTRIBUTES_COUNTER = planCounter("attributes", attributes, attributes.userId);

export interface Attribute {
  id: string;
  label: string;
  custom: boolean;
}

export async function userAttributePage(db: Db, userId: string, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(attributes)
      .where(eq(attributes.userId, userId))
      .orderBy(asc(attributes.createdAt), asc(attributes.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(attributes).where(eq(attributes.userId, userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
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

export async function insertOwnAttribute(db: Db, limit: LimitContext, label: string): Promise<Attribute> {
  const exists = () => new ApiError("already_exists", `An attribute labelled '${label}' already exists.`, { field: "label" });
  if (systemAttribute(label) || (await findOwnAttribute(db, limit.userId, label))) throw exists();
  const id = newId("attr");
  try {
    await addWithinLimit(db, limit, ATTRIBUTES_COUNTER, [
      sql`INSERT INTO attributes (id, user_id, label, created_at) VALUES (${id}, ${limit.userId}, ${label}, ${nowIso()})`,
    ]);
    return { id, label, custom: true };
  } catch (error) {
    // Two adds of one label at once: the unique index lets only one through.
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
}

/** Deletes the attribute and takes it off every library entry and copy, in one batch (with removeAttribute's confirm marker). */
export async function deleteOwnAttribute(db: Db, userId: string, id: string, marker: SQL) {
  await queryBatch(db, [marker, ...stripAttributeSql(userId, id), sql`DELETE FROM attributes WHERE user_id = ${userId} AND id = ${id}`]);
}

/** Every attribute label the user can see, by id (system and own): to name ids in results. */
export async function attributeLabels(db: Db, userId: string): Promise<Map<string, Attribute>> {
  return attributeLabelsFrom(await db.all<OwnAttributeRow>(ownAttributesQuery(userId)));
}

export interface OwnAttributeRow {
  id: string;
  label: string;
}

/** The user's own attributes, as a statement for a list's batch (attributeLabelsFrom reads its rows). */
export const ownAttributesQuery = (userId: string) => sql`SELECT id, label FROM attributes WHERE user_id = ${userId}`;

/** attributeLabels from ownAttributesQuery's rows. */
export function attributeLabelsFrom(own: readonly OwnAttributeRow[]): Map<string, Attribute> {
  return new Map<string, Attribute>([
    ...SYSTEM_ATTRIBUTES.map((a) => [a.id, { ...a, custom: false }] as const),
    ...own.map((a) => [a.id, { id: a.id, label: a.label, custom: true }] as const),
  ]);
}

/**
 * Turns attribute references (ids or exact labels, system or own) into ids, in order and
 * without repeats; an unknown one is a 400 naming `field[i]`.
 */
export async function resolveAttributeIds(db: Db, userId: string, refs: readonly string[], field: string): Promise<string[]> {
  if (refs.length === 0) return [];
  const known = [...(await attributeLabels(db, userId)).values()];
  const ids = refs.map((ref, i) => {
    const found = known.find((a) => a.id === ref || a.label === ref);
    if (!found) throw invalidInput(`${field}[${i}]`, `${field}[${i}]: no attribute has the id or label '${ref}'.`);
    return found.id;
  });
  return [...new Set(ids)];
}

const carrying = (id: string) => sql`EXISTS (SELECT 1 FROM json_each(attribute_ids) WHERE value = ${id})`;

/** Library entries and physical copies that carry the attribute. */
export async function countCarriers(db: Db, userId: string, attributeId: string) {
  const [entries, copies] = await queryBatch<[{ n: number }[], { n: number }[]]>(db, [
    sql`SELECT COUNT(*) AS n FROM library_entries WHERE user_id = ${userId} AND ${carrying(attributeId)}`,
    sql`SELECT COUNT(*) AS n FROM physical_copies WHERE user_id = ${userId} AND ${carrying(attributeId)}`,
  ]);
  return { entries: entries[0]?.n ?? 0, copies: copies[0]?.n ?? 0 };
}

/** Takes an attribute off every library entry and copy of the user that carries it. */
export const stripAttributeSql = (userId: string, attributeId: string) =>
  (["library_entries", "physical_copies"] as const).map(
    (table) => sql`
      UPDATE ${sql.raw(table)}
      SET attribute_ids = (SELECT json_group_array(value) FROM json_each(attribute_ids) WHERE value <> ${attributeId})
      WHERE user_id = ${userId} AND ${carrying(attributeId)}`,
  );
