import { type SQL, sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// The whole storage. drizzle-kit generates every table and index declared here into migrations/
// (`npm run db:generate`); what it cannot declare (FTS5 indexes, views, triggers, seed rows) is in
// the hand-written migrations/0001_triggers_and_search.sql, listed under "Kept by triggers" below.
// Columns are declared in the database's order: one added later goes last, where ALTER TABLE ADD
// puts it.

/**
 * The list tools' sort indexes: user first, then exactly the ORDER BY a list writes for one sort
 * (`x IS NULL, x <direction>, tie-break`), one index per direction, so a page is read in index
 * order and the read stops at the page.
 */
const sortIndexes = (
  prefix: string,
  user: AnySQLiteColumn,
  column: AnySQLiteColumn,
  tieBreak: AnySQLiteColumn,
  { directions = ["desc", "asc"], where }: { directions?: ("desc" | "asc")[]; where?: SQL } = {},
) =>
  directions.map((direction) => {
    const built = index(`${prefix}_${column.name.replace(/_at$/, "")}_${direction}_idx`).on(
      user,
      sql`(${column} IS NULL)`,
      sql`${column} ${sql.raw(direction)}`,
      tieBreak,
    );
    return where ? built.where(where) : built;
  });

/**
 * A list row's copies of its game's sort_key and release_date, so the title and release date sorts
 * have an index that starts with the user; triggers set them on insert and whenever the game's
 * change, so they never differ from the game's (see "Kept by triggers" below).
 */
const gameSortCopies = () => ({
  gameSortKey: text("game_sort_key"),
  gameReleaseDate: text("game_release_date"),
});

const createdAt = () => text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name"),
  plan: text("plan", { enum: ["FREE", "LIGHT", "PREMIUM"] }).notNull(),
  suspended: integer("suspended", { mode: "boolean" }).notNull().default(false),
  /** IANA time zone deciding the user's "today" (default dates, overdue filters); quotas keep UTC days. */
  timeZone: text("time_zone").notNull().default("Asia/Tokyo"),
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
    /** ISO instant after which the key answers 401 like a revoked one; null: never. */
    expiresAt: text("expires_at"),
    /**
     * A connected assistant's key (made by an OAuth consent, src/accounts/connectedAssistants.ts):
     * the OAuth client it was granted to; null for a key made on the settings page or by the operator.
     */
    oauthClientId: text("oauth_client_id"),
    /** The redirect URI the consent sent the grant to (its host is what the person was shown). */
    oauthRedirectUri: text("oauth_redirect_uri"),
    /**
     * Why the service itself ended a connected assistant's grant (src/accounts/oauthClaims.ts):
     * `code_reused` or `refresh_token_reused`; null for a key revoked by the person or the operator.
     */
    endedReason: text("ended_reason"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);

// ---------------------------------------------------------------------------------------------
// Accounts: the pages' sign-in (passkeys), sessions, invites and activity. Secrets and tokens are
// stored as SHA-256 hex digests only.

/** A registered WebAuthn credential (passkey) of a user. */
export const passkeys = sqliteTable(
  "passkeys",
  {
    /** The credential id, base64url, as the authenticator gave it. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The signature counter last seen (0 for authenticators that keep none). */
    counter: integer("counter").notNull(),
    /** JSON array of the authenticator's transports (usb, internal, hybrid, ...). */
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull(),
    /** A label the person recognises it by. */
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/** A signed-in browser: the cookie carries a random token; only its SHA-256 is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 hex of the session token. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** A one-time, expiring link that lets its holder register a passkey for the user. */
export const invites = sqliteTable(
  "invites",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the token in the link. */
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    /** Set once, by the registration it let through: an invite works one time. */
    usedAt: text("used_at"),
  },
  (t) => [uniqueIndex("invites_token_hash_idx").on(t.tokenHash), index("invites_user_idx").on(t.userId)],
);

/**
 * A one-time step of the pages: a WebAuthn ceremony's challenge, or an OAuth consent form (its
 * challenge is the consent's state, src/accounts/connectedAssistants.ts). Consumed (deleted) by
 * the one answer that uses it.
 */
export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  /** SHA-256 hex of the ceremony token the browser holds. */
  tokenHash: text("token_hash").primaryKey(),
  purpose: text("purpose", { enum: ["register", "signIn", "consent"] }).notNull(),
  /** The user a registration is for (invite, signed-in person, or the new user of an open sign-up, created when it completes); null for sign-in. */
  userId: text("user_id"),
  /** The invite a registration came through, consumed with it. */
  inviteId: text("invite_id"),
  challenge: text("challenge").notNull(),
  expiresAt: text("expires_at").notNull(),
});

