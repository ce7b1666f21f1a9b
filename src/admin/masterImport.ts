import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { z } from "zod";
import { companies, gameEditions, games, genres, platforms } from "../db/schema";
import { type BulkColumn, bulkInsert, readByIds, runInBatches } from "../platform/bulkWrite";
import { createDb, type Db } from "../platform/db";
import { ApiError } from "../platform/errors";
import { sha256Hex } from "../platform/hashing";
import { MALFORMED_TEXT, malformedTextPath } from "../platform/validation";
import { gameWriteStatements } from "../tools/games/gameWrites";
import { bumpGeneration, readGeneration } from "../tools/games/generation";
import {
  type CompanyRow,
  companySearchText,
  type GameRow,
  type GenreRow,
  MASTER_DATASETS,
  type MasterDataset,
  type PlatformRow,
} from "../tools/games/masterRows";
import { SEARCH_FORMS_VERSION } from "../tools/games/searchColumns";
import { mergeApprovedIdentifiers } from "../tools/identifiers/masterMerge";
import { genreTaxonomy, mainGenresAmong } from "./queries";

interface Line<R> {
  line: number;
  row: R;
}

const lineError = (line: number, field: string, message: string) =>
  new ApiError("invalid_input", `line ${line}: ${field}: ${message}`, { field, line });

function parseNdjson<S extends z.ZodType>(body: string, schema: S): Line<z.output<S>>[] {
  const rows: Line<z.output<S>>[] = [];
  body.split(/\r?\n/).forEach((text, index) => {
    const line = index + 1;
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw lineError(line, "(row)", "not readable as JSON");
    }
    // Text is stored as sent, so a lone surrogate (which storage would turn into U+FFFD) is refused.
    const malformed = malformedTextPath(value);
    if (malformed) throw lineError(line, malformed.join(".") || "(row)", MALFORMED_TEXT);
    const result = schema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
      throw lineError(line, path.join(".") || "(row)", issue.message);
    }
    rows.push({ line, row: result.data });
  });
  if (rows.length === 0) throw new ApiError("invalid_input", "The body holds no NDJSON rows.", { field: "(body)" });
  return rows;
}

function refuseDuplicateIds<R>(rows: Line<R>[], idOf: (row: R) => number, field: string) {
  const seen = new Set<number>();
  for (const { line, row } of rows) {
    if (seen.has(idOf(row))) throw lineError(line, field, `${idOf(row)} appears twice in this import`);
    seen.add(idOf(row));
  }
}

type MasterTable = typeof platforms | typeof companies | typeof genres | typeof games;

/** How one dataset is checked and stored. */
interface DatasetImporter<R> {
  table: MasterTable;
  idField: string;
  idOf(row: R): number;
  /** Refuses a row whose references do not hold, and completes what a row derives from them (a game's genreKey). */
  settleReferences(db: Db, rows: Line<R>[]): Promise<void>;
  /** Statements that store the changed rows (with their content hashes) and what hangs off them. */
  write(d1: D1Database, changed: (R & { contentHash: string })[]): D1PreparedStatement[];
  /**
   * The version of what the stored row derives from its content in code (a game's search forms),
   * part of the content hash: when it changes, the next import rewrites every row, re-deriving it.
   */
  derivedVersion?: string;
}

const importerOf = <R extends object>(
  table: MasterTable,
  idField: string,
  { settleReferences, write, derivedVersion }: Pick<DatasetImporter<R>, "settleReferences" | "write" | "derivedVersion">,
): DatasetImporter<R> => ({
  table,
  idField,
  idOf: (row) => (row as Record<string, number>)[idField]!,
  settleReferences,
  write,
  derivedVersion,
});

/**
 * A dataset whose rows map to columns one to one (plus their content hash): `fields` names the
 * row key of each column (by its schema property), in column order; the id's key is the row's id.
 */
