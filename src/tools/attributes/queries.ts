import { and, asc, count, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { attributes, libraryEntries, physicalCopies, playRecords } from "../../db/schema";
import { inJsonArray, jsonArrayHolds } from "../../platform/columns";
import { type Db, isUniqueViolation, queryBatch, statements } from "../../platform/db";
import { ApiError, invalidInput } from "../../platform/errors";
import { fingerprintsOf, keyOf } from "../../platform/fingerprints";
import { newId, newRevision } from "../../platform/ids";
import { addWithinLimit, type LimitContext, planCounter, type WriteCondition } from "../../platform/registeredLimits";
import { SYSTEM_ATTRIBUTES } from "../../platform/systemAttributes";
import { nowIso } from "../../platform/time";
import { type Attribute, attributeLabelsFrom, type OwnAttributeRow, toOwnAttribute } from "./items";

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

/**
 * Deletes the attribute and takes it off every record that carries it, in one batch (with
 * removeAttribute's confirm marker).
 */
export async function deleteOwnAttribute(db: Db, userId: string, id: string, now: string, marker: SQL) {
  await queryBatch(db, [
    marker,
    ...stripAttributeSql(userId, id, now),
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

/**
 * The user's own attributes among these ids must still exist when the batch that writes them runs
 * (system ones are never removed): a write racing removeAttribute answers the 400 it would get a
 * moment later, and never stores an id whose attribute is gone.
 */
export function attributesKept(userId: string, attributeIds: readonly string[], field: string): WriteCondition[] {
  const own = attributeIds.filter((id) => !systemAttribute(id));
  if (own.length === 0) return [];
  const stored = statements
    .select({ n: count() })
    .from(attributes)
    .where(and(ownedBy(userId), inJsonArray(attributes.id, own)));
  return [
    {
      holds: sql`${stored} = ${own.length}`,
      error: () => invalidInput(field, `${field}: an attribute you named was removed meanwhile; see listAttributes.`),
    },
  ];
}

/** The records that carry attributes (library entries, physical copies, play records of every cycle), each with its id column. */
const CARRIERS = [
  [libraryEntries, libraryEntries.gameId],
  [physicalCopies, physicalCopies.id],
  [playRecords, playRecords.id],
] as const;

type Carrier = (typeof CARRIERS)[number][0];

const carrying = (table: Carrier, userId: string, attributeId: string) =>
  and(eq(table.userId, userId), jsonArrayHolds(table.attributeIds, attributeId));

/**
 * The records that carry the attribute, per kind: how many, and a fingerprint of which (removing
 * the attribute changes exactly these, whatever else changes in them).
 */
export async function carriersOf(db: Db, userId: string, attributeId: string) {
  const [entries, copies, plays] = await fingerprintsOf(
    db,
    CARRIERS.map(([table, id]) =>
      statements
        .select({ k: keyOf(id) })
        .from(table)
        .where(carrying(table, userId, attributeId))
        .getSQL(),
    ),
  );
  return { entries: entries!, copies: copies!, plays: plays! };
}

/**
 * Takes an attribute off every record of the user that carries it. That changes their content, so
 * library entries and play records get a new revision and updatedAt, copies a new updatedAt, and a
 * game whose copies change gets a new whole-game revision (its library entry's), as any copy write.
 */
export function stripAttributeSql(userId: string, attributeId: string, now: string): SQL[] {
  // raw SQL: json_each and json_group_array rewrite the stored JSON array without the id
  const stripped = (table: Carrier) =>
    sql`(SELECT json_group_array(value) FROM json_each(${table.attributeIds}) WHERE value <> ${attributeId})`;
  const gamesOfCarryingCopies = statements
    .select({ gameId: physicalCopies.gameId })
    .from(physicalCopies)
    .where(carrying(physicalCopies, userId, attributeId));
  return [
    // First, while the copies still carry it.
    statements
      .update(libraryEntries)
      .set({ revision: newRevision() })
      .where(and(eq(libraryEntries.userId, userId), inArray(libraryEntries.gameId, gamesOfCarryingCopies)))
      .getSQL(),
    statements
      .update(libraryEntries)
      .set({ attributeIds: stripped(libraryEntries), updatedAt: now, revision: newRevision() })
      .where(carrying(libraryEntries, userId, attributeId))
      .getSQL(),
    statements
      .update(physicalCopies)
      .set({ attributeIds: stripped(physicalCopies), updatedAt: now })
      .where(carrying(physicalCopies, userId, attributeId))
      .getSQL(),
    statements
      .update(playRecords)
      .set({ attributeIds: stripped(playRecords), updatedAt: now, revision: newRevision() })
      .where(carrying(playRecords, userId, attributeId))
      .getSQL(),
  ];
}