/** What the settings page lists as activity: keys, passkeys and sign-ins. */
export const accountEvents = sqliteTable(
  "account_events",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    kind: text("kind", {
      enum: [
        "keyCreated",
        "keyRevoked",
        "keyRolled",
        "keyRenamed",
        "passkeyAdded",
        "passkeyRemoved",
        "passkeyRenamed",
        "signedIn",
        "signedOutEverywhere",
      ],
    }).notNull(),
    /** JSON details: the key's or passkey's id and name. */
    detail: text("detail", { mode: "json" }).$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("account_events_user_at_idx").on(t.userId, t.createdAt)],
);

/**
 * Failed attempts at a secret, counted per client address in fixed windows (platform/failedAttempts.ts):
 * one row per counter name (`key_id`, a name since API keys' burst windows moved to each user's
 * accounting object) holding its current window and count.
 */
export const burstCounters = sqliteTable("burst_counters", {
  keyId: text("key_id").primaryKey(),
  /** Start of the window in epoch milliseconds. */
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

/** Idempotency-Key claims and stored answers of REST writes, kept 24 hours (platform/idempotency.ts). */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 of the tool and its canonical arguments: the same key must carry the same request. */
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["pending", "done"] }).notNull(),
    /** The stored JSON answer, once done. */
    response: text("response"),
    /** The request holding the claim (a random id): only its writes may commit under the key. */
    claimId: text("claim_id").notNull().default(""),
    /** Epoch milliseconds: a pending claim past its lease belongs to a request that died. */
    leaseUntil: integer("lease_until").notNull().default(0),
    /** Set by the claim's own write batches, atomically with the write: something was saved. */
    saved: integer("saved", { mode: "boolean" }).notNull().default(false),
    /** Epoch milliseconds. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.idempotencyKey] })],
);

// ---- Game master data. Rows with owner_user_id are a PREMIUM user's custom records, visible
// only to that user; official rows have it null. Custom ids start at CUSTOM_ID_BASE so that an
// official import can never collide with them.

// A user's custom platforms and publishers have names unique per user (official rows, whose owner
// is NULL, are never compared: NULLs differ in a unique index); the index also finds a user's rows.
export const platforms = sqliteTable(
  "platforms",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    nameEn: text("name_en"),
    shortName: text("short_name"),
    maker: text("maker"),
    releaseDate: text("release_date"),
    ownerUserId: text("owner_user_id"),
    contentHash: text("content_hash").notNull(),
  },
  (t) => [uniqueIndex("platforms_owner_name_idx").on(t.ownerUserId, t.name)],
);

export const companies = sqliteTable(
  "companies",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    nameKana: text("name_kana"),
    nameEn: text("name_en"),
    /** Normalised name and kana for listPublishers' query. */
    searchText: text("search_text").notNull(),
    ownerUserId: text("owner_user_id"),
    contentHash: text("content_hash").notNull(),
  },
  (t) => [uniqueIndex("companies_owner_name_idx").on(t.ownerUserId, t.name)],
);

export const genres = sqliteTable(
  "genres",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    parentId: integer("parent_id"),
    taxonomyKey: text("taxonomy_key").notNull(),
    contentHash: text("content_hash").notNull(),
  },
  (t) => [uniqueIndex("genres_taxonomy_key_idx").on(t.taxonomyKey)],
);