function plainImporter<T extends typeof platforms | typeof companies | typeof genres, R extends object>(
  table: T,
  fields: { id: string } & Partial<Record<keyof T["$inferSelect"], string>>,
  {
    toDbRow = (row) => row,
    settleReferences = async () => {},
  }: { toDbRow?: (row: R) => object; settleReferences?: DatasetImporter<R>["settleReferences"] } = {},
): DatasetImporter<R> {
  const schemaColumns = getTableColumns(table) as Record<string, SQLiteColumn>;
  const columns: BulkColumn[] = [
    ...Object.entries(fields).map(([property, key]) => ({ column: schemaColumns[property]!.name, key: key as string })),
    { column: table.contentHash.name, key: "contentHash" },
  ];
  return importerOf<R>(table, fields.id, {
    settleReferences,
    write: (d1, changed) =>
      // raw SQL: a bulk upsert, one JSON parameter per chunk of rows (platform/bulkWrite.ts)
      bulkInsert(
        d1,
        getTableName(table),
        columns,
        changed.map((row) => ({ ...toDbRow(row), contentHash: row.contentHash })),
        table.id.name,
      ),
  });
}

/** Every id `pick` gives must exist; `check` may refuse the value of `column` (of that id's row). */
async function requireExisting(
  d1: D1Database,
  column: SQLiteColumn,
  rows: Line<GameRow>[],
  pick: (row: GameRow) => number | null,
  field: string,
  check: (value: unknown) => string | null = () => null,
) {
  const table = getTableName(column.table);
  const ids = [...new Set(rows.map(({ row }) => pick(row)).filter((id): id is number => id !== null))];
  // raw SQL: ids of any number, read in chunks of one JSON parameter (platform/bulkWrite.ts)
  const found = await readByIds<unknown>(d1, table, column.name, ids);
  for (const { line, row } of rows) {
    const id = pick(row);
    if (id === null) continue;
    if (!found.has(id)) throw lineError(line, field, `${id} does not exist in ${table}`);
    const problem = check(found.get(id));
    if (problem) throw lineError(line, field, `${id} ${problem}`);
  }
}

const officialOnly = (owner: unknown) => (owner === null ? null : "is a custom record, not official master data");

const platformImporter = plainImporter<typeof platforms, PlatformRow>(platforms, {
  id: "platformId",
  name: "name",
  nameEn: "nameEn",
  shortName: "shortName",
  maker: "maker",
  releaseDate: "releaseDate",
});

const companyImporter = plainImporter<typeof companies, CompanyRow>(
  companies,
  { id: "companyId", name: "name", nameKana: "nameKana", nameEn: "nameEn", searchText: "searchText" },
  { toDbRow: (row) => ({ ...row, searchText: companySearchText(row) }) },
);

interface StoredGenre {
  parentId: number | null;
  key: string;
  line?: number;
}

/**
 * The taxonomy must stay whole after the import: keys unique, roots without a dot, every child's
 * key its parent's plus one part (including stored children of an imported parent), and a genre
 * that games use as their main genre stays a root.
 */
async function checkGenreTaxonomy(db: Db, rows: Line<GenreRow>[]) {
  const taxonomy = new Map<number, StoredGenre>((await genreTaxonomy(db)).map(({ id, ...genre }) => [id, genre]));
  for (const { line, row } of rows) taxonomy.set(row.genreId, { parentId: row.parentId, key: row.taxonomyKey, line });
  const imported = new Set(rows.map(({ row }) => row.genreId));
  const lineOf = (id: number) => taxonomy.get(id)?.line ?? 0;

  const idOfKey = new Map<string, number>();
  for (const [id, genre] of taxonomy) {
    const other = idOfKey.get(genre.key);
    if (other !== undefined)
      throw lineError(lineOf(imported.has(id) ? id : other), "taxonomyKey", `'${genre.key}' is used by genres ${other} and ${id}`);
    idOfKey.set(genre.key, id);
  }
  for (const [id, genre] of taxonomy) {
    if (!imported.has(id) && (genre.parentId === null || !imported.has(genre.parentId))) continue;
    const line = lineOf(imported.has(id) ? id : genre.parentId!);
    const subject = imported.has(id) ? "" : `stored child genre ${id}: `;
    if (genre.parentId === null) {
      if (genre.key.includes(".")) throw lineError(line, "taxonomyKey", "a root genre's key has no dot");
      continue;
    }
    const parent = taxonomy.get(genre.parentId);
    if (!parent || genre.parentId === id) throw lineError(line, "parentId", `${genre.parentId} is not a genre`);
    const ownPart = genre.key.slice(parent.key.length + 1);
    if (!genre.key.startsWith(`${parent.key}.`) || ownPart.includes(".")) {
      throw lineError(line, "taxonomyKey", `${subject}'${genre.key}' must extend its parent's key '${parent.key}' by one part`);
    }
  }
  const becomingChildren = rows.filter(({ row }) => row.parentId !== null).map(({ row }) => row.genreId);
  const [used] = await mainGenresAmong(db, becomingChildren);
  if (used) throw lineError(lineOf(used), "parentId", `genre ${used} is the main genre of games, so it must stay a root`);
}

