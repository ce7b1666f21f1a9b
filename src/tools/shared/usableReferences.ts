import { and, eq, exists, sql } from "drizzle-orm";
import type { companies, platforms } from "../../db/schema";
import { visibleToUser } from "../../platform/columns";
import { statements } from "../../platform/db";

/**
 * True (in SQL) while the platform or publisher exists and the user may use it: an official one, or
 * their own custom one. A write that names one (a custom game, a console's platforms) checks it
 * inside the batch that writes, since a custom record can be removed between the check and the write.
 */
export const stillUsable = (table: typeof platforms | typeof companies, userId: string, id: number) =>
  exists(
    statements
      .select({ one: sql`1` })
      .from(table)
      .where(and(eq(table.id, id), visibleToUser(table.ownerUserId, userId))),
  );