export const games = sqliteTable(
  "games",
  {
    id: integer("id").primaryKey(),
    title: text("title").notNull(),
    titleReading: text("title_reading"),
    titleEn: text("title_en", { mode: "json" }).$type<string[]>().notNull(),
    aliases: text("aliases", { mode: "json" }).$type<string[]>().notNull(),
    /** Normalised reading (or title): the order collectors expect for "title" sorts. */
    sortKey: text("sort_key").notNull(),
    platformId: integer("platform_id").notNull(),
    publisherId: integer("publisher_id"),
    genreId: integer("genre_id"),
    genreSubId: integer("genre_sub_id"),
    /**
     * The game's most specific classification (a taxonomy key within its main genre's), a stored
     * fact of official master rows; null for custom games, which are classified by their ids only.
     */
    genreKey: text("genre_key"),
    releaseDate: text("release_date"),
    janCode: text("jan_code"),
    modelNumber: text("model_number", { mode: "json" }).$type<string[]>().notNull(),
    price: real("price"),
    mediaId: text("media_id"),
    gpsId: text("gps_id"),
    dbId: integer("db_id"),
    dbSlug: text("db_slug"),
    dbCoverId: text("db_cover_id"),
    ownerUserId: text("owner_user_id"),
    contentHash: text("content_hash").notNull(),
    // Normalised search forms (platform/normalize.ts), several values joined by "|"; the search
    // indexes built from them (games_fts, games_grams, game_rank: see "Kept by triggers" below)
    // serve substring matches, one row per game.
    searchTitle: text("search_title").notNull().default(""),
    searchTitleEn: text("search_title_en").notNull().default(""),
    /** Reading and nicknames: the spec's `alias`. */
    searchAlias: text("search_alias").notNull().default(""),
    searchModel: text("search_model").notNull().default(""),
    searchEditionModel: text("search_edition_model").notNull().default(""),
    /** Edition titles, for the shared `title` filter (not part of searchGames' fields). */
    searchEditionTitle: text("search_edition_title").notNull().default(""),
  },
  (t) => [
    // Covering (owner for visibility): a page of chosen platforms in release date or title order
    // is sorted from these entries without reading a single game row.
    index("games_platform_release_owner_idx").on(t.platformId, t.releaseDate, t.ownerUserId),
    index("games_platform_title_owner_idx").on(t.platformId, t.sortKey, t.ownerUserId),
    index("games_release_idx").on(t.releaseDate),
    // Release date ascending with undated games last, in index order: browseGames pages by it.
    index("games_release_nulls_last_idx").on(sql`(${t.releaseDate} IS NULL)`, t.releaseDate),
    index("games_sort_key_idx").on(t.sortKey),
    index("games_publisher_idx").on(t.publisherId),
    index("games_genre_idx").on(t.genreId),
    index("games_genre_sub_idx").on(t.genreSubId),
    index("games_genre_key_idx").on(t.genreKey),
    index("games_db_id_idx").on(t.dbId),
    index("games_db_slug_idx").on(t.dbSlug),
    index("games_owner_idx").on(t.ownerUserId),
    index("games_jan_idx").on(t.janCode),
  ],
);

export const gameEditions = sqliteTable(
  "game_editions",
  {
    id: integer("id").primaryKey(),
    gameId: integer("game_id").notNull(),
    position: integer("position").notNull(),
    title: text("title"),
    modelNumber: text("model_number", { mode: "json" }).$type<string[]>().notNull(),
    releaseDate: text("release_date"),
    price: real("price"),
    janCode: text("jan_code"),
  },
  (t) => [index("game_editions_game_idx").on(t.gameId, t.position), index("game_editions_jan_idx").on(t.janCode)],
);

