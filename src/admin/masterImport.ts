import type { z } from "zod";
import { type BulkColumn, bulkInsert, readByIds, runInBatches } from "../platform/bulkWrite";
import { ApiError } from "../platform/errors";
import { sha256Hex } from "../platform/hashing";
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

/** How one dataset is checked and stored. */
interface DatasetImporter<R> {
  table: string;
  idField: string;
  idOf(row: R): number;
  checkReferences(d1: D1Database, rows: Line<R>[]): Promise<void>;
  /** Statements that store the changed rows (with their content hashes) and what hangs off them. */
  write(d1: D1Database, changed: (R & { contentHash: string })[]): D1PreparedStatement[];
}

const col = (column: string, key: string, json = false): BulkColumn => ({ column, key, json });
/** A dataset whose rows map to columns one to one (plus their content hash). */
const plainWrite =
  <R extends object>(table: string, columns: BulkColumn[], toDbRow: (row: R) => object = (row) => row) =>
  (d1: D1Database, changed: (R & { contentHash: string })[]) =>
    bulkInsert(
      d1,
      table,
      [...columns, col("content_hash", "contentHash")],
      changed.map((row) => ({ ...toDbRow(row), contentHash: row.contentHash })),
      "id",
    );

async function requireExisting(
  d1: D1Database,
  table: string,
  rows: Line<GameRow>[],
  pick: (row: GameRow) => number | null,
  field: string,
  check: (value: unknown) => string | null = () => null,
  column = "id",
) {
  const ids = [...new Set(rows.map(({ row }) => pick(row)).filter((id): id is number => id !== null))];
  const found = await readByIds<unknown>(d1, table, column, ids);
  for (const { line, row } of rows) {
    const id = pick(row);
    if (id === null) continue;
    if (!found.has(id)) throw lineError(line, field, `${id} does not exist in ${table}`);
    const problem = check(found.get(id));
    if (problem) throw lineError(line, field, `${id} ${problem}`);
  }
}

const officialOnly = (owner: unknown) => (owner === null ? null : "is a custom record, not official master data");

const platformImporter: DatasetImporter<PlatformRow> = {
  table: "platforms",
  idField: "platformId",
  idOf: (row) => row.platformId,
  checkReferences: async () => {},
  write: plainWrite("platforms", [
    col("id", "platformId"),
    col("name", "name"),
    col("name_en", "nameEn"),
    col("short_name", "shortName"),
    col("maker", "maker"),
    col("release_date", "releaseDate"),
  ]),
};

