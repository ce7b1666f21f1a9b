import { sql } from "drizzle-orm";
import type { GameRecord } from "../../games/gameObject";
import { GAME_LEFT_JOINS, ownedGameConditions } from "../../games/queries";
import { GAME_FILTER_NAMES, MY_DATASET_PLANS } from "./args";
import { GAME_REFERENCE_COLUMNS, type MyDataset, rowOf } from "./dataset";

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

/** A game row without external ids and editions, plus what only exports read: the reading and aliases. */
type CustomGameRow = Omit<GameRecord, "media_id" | "gps_id" | "db_id" | "db_slug" | "db_cover_id" | "owner_user_id" | "editions"> & {
  title_reading: string | null;
  aliases: string;
};

/** One row per custom game of the account, by gameId; the game filters go through the list tools' game-condition builder. */
export const customGamesDataset: MyDataset = {
  name: "customGames",
  plans: MY_DATASET_PLANS.customGames,
  accepts: GAME_FILTER_NAMES,
  columns,
  async query({ db, userId }, args) {
    return {
      from: sql`games g`,
      joins: GAME_LEFT_JOINS,
      where: [sql`g.owner_user_id = ${userId}`, ...(await ownedGameConditions(db, userId, args))],
      select: sql.raw(`g.id, g.title, g.title_reading, g.title_en, g.aliases, g.platform_id, p.name AS platform_name, g.publisher_id,
        c.name AS publisher_name, g.genre_id, gm.name AS genre_name, g.genre_sub_id, gs.name AS genre_sub_name, g.release_date,
        g.jan_code, g.model_number, g.price`),
      keys: [{ column: "g.id", direction: "asc" }],
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