/** Per-dataset generation strings, bumped only when an import changed content. */
export const masterMeta = sqliteTable("master_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

// ---- Kept by triggers: copies derived from other rows, which no application code writes; triggers
// keep them equal to their sources on every write path (tools, master imports, custom game edits).
// Only plain tables can be declared here; the rest is in migrations/0001_triggers_and_search.sql,
// which gives each structure's reason.
//   games_fts     FTS5 trigram index over games' title forms and model numbers (external content:
//                 the games rows), for terms of 3+ characters. Triggers games_fts_ai/_ad/_au.
//   games_grams   contentless FTS5 index (columns titles, codes) whose tokens are every character and
//                 adjacent pair of those forms, for terms of 1 or 2 characters. Rows come from the
//                 views game_texts -> game_text_grams -> game_grams_rows (walking char_positions);
//                 triggers games_grams_ai/_au/_ad.
//   game_rank     (below) rows come from the view game_rank_rows; triggers game_rank_ai/_au/_ad.
//   game_sort_key, game_release_date of library_entries, wishlist_entries and play_records: their
//                 game's sort_key and release_date. Triggers library_entries_game_copy_ai,
//                 wishlist_entries_game_copy_ai, play_records_game_copy_ai, games_list_copies_au.
//   play_records.total_play_time: its untracked_play_time plus the sum of its play logs. Triggers
//                 play_logs_total_ai/_ad/_au and play_records_untracked_ai/_au
//                 (migrations/0010_time_zone_untracked_time.sql).
//   list_counts   (below) how many rows each of a user's lists holds (migrations/0002_list_counts.sql):
//                 triggers library_entries_count_ai/_ad, wishlist_entries_count_ai/_ad,
//                 play_records_count_ai/_ad/_au (play: latest cycles only).

/**
 * How many rows each of a user's lists holds (play: its latest cycles, one per game), kept by
 * triggers: a whole list's total and its plan limit read one row here instead of counting the list
 * (50,000 entries took milliseconds to count).
 */
export const listCounts = sqliteTable(
  "list_counts",
  {
    userId: text("user_id").notNull(),
    list: text("list", { enum: ["library", "wishlist", "play"] }).notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.list] })],
);

/**
 * One narrow row per game for what a search reads of every hit: the games filter columns under
 * their games names, and each title form list bracketed "|a|b|", so exact, prefix and partial tests
 * are instr() calls. Column order is the view game_rank_rows' (the triggers insert its SELECT *).
 */
export const gameRank = sqliteTable("game_rank", {
  id: integer("id").primaryKey(),
  platformId: integer("platform_id").notNull(),
  publisherId: integer("publisher_id"),
  genreId: integer("genre_id"),
  genreSubId: integer("genre_sub_id"),
  releaseDate: text("release_date"),
  ownerUserId: text("owner_user_id"),
  titleForms: text("title_forms").notNull(),
  titleEnForms: text("title_en_forms").notNull(),
  aliasForms: text("alias_forms").notNull(),
  genreKey: text("genre_key"),
});

/** The numbers 1 to 8192, seeded by the hand-written migration: the character positions the gram views walk. */
export const charPositions = sqliteTable("char_positions", {
  n: integer("n").primaryKey(),
});

/** A user's own attribute labels; system labels live in code (platform/systemAttributes.ts). */
export const attributes = sqliteTable(
  "attributes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    label: text("label").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("attributes_user_label_idx").on(t.userId, t.label)],
);

/** What a user owns: one row per game in their library. */
export const libraryEntries = sqliteTable(
  "library_entries",
  {
    userId: text("user_id").notNull(),
    gameId: integer("game_id").notNull(),
    rating: integer("rating"),
    buyDate: text("buy_date"),
    buyPrice: real("buy_price"),
    buyPlace: text("buy_place"),
    memo: text("memo"),
    userLinks: text("user_links", { mode: "json" }).$type<{ name: string; url: string }[]>().notNull(),
    /** Attribute ids (system ids or own attr_ ids), in the order given. */
    attributeIds: text("attribute_ids", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Changes on every write; updateLibraryEntry's optimistic check. */
    revision: text("revision").notNull(),
    /** normalizePlace(buyPlace), what the buyPlace filter searches. */
    buyPlaceKey: text("buy_place_key"),
    ...gameSortCopies(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.gameId] }),
    index("library_user_updated_idx").on(t.userId, t.updatedAt),
    index("library_entries_game_idx").on(t.gameId),
    ...[t.updatedAt, t.buyDate, t.buyPrice, t.rating, t.gameSortKey, t.gameReleaseDate].flatMap((column) =>
      sortIndexes("library_user", t.userId, column, t.gameId),
    ),
  ],
);

