import { eq, sql } from "drizzle-orm";
import { games } from "../../../db/schema";
import { columnList, type RowOf } from "../../../platform/db";
import { GAME_LEFT_JOINS, ownedGameConditions } from "../../games/queries";
import { GAME_FILTER_NAMES, MY_DATASET_PLANS } from "./args";
import { GAME_REFERENCE_COLUMNS, JOINED, type MyDataset, rowOf } from "./dataset";

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

const { game, platform, publisher, mainGenre, subGenre } = JOINED;
const GAME_KEYS = [
  "id",
  "title",
  "titleReading",
  "titleEn",
  "aliases",
  "platformId",
  "publisherId",
  "genreId",
  "genreSubId",
  "releaseDate",
  "janCode",
  "modelNumber",
  "price",
] as const;

/** A game row without external ids, with the names of what it refers to. */
type CustomGameRow = RowOf<typeof games, (typeof GAME_KEYS)[number]> & {
  platform_name: string | null;
  publisher_name: string | null;
  genre_name: string | null;
  genre_sub_name: string | null;
};

/** One row per custom game of the account, by gameId; the game filters go through the list tools' game-condition builder. */
export const customGamesDataset: MyDataset = {
  name: "customGames",
  plans: MY_DATASET_PLANS.customGames,
  accepts: GAME_FILTER_NAMES,
  columns,
  async query({ db, userId }, args) {
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
};
