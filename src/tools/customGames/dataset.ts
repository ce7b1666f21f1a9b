import { eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { games, libraryEntries, playRecords, wishlistEntries } from "../../db/schema";
import { randomCustomId } from "../../platform/customIds";
import { columnList, guardStatement, type RowOf, statements } from "../../platform/db";
import { PREMIUM_ONLY } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { positiveId } from "../../platform/schemas";
import { CUSTOM_GAME_KEYS } from "../games/gameWrites";
import { GAME_LEFT_JOINS, GAME_VIEW, type GameFilters, ownedGameConditions, usableIds } from "../games/queries";
import { pick } from "../shared/cascade";
import { countOf, countOfUser, defineDataset, orEmpty } from "../shared/datasets";
import type { RestoreContext, StagedRow } from "../shared/decisions";
import { GAME_FILTER_NAMES, GAME_REFERENCE_COLUMNS, rowOf } from "../shared/exportDataset";
import { orNull, type RestoredKind, restoringDecisions } from "../shared/restore";
import { forgetIdsSql, REISSUED } from "../shared/restoreReads";
import { type CustomGameFields, customGameFields } from "./items";
import { CUSTOM_GAMES_COUNTER, genreParents, insertCustomGameStatements, referencesStillUsable } from "./queries";
import { customGamesRemovalSql, ownCustomGames } from "./removal";

/** The master row format of games (as exportMasterData writes them), without ids of external services. */
const columns = [
  "gameId",
  "title",
  "titleReading",
  "titleEn",
  "aliases",
  ...GAME_REFERENCE_COLUMNS,
  "genreSubId",
  "genreSubName",
  "releaseDate",
  "janCode",
  "modelNumber",
  "price",
] as const;

const { game, platform, publisher, mainGenre, subGenre } = GAME_VIEW;
const GAME_KEYS = ["id", ...CUSTOM_GAME_KEYS] as const;

/** A game row without external ids, with the names of what it refers to. */
type CustomGameRow = RowOf<typeof games, (typeof GAME_KEYS)[number]> & {
  platform_name: string | null;
  publisher_name: string | null;
  genre_name: string | null;
  genre_sub_name: string | null;
};

const rowSchema = z.object({
  gameId: positiveId,
  title: customGameFields.title,
  titleReading: customGameFields.titleReading.nullish(),
  titleEn: orEmpty(customGameFields.titleEn),
  aliases: orEmpty(customGameFields.aliases),
  platformId: customGameFields.platformId,
  publisherId: customGameFields.publisherId.nullish(),
  genreId: customGameFields.genreId.nullish(),
  genreSubId: customGameFields.genreSubId.nullish(),
  releaseDate: customGameFields.releaseDate.nullish(),
  janCode: customGameFields.janCode.nullish(),
  modelNumber: orEmpty(customGameFields.modelNumber),
  price: customGameFields.price.nullish(),
});
type CustomGameFileRow = z.output<typeof rowSchema>;

/** What the row's platform, publisher and genres refer to: usable ones, and each genre's parent. */
interface References {
  platforms: ReadonlySet<number>;
  companies: ReadonlySet<number>;
  parents: ReadonlyMap<number, number | null>;
}

/** The row's first reference this account cannot use, as its column and the report's code and message; undefined when all hold. */
function unusableReference(row: CustomGameFileRow, { platforms, companies, parents }: References) {
  for (const [field, noun, usable] of [
    ["platformId", "Platform", platforms],
    ["publisherId", "Publisher", companies],
  ] as const) {
    if (row[field] != null && !usable.has(row[field]!)) {
      const message = `${noun} ${row[field]} is not one you can use (custom ${noun.toLowerCase()}s are not in exports: add it first).`;
      return { field, code: "not_found", message } as const;
    }
  }
  const badGenre = (["genreId", "genreSubId"] as const).find((field) => row[field] != null && !parents.has(row[field]!));
  if (badGenre) return { field: badGenre, code: "not_found", message: `Genre ${row[badGenre]} does not exist here.` } as const;
  if (row.genreId != null && parents.get(row.genreId) !== null) {
    const message = `Genre ${row.genreId} is a support genre; the main genre must be a root genre.`;
    return { field: "genreId", code: "invalid_input", message } as const;
  }
  return undefined;
}

const fieldsOf = (row: CustomGameFileRow): CustomGameFields => ({
  title: row.title,
  titleEn: row.titleEn,
  aliases: row.aliases,
  platformId: row.platformId,
  modelNumber: row.modelNumber,
  ...orNull(row, ["titleReading", "publisherId", "genreId", "genreSubId", "releaseDate", "janCode", "price"]),
});

const RESTORED: RestoredKind<number> = { field: "gameId", label: "Custom game", record: REISSUED.game, counter: CUSTOM_GAMES_COUNTER };

/**
 * Custom games: each gets a new id from the custom-id allocator, recorded in import_id_map (kind
 * game), through which later library, wishlist, play record, tag and collection files of the same
 * export find it. Custom platforms and publishers are not in exports: a game naming one the
 * account cannot use is reported (not_found).
 */
async function restoreCustomGames(ctx: RestoreContext, rows: StagedRow<CustomGameFileRow>[]) {
  const { db, userId } = ctx;
  const genreIds = [...new Set(rows.flatMap((r) => [r.d.genreId, r.d.genreSubId].filter((id): id is number => id != null)))];
  const [restoring, platforms, companies, parents] = await Promise.all([
    restoringDecisions(
      ctx,
      RESTORED,
      rows.map((r) => r.d.gameId),
    ),
    usableIds(
      db,
      "platforms",
      userId,
      rows.map((r) => r.d.platformId),
    ),
    usableIds(
      db,
      "companies",
      userId,
      rows.flatMap((r) => (r.d.publisherId != null ? [r.d.publisherId] : [])),
    ),
    genreParents(db, genreIds),
  ]);
  const { d } = restoring;
  const references = new Map<string, SQL>();
  for (const { r, d: row } of rows) {
    if (restoring.alreadyHere(r, row.gameId)) continue;
    const unusable = unusableReference(row, { platforms, companies, parents });
    if (unusable) {
      d.fail(r, unusable.field, unusable.code, unusable.message);
      continue;
    }
    if (!restoring.roomFor(r)) continue;
    const fields = fieldsOf(row);
    for (const condition of referencesStillUsable(userId, { platformId: fields.platformId }))
      references.set(`platform ${fields.platformId}`, condition.holds);
    for (const condition of referencesStillUsable(userId, { publisherId: fields.publisherId }))
      references.set(`publisher ${fields.publisherId}`, condition.holds);
    const gameId = randomCustomId();
    restoring.add(row.gameId, gameId, await insertCustomGameStatements(db, userId, gameId, fields));
  }
  // The platforms and publishers named must still be usable when the batch runs (as addCustomGame checks).
  if (d.statements.length > 0) d.statements.unshift(...[...references.values()].map((holds) => guardStatement(holds)));
  return restoring.decided();
}

/** One row per custom game of the account, by gameId; the game filters go through the list tools' game-condition builder. */
export const customGamesDataset = defineDataset({
  export: {
    name: "customGames",
    plans: PREMIUM_ONLY,
    accepts: GAME_FILTER_NAMES,
    columns,
    async query({ db, userId }, args: GameFilters) {
      return {
        // raw SQL: read through the keyset machinery (platform/keyset.ts), with the list tools' game conditions (games/queries.ts).
        from: sql`${games} ${game}`,
        joins: GAME_LEFT_JOINS,
        where: [eq(game.ownerUserId, userId), ...(await ownedGameConditions(db, userId, args))],
        select: sql`${columnList(game, GAME_KEYS)}, ${platform.name} AS platform_name, ${publisher.name} AS publisher_name,
          ${mainGenre.name} AS genre_name, ${subGenre.name} AS genre_sub_name`,
        keys: [{ column: game.id, direction: "asc" }],
        render: (rows: CustomGameRow[]) =>
          rows.map((row) =>
            rowOf(columns, {
              gameId: row.id,
              title: row.title,
              titleReading: row.title_reading,
              titleEn: JSON.parse(row.title_en),
              aliases: JSON.parse(row.aliases),
              platformId: row.platform_id,
              platformName: row.platform_name,
              publisherId: row.publisher_id,
              publisherName: row.publisher_name,
              genreId: row.genre_id,
              genreName: row.genre_name,
              genreSubId: row.genre_sub_id,
              genreSubName: row.genre_sub_name,
              releaseDate: row.release_date,
              janCode: row.jan_code,
              modelNumber: JSON.parse(row.model_number),
              price: row.price,
            }),
          ),
      };
    },
  },
  rowSchema,
  restore: restoreCustomGames,
  removal(userId, now) {
    const own = eq(games.ownerUserId, userId);
    const custom = ownCustomGames(userId, pick.all);
    return {
      counts: {
        games: countOf(games, own),
        entries: countOfUser(libraryEntries, userId, custom(libraryEntries.gameId)),
        wishes: countOfUser(wishlistEntries, userId, custom(wishlistEntries.gameId)),
        plays: countOfUser(playRecords, userId, custom(playRecords.gameId)),
      },
      revision: statements
        .select({ r: sql`COUNT(*) || ':' || ifnull(group_concat(${games.contentHash}), '')` })
        .from(games)
        .where(own),
      statements: [...customGamesRemovalSql(userId, pick.all, now), forgetIdsSql(userId, ["game"])],
      describe: (c) =>
        `${counted(c.games ?? 0, "custom game")} with their ${counted(c.entries ?? 0, "library entry", "library entries")}, ${counted(c.wishes ?? 0, "wishlist entry", "wishlist entries")}, ${counted(c.plays ?? 0, "play record")} (and their logs, physical copies and tag memberships)`,
    };
  },
});