/** What a user wants: one row per game on their wishlist (never also in their library). */
export const wishlistEntries = sqliteTable(
  "wishlist_entries",
  {
    userId: text("user_id").notNull(),
    gameId: integer("game_id").notNull(),
    priority: integer("priority"),
    /** Planned purchase date. */
    wishDate: text("wish_date"),
    wishPrice: real("wish_price"),
    wishPlace: text("wish_place"),
    memo: text("memo"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    revision: text("revision").notNull(),
    /** normalizePlace(wishPlace), what the wishPlace filter searches. */
    wishPlaceKey: text("wish_place_key"),
    ...gameSortCopies(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.gameId] }),
    index("wishlist_entries_game_idx").on(t.gameId),
    ...[t.priority, t.createdAt, t.wishDate, t.wishPrice, t.gameSortKey, t.gameReleaseDate].flatMap((column) =>
      sortIndexes("wishlist_user", t.userId, column, t.gameId),
    ),
  ],
);

/** The physical copies of a game in a PREMIUM user's library; one of them is representative. */
export const physicalCopies = sqliteTable(
  "physical_copies",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    gameId: integer("game_id").notNull(),
    quantity: integer("quantity").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull(),
    rating: integer("rating"),
    buyDate: text("buy_date"),
    buyPrice: real("buy_price"),
    buyPlace: text("buy_place"),
    memo: text("memo"),
    attributeIds: text("attribute_ids", { mode: "json" }).$type<string[]>().notNull(),
    editionKind: text("edition_kind").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("physical_copies_user_game_idx").on(t.userId, t.gameId, t.createdAt)],
);

/**
 * Makes a D1 batch conditional: a batch that inserts a row here (only when its precondition no
 * longer holds) breaks the CHECK and rolls the whole batch back.
 */
export const writeGuards = sqliteTable(
  "write_guards",
  {
    broken: integer("broken"),
  },
  (t) => [check("write_guards_never", sql`${t.broken} IS NULL`)],
);

/**
 * Used confirmTokens (platform/confirm.ts): the batch a token authorises inserts its row, so the
 * PRIMARY KEY refuses a second use in any interleaving. `use_id` tells which call used it; rows
 * go once `expires_at` (the token's own expiry) has passed.
 */
export const consumedConfirmTokens = sqliteTable(
  "consumed_confirm_tokens",
  {
    /** Hex SHA-256 of the token; the token itself is never stored in D1. */
    tokenHash: text("token_hash").primaryKey(),
    useId: text("use_id").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("consumed_confirm_tokens_expires_idx").on(t.expiresAt)],
);

/** Hardware a user owns (not a platform master record). */
export const consoles = sqliteTable(
  "consoles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    name: text("name").notNull(),
    nameKana: text("name_kana"),
    memo: text("memo"),
    rating: integer("rating"),
    buyDate: text("buy_date"),
    buyPrice: real("buy_price"),
    buyPlace: text("buy_place"),
    publisherName: text("publisher_name"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** normalizePlace(name) and normalizePlace(publisherName): what the name filter searches. */
    nameKey: text("name_key").notNull().default(""),
    publisherKey: text("publisher_key"),
  },
  (t) => [
    index("consoles_user_idx").on(t.userId, t.createdAt),
    ...sortIndexes("consoles_user", t.userId, t.rating, t.id, { directions: ["desc"] }),
  ],
);

/** Which platforms a console plays, and how much the user prefers it for each. */
export const consolePlatforms = sqliteTable(
  "console_platforms",
  {
    consoleId: text("console_id").notNull(),
    platformId: integer("platform_id").notNull(),
    priority: integer("priority").notNull(),
  },
  (t) => [primaryKey({ columns: [t.consoleId, t.platformId] })],
);

export const maintenanceLogs = sqliteTable(
  "maintenance_logs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    consoleId: text("console_id").notNull(),
    title: text("title").notNull(),
    memo: text("memo"),
    status: text("status", { enum: ["SCHEDULED", "DONE"] }).notNull(),
    scheduledDate: text("scheduled_date"),
    completedDate: text("completed_date"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("maintenance_logs_console_idx").on(t.consoleId)],
);

