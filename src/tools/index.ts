import type { ToolDefinition } from "../registry/defineTool";
import { getAccount } from "./account/getAccount";
import { addAttribute } from "./attributes/addAttribute";
import { listAttributes } from "./attributes/listAttributes";
import { removeAttribute } from "./attributes/removeAttribute";
import { addCollection } from "./collections/addCollection";
import { getCollectionGames } from "./collections/getCollectionGames";
import { getCollections } from "./collections/getCollections";
import { removeCollection } from "./collections/removeCollection";
import { updateCollection } from "./collections/updateCollection";
import { addConsole } from "./consoles/addConsole";
import { addConsoleMaintenanceLog } from "./consoles/addConsoleMaintenanceLog";
import { getConsoleMaintenanceLogs } from "./consoles/getConsoleMaintenanceLogs";
import { getConsoles } from "./consoles/getConsoles";
import { removeConsole } from "./consoles/removeConsole";
import { removeConsoleMaintenanceLog } from "./consoles/removeConsoleMaintenanceLog";
import { updateConsole } from "./consoles/updateConsole";
import { updateConsoleMaintenanceLog } from "./consoles/updateConsoleMaintenanceLog";
import { addCustomGame } from "./customGames/addCustomGame";
import { removeCustomGame } from "./customGames/removeCustomGame";
import { updateCustomGame } from "./customGames/updateCustomGame";
import { addCustomPlatform } from "./customMaster/addCustomPlatform";
import { addCustomPublisher } from "./customMaster/addCustomPublisher";
import { removeCustomPlatform } from "./customMaster/removeCustomPlatform";
import { removeCustomPublisher } from "./customMaster/removeCustomPublisher";
import { updateCustomPlatform } from "./customMaster/updateCustomPlatform";
import { updateCustomPublisher } from "./customMaster/updateCustomPublisher";
import { exportMasterData } from "./exports/exportMasterData";
import { exportMyData } from "./exports/exportMyData";
import { browseGames } from "./games/browseGames";
import { getGamesBatch } from "./games/getGamesBatch";
import { listGenres } from "./games/listGenres";
import { listPlatforms } from "./games/listPlatforms";
import { listPublishers } from "./games/listPublishers";
import { searchGames } from "./games/searchGames";
import { getGameIdentifierSuggestions } from "./identifiers/getGameIdentifierSuggestions";
import { suggestGameIdentifier } from "./identifiers/suggestGameIdentifier";
import { getImportStatus } from "./imports/getImportStatus";
import { importMyData } from "./imports/importMyData";
import { addToLibrary } from "./library/addToLibrary";
import { getLibrary } from "./library/getLibrary";
import { removeFromLibrary } from "./library/removeFromLibrary";
import { updateLibraryEntry } from "./library/updateLibraryEntry";
import { addPhysicalCopy } from "./physicalCopies/addPhysicalCopy";
import { getPhysicalCopies } from "./physicalCopies/getPhysicalCopies";
import { removePhysicalCopy } from "./physicalCopies/removePhysicalCopy";
import { updatePhysicalCopy } from "./physicalCopies/updatePhysicalCopy";
import { addPlayLog } from "./play/addPlayLog";
import { addPlayRecord } from "./play/addPlayRecord";
import { getGamePlayHistory } from "./play/getGamePlayHistory";
import { getPlayLogs } from "./play/getPlayLogs";
import { getPlayRecords } from "./play/getPlayRecords";
import { removePlayLog } from "./play/removePlayLog";
import { removePlayRecord } from "./play/removePlayRecord";
import { updatePlayLog } from "./play/updatePlayLog";
import { updatePlayRecord } from "./play/updatePlayRecord";
import { addTag } from "./tags/addTag";
import { getTags } from "./tags/getTags";
import { removeTag } from "./tags/removeTag";
import { updateTag } from "./tags/updateTag";
import { updateTagGames } from "./tags/updateTagGames";
import { addToWishlist } from "./wishlist/addToWishlist";
import { getWishlist } from "./wishlist/getWishlist";
import { removeFromWishlist } from "./wishlist/removeFromWishlist";
import { updateWishlistEntry } from "./wishlist/updateWishlistEntry";

/**
 * Every tool, in catalog order, under its name (each constant is named as its tool). Keyed by name
 * so that tools/types.ts can derive each tool's argument and reply types, even for tools whose
 * name is built at run time (the custom master tools).
 */
const registry = {
  getAccount,
  searchGames,
  browseGames,
  getGamesBatch,
  listPlatforms,
  listGenres,
  listPublishers,
  suggestGameIdentifier,
  getGameIdentifierSuggestions,
  getLibrary,
  addToLibrary,
  updateLibraryEntry,
  removeFromLibrary,
  getWishlist,
  addToWishlist,
  updateWishlistEntry,
  removeFromWishlist,
  getPhysicalCopies,
  addPhysicalCopy,
  updatePhysicalCopy,
  removePhysicalCopy,
  addCustomGame,
  updateCustomGame,
  removeCustomGame,
  addCustomPlatform,
  updateCustomPlatform,
  removeCustomPlatform,
  addCustomPublisher,
  updateCustomPublisher,
  removeCustomPublisher,
  getPlayRecords,
  addPlayRecord,
  updatePlayRecord,
  removePlayRecord,
  getGamePlayHistory,
  getPlayLogs,
  addPlayLog,
  updatePlayLog,
  removePlayLog,
  getConsoles,
  addConsole,
  updateConsole,
  removeConsole,
  getConsoleMaintenanceLogs,
  addConsoleMaintenanceLog,
  updateConsoleMaintenanceLog,
  removeConsoleMaintenanceLog,
  getTags,
  addTag,
  updateTag,
  updateTagGames,
  removeTag,
  getCollections,
  addCollection,
  updateCollection,
  removeCollection,
  getCollectionGames,
  listAttributes,
  addAttribute,
  removeAttribute,
  exportMyData,
  exportMasterData,
  importMyData,
  getImportStatus,
};

/** The registry's type: tool name to that tool's definition, with its own schemas (see tools/types.ts). */
export type Registry = typeof registry;

/** The registry: every tool, in catalog order. REST routes, the catalog and OpenAPI come from here. */
export const tools: readonly ToolDefinition[] = Object.values(registry);