const genreImporter = plainImporter<typeof genres, GenreRow>(
  genres,
  { id: "genreId", name: "name", parentId: "parentId", taxonomyKey: "taxonomyKey" },
  { settleReferences: checkGenreTaxonomy },
);

/**
 * A game's genreKey is its most specific classification: the main genre's taxonomy key or one
 * beneath it. A row that leaves it out (or null) is classified by its main genre alone.
 */
async function settleGenreKeys(d1: D1Database, rows: Line<GameRow>[]) {
  const mainIds = [...new Set(rows.map(({ row }) => row.genreId).filter((id): id is number => id !== null))];
  // raw SQL: ids of any number, read in chunks of one JSON parameter (platform/bulkWrite.ts)
  const mainKeys = await readByIds<string>(d1, getTableName(genres), genres.taxonomyKey.name, mainIds);
  for (const { line, row } of rows) {
    const mainKey = row.genreId === null ? null : mainKeys.get(row.genreId)!;
    const genreKey = row.genreKey ?? mainKey;
    row.genreKey = genreKey;
    if (genreKey === mainKey || (mainKey !== null && genreKey?.startsWith(`${mainKey}.`))) continue;
    const problem = mainKey === null ? "needs a main genre (genreId)" : `does not lie within the main genre's key '${mainKey}'`;
    throw lineError(line, "genreKey", `'${genreKey}' ${problem}`);
  }
}

const gameImporter = importerOf<GameRow>(games, "gameId", {
  async settleReferences({ $client: d1 }, rows) {
    await requireExisting(d1, platforms.ownerUserId, rows, (r) => r.platformId, "platformId", officialOnly);
    await requireExisting(d1, companies.ownerUserId, rows, (r) => r.publisherId, "publisherId", officialOnly);
    await requireExisting(
      d1,
      genres.parentId,
      rows,
      (r) => r.genreId,
      "genreId",
      (parent) => (parent === null ? null : "is not a main (root) genre"),
    );
    await settleGenreKeys(d1, rows);
    await requireExisting(d1, genres.id, rows, (r) => r.genreSubId, "genreSubId");
    await mergeApprovedIdentifiers(
      createDb(d1),
      rows.map(({ row }) => row),
    );
    const editions = rows.flatMap(({ line, row }) => row.editions.map((e) => ({ line, gameId: row.gameId, id: e.gameEditionId })));
    // raw SQL: ids of any number, read in chunks of one JSON parameter (platform/bulkWrite.ts)
    const ownerOf = await readByIds<number>(
      d1,
      getTableName(gameEditions),
      gameEditions.gameId.name,
      editions.map((e) => e.id),
    );
    const seen = new Set<number>();
    for (const { line, gameId, id } of editions) {
      const owner = ownerOf.get(id);
      if (seen.has(id) || (owner !== undefined && owner !== gameId)) {
        throw lineError(line, "editions.gameEditionId", `${id} belongs to another game`);
      }
      seen.add(id);
    }
  },
  write: gameWriteStatements,
  derivedVersion: SEARCH_FORMS_VERSION,
});