/** One play cycle of a game. FREE and LIGHT keep only the latest; PREMIUM keeps every cycle. */
export const playRecords = sqliteTable(
  "play_records",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    gameId: integer("game_id").notNull(),
    status: text("status", { enum: ["PLANNED", "PLAYING", "PAUSED", "COMPLETED", "DROPPED"] }).notNull(),
    playStartDate: text("play_start_date"),
    playEndDate: text("play_end_date"),
    clearTargetDate: text("clear_target_date"),
    rating: integer("rating"),
    memo: text("memo"),
    userLinks: text("user_links", { mode: "json" }).$type<{ name: string; url: string }[]>().notNull(),
    attributeIds: text("attribute_ids", { mode: "json" }).$type<string[]>().notNull(),
    consoleId: text("console_id"),
    isLatest: integer("is_latest", { mode: "boolean" }).notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    revision: text("revision").notNull(),
    /** The game's sort_key, kept equal by triggers (see "Kept by triggers"), for the title sort's index. */
    gameSortKey: text("game_sort_key"),
    /** Minutes played that no play log records (a total told afterwards); counted in total_play_time. */
    untrackedPlayTime: integer("untracked_play_time").notNull().default(0),
    /** untracked_play_time plus the sum of the record's play logs' play_time, kept by triggers (see "Kept by triggers"). */
    totalPlayTime: integer("total_play_time").notNull().default(0),
  },
  (t) => [
    index("play_records_user_game_idx").on(t.userId, t.gameId, t.isLatest),
    index("play_records_console_idx").on(t.consoleId),
    index("play_records_game_idx").on(t.gameId),
    ...[t.updatedAt, t.playStartDate, t.playEndDate, t.clearTargetDate, t.rating, t.gameSortKey, t.totalPlayTime].flatMap((column) =>
      sortIndexes("play_records_latest", t.userId, column, t.gameId, { where: sql`${t.isLatest} = 1` }),
    ),
  ],
);

/** Sessions of a play cycle; a record's totalPlayTime is the sum of its logs' playTime. */
export const playLogs = sqliteTable(
  "play_logs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    playId: text("play_id").notNull(),
    playDate: text("play_date"),
    playTime: integer("play_time").notNull(),
    memo: text("memo"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("play_logs_play_idx").on(t.playId, t.playDate)],
);

/** A user's own grouping of owned games (LIGHT and above). */
export const tags = sqliteTable(
  "tags",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    name: text("name").notNull(),
    nameKana: text("name_kana"),
    color: text("color"),
    description: text("description"),
    revision: text("revision").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("tags_user_name_idx").on(t.userId, t.name)],
);

export const tagGames = sqliteTable(
  "tag_games",
  {
    tagId: integer("tag_id").notNull(),
    gameId: integer("game_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.gameId] }), index("tag_games_game_idx").on(t.gameId)],
);

/** A PREMIUM goal: a set of games (explicit, a tag's, or a platform's) whose achievement is computed on each call. */
export const collections = sqliteTable(
  "collections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull(),
    description: text("description"),
    type: text("type", { enum: ["INDIVIDUAL", "TAG", "PLATFORM"] }).notNull(),
    purpose: text("purpose", { enum: ["LIBRARY", "PLAY"] }).notNull(),
    tagId: integer("tag_id"),
    platformId: integer("platform_id"),
    genreId: integer("genre_id"),
    releaseDateFrom: text("release_date_from"),
    releaseDateTo: text("release_date_to"),
    revision: text("revision").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("collections_user_idx").on(t.userId),
    // The summary triggers find the collections a game or tag write touches by platform or tag.
    index("collections_platform_idx").on(t.platformId).where(sql`${t.type} = 'PLATFORM'`),
    index("collections_tag_idx").on(t.tagId).where(sql`${t.type} = 'TAG'`),
  ],
);

/**
 * Each collection's achievement summary (getCollectionGames, getCollections), kept by triggers on
 * every write that changes a collection's games or their achievement (migrations/0007_collection_summaries.sql),
 * so a call reads one row instead of every member.
 */
export const collectionSummaries = sqliteTable("collection_summaries", {
  collectionId: text("collection_id").primaryKey(),
  totalGames: integer("total_games").notNull(),
  achievedGames: integer("achieved_games").notNull(),
});

/** INDIVIDUAL members, or games excluded from a TAG or PLATFORM collection. */
export const collectionGames = sqliteTable(
  "collection_games",
  {
    collectionId: text("collection_id").notNull(),
    gameId: integer("game_id").notNull(),
    kind: text("kind", { enum: ["member", "excluded"] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.kind, t.gameId] })],
);