const companyImporter: DatasetImporter<CompanyRow> = {
  table: "companies",
  idField: "companyId",
  idOf: (row) => row.companyId,
  checkReferences: async () => {},
  write: plainWrite<CompanyRow>(
    "companies",
    [col("id", "companyId"), col("name", "name"), col("name_kana", "nameKana"), col("name_en", "nameEn"), col("search_text", "searchText")],
    (row) => ({ ...row, searchText: companySearchText(row) }),
  ),
};

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
async function checkGenreTaxonomy(d1: D1Database, rows: Line<GenreRow>[]) {
  const { results } = await d1
    .prepare("SELECT id, parent_id, taxonomy_key FROM genres")
    .all<{ id: number; parent_id: number | null; taxonomy_key: string }>();
  const genres = new Map<number, StoredGenre>(results.map((g) => [g.id, { parentId: g.parent_id, key: g.taxonomy_key }]));
  for (const { line, row } of rows) genres.set(row.genreId, { parentId: row.parentId, key: row.taxonomyKey, line });
  const imported = new Set(rows.map(({ row }) => row.genreId));
  const lineOf = (id: number) => genres.get(id)?.line ?? 0;

  const idOfKey = new Map<string, number>();
  for (const [id, genre] of genres) {
    const other = idOfKey.get(genre.key);
    if (other !== undefined)
      throw lineError(lineOf(imported.has(id) ? id : other), "taxonomyKey", `'${genre.key}' is used by genres ${other} and ${id}`);
    idOfKey.set(genre.key, id);
  }
  for (const [id, genre] of genres) {
    if (!imported.has(id) && (genre.parentId === null || !imported.has(genre.parentId))) continue;
    const line = lineOf(imported.has(id) ? id : genre.parentId!);
    const subject = imported.has(id) ? "" : `stored child genre ${id}: `;
    if (genre.parentId === null) {
      if (genre.key.includes(".")) throw lineError(line, "taxonomyKey", "a root genre's key has no dot");
      continue;
    }
    const parent = genres.get(genre.parentId);
    if (!parent || genre.parentId === id) throw lineError(line, "parentId", `${genre.parentId} is not a genre`);
    const ownPart = genre.key.slice(parent.key.length + 1);
    if (!genre.key.startsWith(`${parent.key}.`) || ownPart.includes(".")) {
      throw lineError(line, "taxonomyKey", `${subject}'${genre.key}' must extend its parent's key '${parent.key}' by one part`);
    }
  }
  const becomingChildren = rows.filter(({ row }) => row.parentId !== null).map(({ row }) => row.genreId);
  const { results: mainGenres } = await d1
    .prepare("SELECT DISTINCT genre_id AS id FROM games WHERE genre_id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(becomingChildren))
    .all<{ id: number }>();
  const used = mainGenres[0];
  if (used) throw lineError(lineOf(used.id), "parentId", `genre ${used.id} is the main genre of games, so it must stay a root`);
}

const genreImporter: DatasetImporter<GenreRow> = {
  table: "genres",
  idField: "genreId",
  idOf: (row) => row.genreId,
  checkReferences: checkGenreTaxonomy,
  write: plainWrite("genres", [
    col("id", "genreId"),
    col("name", "name"),
    col("parent_id", "parentId"),
    col("taxonomy_key", "taxonomyKey"),
  ]),
};

const gameImporter: DatasetImporter<GameRow> = {
  table: "games",
  idField: "gameId",
  idOf: (row) => row.gameId,
  async checkReferences(d1, rows) {
    await requireExisting(d1, "platforms", rows, (r) => r.platformId, "platformId", officialOnly, "owner_user_id");
    await requireExisting(d1, "companies", rows, (r) => r.publisherId, "publisherId", officialOnly, "owner_user_id");
    await requireExisting(
      d1,
      "genres",
      rows,
      (r) => r.genreId,
      "genreId",
      (parent) => (parent === null ? null : "is not a main (root) genre"),
      "parent_id",
    );
    await requireExisting(d1, "genres", rows, (r) => r.genreSubId, "genreSubId");
    const editions = rows.flatMap(({ line, row }) => row.editions.map((e) => ({ line, gameId: row.gameId, id: e.gameEditionId })));
    const ownerOf = await readByIds<number>(
      d1,
      "game_editions",
      "game_id",
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
};

const IMPORTERS: { [D in MasterDataset]: DatasetImporter<z.output<(typeof MASTER_DATASETS)[D]>> } = {
  platforms: platformImporter,
  companies: companyImporter,
  genres: genreImporter,
  games: gameImporter,
};

/** Names that game rows carry for joining; derived on export, so not part of the content. */
const DERIVED_FIELDS = ["platformName", "publisherName", "genreName", "genreKey"];
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
export async function importMasterDataset(d1: D1Database, dataset: MasterDataset, body: string): Promise<ImportResult> {
  const importer = IMPORTERS[dataset] as DatasetImporter<object>;
  const rows = parseNdjson(body, MASTER_DATASETS[dataset]) as Line<object>[];
  refuseDuplicateIds(rows, importer.idOf, importer.idField);
  await importer.checkReferences(d1, rows);

  const hashes = await Promise.all(rows.map(({ row }) => sha256Hex(contentOf(row))));
  const stored = await readByIds<string>(
    d1,
    importer.table,
    "content_hash",
    rows.map(({ row }) => importer.idOf(row)),
  );
  const changed = rows.map(({ row }, i) => ({ row, hash: hashes[i]! })).filter(({ row, hash }) => stored.get(importer.idOf(row)) !== hash);

  if (changed.length === 0) {
    return { dataset, received: rows.length, upserted: 0, unchanged: rows.length, generation: await readGeneration(d1, dataset) };
  }
  // The generation moves first: should a later batch fail, the rows already written carry their
  // new hashes, and a client must still see that the dataset changed.
  const { generation, statement } = bumpGeneration(d1, dataset);
  await runInBatches(d1, [
    statement,
    ...importer.write(
      d1,
      changed.map(({ row, hash }) => ({ ...row, contentHash: hash })),
    ),
  ]);
  return { dataset, received: rows.length, upserted: changed.length, unchanged: rows.length - changed.length, generation };
}