const IMPORTERS: { [D in MasterDataset]: DatasetImporter<z.output<(typeof MASTER_DATASETS)[D]>> } = {
  platforms: platformImporter,
  companies: companyImporter,
  genres: genreImporter,
  games: gameImporter,
};

/**
 * What game rows carry of the other datasets (platformName, publisherName, genreName):
 * a change to one of these fields changes the games file's rows, so the games generation moves
 * with it (an equal generation means nothing needs to be fetched again).
 */
const CARRIED_BY_GAME_ROWS: Partial<Record<MasterDataset, readonly string[]>> = {
  platforms: ["name"],
  companies: ["name"],
  genres: ["name"],
};

/** Whether the changed rows change a field that game rows carry (compared with what is stored). */
async function changesGameRows(d1: D1Database, dataset: MasterDataset, importer: DatasetImporter<object>, changed: readonly object[]) {
  const table = importer.table as unknown as Record<string, { name: string }>;
  for (const field of CARRIED_BY_GAME_ROWS[dataset] ?? []) {
    // raw SQL: ids of any number, read in chunks of one JSON parameter (platform/bulkWrite.ts)
    const stored = await readByIds<unknown>(d1, getTableName(importer.table), table[field]!.name, changed.map(importer.idOf));
    if (changed.some((row) => (row as Record<string, unknown>)[field] !== stored.get(importer.idOf(row)))) return true;
  }
  return false;
}

/** Names that game rows carry for joining; derived on export, so not part of the content. */
const DERIVED_FIELDS = ["platformName", "publisherName", "genreName"];
const contentOf = (row: object) =>
  JSON.stringify(Object.fromEntries(Object.entries(row).filter(([key]) => !DERIVED_FIELDS.includes(key) && key !== "custom")));

export interface ImportResult {
  dataset: MasterDataset;
  received: number;
  upserted: number;
  unchanged: number;
  generation: string;
}

/**
 * Idempotent upsert by id: rows whose content is unchanged are not written, and the dataset's
 * generation changes only when some row did. A failed import can simply be sent again.
 */
export async function importMasterDataset(db: Db, dataset: MasterDataset, body: string): Promise<ImportResult> {
  const d1 = db.$client;
  const importer = IMPORTERS[dataset] as DatasetImporter<object>;
  const rows = parseNdjson(body, MASTER_DATASETS[dataset]) as Line<object>[];
  refuseDuplicateIds(rows, importer.idOf, importer.idField);
  await importer.settleReferences(db, rows);

  const hashes = await Promise.all(rows.map(({ row }) => sha256Hex(contentOf(row) + (importer.derivedVersion ?? ""))));
  // raw SQL: ids of any number, read in chunks of one JSON parameter (platform/bulkWrite.ts)
  const stored = await readByIds<string>(
    d1,
    getTableName(importer.table),
    importer.table.contentHash.name,
    rows.map(({ row }) => importer.idOf(row)),
  );
  const changed = rows.map(({ row }, i) => ({ row, hash: hashes[i]! })).filter(({ row, hash }) => stored.get(importer.idOf(row)) !== hash);

  if (changed.length === 0) {
    return { dataset, received: rows.length, upserted: 0, unchanged: rows.length, generation: await readGeneration(d1, dataset) };
  }
  // The generations move first: should a later batch fail, the rows already written carry their
  // new hashes, and a client must still see that the dataset changed.
  const { generation, statement } = bumpGeneration(d1, dataset);
  const gameRowsChange = await changesGameRows(
    d1,
    dataset,
    importer,
    changed.map(({ row }) => row),
  );
  await runInBatches(d1, [
    statement,
    ...(gameRowsChange ? [bumpGeneration(d1, "games").statement] : []),
    ...importer.write(
      d1,
      changed.map(({ row, hash }) => ({ ...row, contentHash: hash })),
    ),
  ]);
  return { dataset, received: rows.length, upserted: changed.length, unchanged: rows.length - changed.length, generation };
}