/**
 * Import jobs (src/tools/imports): a file uploaded through a signed link, staged in R2 as validated
 * rows, then written in bounded steps. `next_offset` is the byte offset of the next staged row; a
 * lease keeps two steps of one job from running at once.
 */
export const importJobs = sqliteTable(
  "import_jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    source: text("source").notNull(),
    mode: text("mode").notNull(),
    state: text("state").notNull(),
    dataset: text("dataset"),
    fileName: text("file_name"),
    byteSize: integer("byte_size"),
    totalRows: integer("total_rows"),
    nextOffset: integer("next_offset").notNull().default(0),
    rowsDone: integer("rows_done").notNull().default(0),
    rowsAdded: integer("rows_added").notNull().default(0),
    rowsExisting: integer("rows_existing").notNull().default(0),
    rowsFailed: integer("rows_failed").notNull().default(0),
    /** JSON array of reported rows ({row, column, code, message}), capped. */
    problems: text("problems").notNull().default("[]"),
    lastError: text("last_error"),
    unitsCharged: integer("units_charged").notNull().default(0),
    leaseId: text("lease_id"),
    leaseUntil: text("lease_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** The staged file (R2, imports/<jobId>/<uploadId>.ndjson) of the upload that claimed the job. */
    stagedKey: text("staged_key"),
  },
  (t) => [index("import_jobs_user_idx").on(t.userId, t.createdAt)],
);

/** Ids a restore re-issued (custom games, consoles, play records, tags, collections): old id in the file -> new id. */
export const importIdMap = sqliteTable(
  "import_id_map",
  {
    userId: text("user_id").notNull(),
    kind: text("kind").notNull(),
    oldId: text("old_id").notNull(),
    newId: text("new_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.oldId] })],
);

/**
 * The OAuth server's single-use claims (src/accounts/oauthClaims.ts): `code:<sha256>` and
 * `refresh:<sha256>` for each authorization code and refresh token presented (never the secret
 * itself), `ended:<userId>:<grantId>` for a grant the service ended. Taken by one conditional
 * insert, so of two concurrent uses exactly one goes on; deleted by the cron once expired.
 */
export const oauthClaims = sqliteTable(
  "oauth_claims",
  {
    claim: text("claim").primaryKey(),
    /** 1 once the OAuth server issued tokens for the claimed code or refresh token. */
    issued: integer("issued").notNull().default(0),
    /** Epoch milliseconds after which the claim can no longer matter (the code or grant is dead). */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("oauth_claims_expiry_idx").on(t.expiresAt)],
);

/**
 * JAN codes and model numbers collectors suggest for catalog games (src/tools/identifiers/). An
 * open suggestion is seen by its author only (their own searches find the game by it); an approved
 * one has been written into the games or game_editions row (master data), a rejected one is kept
 * so its author sees the outcome. `value` is stored as given for model numbers and as digits for
 * JANs; `search_value` is its normalised code form. One open suggestion per user, game and kind.
 */
export const identifierSuggestions = sqliteTable(
  "identifier_suggestions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    gameId: integer("game_id").notNull(),
    gameEditionId: integer("game_edition_id"),
    kind: text("kind", { enum: ["janCode", "modelNumber"] }).notNull(),
    value: text("value").notNull(),
    searchValue: text("search_value").notNull(),
    note: text("note"),
    status: text("status", { enum: ["open", "approved", "rejected"] })
      .notNull()
      .default("open"),
    /** The official game that already holds the value when it was suggested: a conflict for the operator. */
    conflictGameId: integer("conflict_game_id"),
    /** Who decided: "operator", or "agreement" when two accounts suggested the same value (auto-approval). */
    reviewedBy: text("reviewed_by"),
    reviewReason: text("review_reason"),
    reviewedAt: text("reviewed_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("identifier_suggestions_open_idx").on(t.userId, t.gameId, t.kind).where(sql`${t.status} = 'open'`),
    index("identifier_suggestions_user_idx").on(t.userId, t.createdAt),
    index("identifier_suggestions_value_idx").on(t.kind, t.searchValue, t.status),
    index("identifier_suggestions_status_idx").on(t.status, t.createdAt),
  ],
);
