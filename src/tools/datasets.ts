import { collectionsDataset } from "./collections/dataset";
import { consolesDataset } from "./consoles/dataset";
import { customGamesDataset } from "./customGames/dataset";
import { libraryDataset } from "./library/dataset";
import { playLogsDataset } from "./play/playLogsDataset";
import { playRecordsDataset } from "./play/playRecordsDataset";
import type { UserDataset } from "./shared/datasets";
import { tagsDataset } from "./tags/dataset";
import { wishlistDataset } from "./wishlist/dataset";

/**
 * Every dataset of a user's records, each defined by its family, in the order a whole account is
 * restored: custom games first (the other files refer to them), consoles (play records refer to
 * them), then the library and what hangs off it, tags (their games must be in the library) and
 * collections (they refer to tags). exportMyData and importMyData iterate this registry.
 */
const DATASETS = {
  customGames: customGamesDataset,
  consoles: consolesDataset,
  library: libraryDataset,
  wishlist: wishlistDataset,
  playRecords: playRecordsDataset,
  playLogs: playLogsDataset,
  tags: tagsDataset,
  collections: collectionsDataset,
} satisfies Record<string, UserDataset>;

/** The name of a dataset of a user's records. */
export type MyDatasetName = keyof typeof DATASETS;
export const USER_DATASETS: Record<MyDatasetName, UserDataset> = DATASETS;

/** The dataset of this name, if there is one. */
export const userDataset = (name: string): UserDataset | undefined =>
  Object.hasOwn(USER_DATASETS, name) ? USER_DATASETS[name as MyDatasetName] : undefined;
