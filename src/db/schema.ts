import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

const createdAt = () =>
  text("created_at")
    .notNull()
    .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name"),
  plan: text("plan", { enum: ["FREE", "LIGHT", "PREMIUM"] }).notNull(),
  suspended: integer("suspended", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name"),
    /** The first characters of the key, safe to show in lists. */
    displayPrefix: text("display_prefix").notNull(),
    /** Hex SHA-256 of the whole key; the key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** JSON array of scopes. */
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: createdAt(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);

/** Exact per-user daily call counter (UTC days), incremented atomically so it can be refunded. */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
