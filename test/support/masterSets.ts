// The master fixture sets (test/fixtures/master) that several suites share, one import each.
import exportsCompanies from "../fixtures/master/exports.companies.ndjson?raw";
import EXPORTS_GAMES from "../fixtures/master/exports.games.ndjson?raw";
import exportsGenres from "../fixtures/master/exports.genres.ndjson?raw";
import exportsPlatforms from "../fixtures/master/exports.platforms.ndjson?raw";
import libraryCompanies from "../fixtures/master/library.companies.ndjson?raw";
import libraryGames from "../fixtures/master/library.games.ndjson?raw";
import libraryGenres from "../fixtures/master/library.genres.ndjson?raw";
import libraryPlatforms from "../fixtures/master/library.platforms.ndjson?raw";
import { importFixture } from "./master";

/** The export suites' games as NDJSON text. */
export { EXPORTS_GAMES };

/** The ルミナ master (ids 750000+) of the library suites, the MCP faces and the pipeline tests. */
export const importLibraryMaster = () =>
  importFixture({ platforms: libraryPlatforms, companies: libraryCompanies, genres: libraryGenres, games: libraryGames });

/** The master of the download and master-data export suites (ids 860000+). */
export const importExportsMaster = () =>
  importFixture({ platforms: exportsPlatforms, companies: exportsCompanies, genres: exportsGenres, games: EXPORTS_GAMES });

/** The library master's first game (750001) as the library tools show it in an item's `game`. */
export const KASUMI_GAME = {
  gameId: 750001,
  title: "ルミナ 霞の迷宮",
  titleEn: ["Lumina 750001"],
  platform: { platformId: 750001, name: "ルミナ機A" },
  publisher: { companyId: 750001, name: "ルミナソフト" },
  genre: { genreId: 750001, name: "ルミナRPG" },
  releaseDate: "1991-01-10",
  custom: false,
  dbId: 7500001,
  dbSlug: "lumina-750001-test",
  dbCoverId: "lcov1",
};
