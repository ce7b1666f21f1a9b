import type { users } from "../../db/schema";

/** What getAccount shows of the user, as accountUserQuery reads it (raw rows: these columns' names are their keys). */
export type AccountUser = Pick<typeof users.$inferSelect, "id" | "name" | "plan"> & { time_zone: string };
