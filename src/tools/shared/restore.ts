import { ApiError } from "../../platform/errors";
import { type Plan, REGISTERED_LIMITS, type RegisteredResource } from "../../platform/plans";
import { limitGuardAfter, type PlanCounter, roomLeft } from "../../platform/registeredLimits";
import { attributeLabels, insertOwnAttribute } from "../attributes/queries";
import { type Decided, Decisions, type RestoreContext, type Statement } from "./decisions";
import { mapSql, type RestorableRecord, restoredIds } from "./restoreReads";

/** The plan's room for one dataset's new rows: each new row takes one, or is reported as past the limit. */
export class Room {
  constructor(
    private left: number,
    private readonly reportPast: (row: number) => void,
  ) {}

  take(row: number): boolean {
    if (this.left <= 0) {
      this.reportPast(row);
      return false;
    }
    this.left--;
    return true;
  }
}

export const limitMessage = (plan: Plan, resource: RegisteredResource, noun = `${resource} entries`) =>
  `The ${plan} plan allows ${REGISTERED_LIMITS[resource][plan]} ${noun}; this row is past the limit and was not imported.`;

/** A kind of record a restore re-issues ids for: how it reports, counts and remembers them. */
export interface RestoredKind<T extends string | number> {
  /** The file column of the record's id. */
  field: string;
  /** "Console", "Custom game": what a report calls one (and, in the plural, the plan limit's records). */
  label: string;
  record: RestorableRecord<T>;
  counter: PlanCounter;
}

/**
 * A restoring dataset's decisions over the file's record ids: a row whose record is already here
 * (restored earlier, or the account's own) is reported as existing; a new one takes the plan's
 * room (or is reported past it) and is added under a new id, remembered for the files that refer to it.
 */
export async function restoringDecisions<T extends string | number>(ctx: RestoreContext, kind: RestoredKind<T>, fileIds: readonly T[]) {
  const [restored, room] = await Promise.all([restoredIds(ctx, kind.record, fileIds), roomLeft(ctx.db, ctx, kind.counter)]);
  const d = new Decisions();
  const left = new Room(room, (r) =>
    d.fail(r, kind.field, "plan_limit", limitMessage(ctx.plan, kind.counter.resource, `${kind.label.toLowerCase()}s`)),
  );
  return {
    d,
    alreadyHere(r: number, fileId: T) {
      if (!restored.has(fileId)) return false;
      d.exists(r, kind.field, `${kind.label} ${fileId} was already restored (or is yours); kept as it is.`);
      return true;
    },
    /** Takes the plan's room for the row; false when it was reported past the limit. */
    roomFor: (r: number) => left.take(r),
    /** Adds the record's statements; its new id is remembered (import_id_map) for the files that refer to it. */
    add(fileId: T, id: string | number, statements: readonly Statement[]) {
      restored.add(fileId);
      d.add(...statements, mapSql(ctx.userId, kind.record.kind, String(fileId), String(id)));
    },
    /** The decided rows, closed by the plan-limit guard. */
    decided: () => decidedWithin(ctx, d, kind.counter),
  };
}

/** The decided rows, their batch closed by the plan-limit guards of the counters (when it writes anything). */
export function decidedWithin(ctx: RestoreContext, d: Decisions, ...counters: PlanCounter[]): Decided {
  for (const counter of counters) {
    const guard = limitGuardAfter(ctx, counter);
    if (guard && d.statements.length > 0) d.statements.push(guard);
  }
  return d.decided;
}

/** The row's values of these columns, an empty one (absent from the file) as null. */
export const orNull = <R, K extends keyof R>(row: R, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, row[key] ?? null])) as { [P in K]-?: NonNullable<R[P]> | null };

/** A restored record's timestamps: the file's, else now. */
export const timesOf = (row: { createdAt?: string | null; updatedAt?: string | null }, now: string) => {
  const createdAt = row.createdAt ?? now;
  return { createdAt, updatedAt: row.updatedAt ?? createdAt };
};

/**
 * Attribute labels as ids; a label the account does not have yet is created (within the plan's
 * attribute limit), since attributes travel as labels in an export. A row naming a label that
 * could not be created is reported (plan_limit) and resolves to null.
 */
export async function attributeResolver(ctx: RestoreContext, labels: readonly string[]) {
  const known = new Map<string, string>();
  for (const a of (await attributeLabels(ctx.db, ctx.userId)).values()) {
    known.set(a.label, a.id);
    known.set(a.id, a.id);
  }
  const missing = [...new Set(labels.filter((label) => !known.has(label)))];
  for (const label of missing) {
    try {
      const created = await insertOwnAttribute(ctx.db, { userId: ctx.userId, plan: ctx.plan, upgradeUrl: "" }, label);
      known.set(label, created.id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Created meanwhile: read it; over the limit: the rows carrying it fail.
      const again = await attributeLabels(ctx.db, ctx.userId);
      for (const a of again.values()) if (a.label === label) known.set(label, a.id);
    }
  }
  return (d: Decisions, r: number, refs: readonly string[]): string[] | null => {
    const ids = refs.map((ref) => known.get(ref));
    if (ids.every((id) => id !== undefined)) return [...new Set(ids as string[])];
    d.fail(r, "attributes", "plan_limit", "An attribute label could not be created (the plan's attribute limit).");
    return null;
  };
}
