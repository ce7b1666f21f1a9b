import { sql } from "drizzle-orm";
import type { Db } from "../../platform/db";
import { userDataset } from "../datasets";
import type { Removal } from "../shared/datasets";

/** What a replace job removes before the file's rows are added: its dataset's removal, written by the family. */
export function replaceRemoval(userId: string, dataset: string, now: string): Removal {
  const replaced = userDataset(dataset);
  if (!replaced) throw new Error(`replace is not defined for ${dataset}`);
  return replaced.removal(userId, now);
}

/** The removal's counts, described, and its revision, in one read. */
export async function removalPreview(db: Db, removal: Removal) {
  const [row] = await db.all<Record<string, number> & { r: string | null }>(
    // raw SQL: one row of scalar subqueries, a SELECT without FROM, which the builder cannot say
    sql`SELECT ${sql.join(
      Object.entries(removal.counts).map(([name, counted]) => sql`${counted} AS ${sql.identifier(name)}`),
      sql`, `,
    )}, ${removal.revision} AS r`,
  );
  const { r, ...counts } = row!;
  return { description: removal.describe(counts), revision: r ?? "" };
}
