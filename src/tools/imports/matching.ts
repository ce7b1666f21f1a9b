import { type Db, queryBatch } from "../../platform/db";
import { normalizePlace } from "../../platform/normalize";
import { type HitRow, prepareSearch, readSearch, type SearchCriteria } from "../games/searchQuery";
import { visiblePlatformNames } from "./queries";
import type { TrackerRow } from "./rows";

/**
 * Finds the game of a tracker row with searchGames' own search (prepareSearch / readSearch: the
 * same normalisation, identifiers, readings and ranking), narrowed to the row's platform when its
 * name, short name or English name is one the account can see. A row matches when the search
 * finds one game, or exactly one exact match (an identifier, or a whole title or reading);
 * otherwise it is reported: unmatched, or ambiguous with the candidates.
 */
export type MatchResult =
  | { kind: "matched"; gameId: number }
  | { kind: "unmatched"; column: string; message: string }
  | { kind: "ambiguous"; column: string; message: string; candidates: number[] };

const CANDIDATES = 5;

async function platformNames(db: Db, userId: string): Promise<Map<string, number>> {
  const byName = new Map<string, number>();
  for (const row of await visiblePlatformNames(db, userId)) {
    for (const name of [row.name, row.nameEn, row.shortName]) {
      const key = name ? normalizePlace(name) : "";
      if (key && !byName.has(key)) byName.set(key, row.id);
    }
  }
  return byName;
}

export async function matchGames(db: Db, userId: string, rows: readonly TrackerRow[]): Promise<MatchResult[]> {
  if (rows.length === 0) return [];
  const platforms = await platformNames(db, userId);
  const prepared = await Promise.all(
    rows.map((row) => {
      const platformId = row.platform ? platforms.get(normalizePlace(row.platform)) : undefined;
      const criteria: SearchCriteria = {
        ...(row.janCode ? { janCode: row.janCode } : {}),
        ...(row.modelNumber ? { modelNumber: row.modelNumber } : {}),
        ...(!row.janCode && !row.modelNumber && row.title ? { query: row.title } : {}),
        ...(platformId !== undefined ? { platformIds: [platformId] } : {}),
      };
      return prepareSearch(db, userId, criteria, CANDIDATES);
    }),
  );
  const pages = await queryBatch<HitRow[][]>(
    db,
    prepared.map((p) => p.query),
  );
  return rows.map((row, i) => {
    const result = readSearch(prepared[i]!, pages[i]!);
    const column = row.janCode ? "janCode" : row.modelNumber ? "modelNumber" : "title";
    const asked = row.janCode ?? row.modelNumber ?? row.title ?? "";
    const exact = result.hits.filter((hit) => hit.exact && !hit.edition);
    if (result.hits.length === 1) return { kind: "matched", gameId: result.hits[0]!.record.id };
    if (exact.length === 1) return { kind: "matched", gameId: exact[0]!.record.id };
    if (result.hits.length === 0) {
      return { kind: "unmatched", column, message: `No game matches ${column} '${asked}'${row.platform ? ` on '${row.platform}'` : ""}.` };
    }
    return {
      kind: "ambiguous",
      column,
      message: `${result.totalCount} games match ${column} '${asked}'${row.platform ? ` on '${row.platform}'` : ""}; add the platform or a JAN code.`,
      candidates: result.hits.map((hit) => hit.record.id),
    };
  });
}
