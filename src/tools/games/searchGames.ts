import { z } from "zod";
import { sharedFilterArgs } from "../../platform/filters";
import { buildWithoutLookups } from "../../platform/lookups";
import { searchForm, searchTerms } from "../../platform/normalize";
import { limitArgOf, type Paging, pageEnvelopeFields } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { isoDate, janCode, orderedRanges, positiveId, searchCode, searchText, text } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { gameFieldsArg, gameSchema, toGame } from "./gameObject";
import { closestPlatformWord } from "./platformWords";
import { type CoverageRows, coverageFrom, coverageQueries, groupsOf } from "./queries";
import { type HitRow, type PreparedSearch, prepareSearch, readSearch, type SearchResult, searchPlan } from "./searchQuery";
import { coverageSchema, DEFAULT_GAME_FIELDS } from "./shared";

const PAGING: Paging = { cap: 20, defaultLimit: 10, capReason: "searchGames returns at most 20 items" };
const IDENTIFYING_TERMS = ["query", "janCode", "modelNumber", "externalId"] as const;

const input = z
  .strictObject({
    query: searchText(100)
      .optional()
      .describe("Title, hiragana reading, English title or nickname; spaces separate terms that must all match."),
    janCode: z
      .string()
      .regex(/^(\d{8}|\d{13})$/, "must be 8 or 13 digits")
      .optional()
      .describe("Exact JAN (EAN) barcode, of the game or an edition."),
    modelNumber: searchCode(40).optional().describe("Part of a model number (game or edition); hyphens and case are ignored."),
    externalId: z
      .strictObject({ dbId: positiveId.optional(), dbSlug: text(200).optional() })
      .refine((id) => (id.dbId === undefined) !== (id.dbSlug === undefined), "give exactly one of dbId or dbSlug")
      .optional()
      .describe("The external game database's id: {dbId} or {dbSlug}."),
    platformIds: z.array(positiveId).max(10).optional(),
    publisherId: positiveId.optional(),
    genreId: sharedFilterArgs.genreId,
    releaseDateFrom: isoDate.optional(),
    releaseDateTo: isoDate.optional(),
    limit: limitArgOf(PAGING),
    fields: gameFieldsArg,
    includeCoverage: z.boolean().optional().describe("true adds coverage (what the master data holds)."),
  })
  .superRefine(orderedRanges([["releaseDateFrom", "releaseDateTo"]]))
  .refine((args) => IDENTIFYING_TERMS.some((term) => args[term] !== undefined), {
    path: ["query"],
    message: `give one of ${IDENTIFYING_TERMS.join(", ")}`,
  });

const hitSchema = gameSchema.extend({
  matchedBy: z.enum(["janCode", "modelNumber", "externalId", "gameId", "title", "titleEn", "alias"]),
  exact: z.boolean(),
  edition: z.boolean(),
});

/**
 * What the answer says beyond its items: how to narrow a long answer, or why nothing matched as
 * typed, with the closest platform word it can suggest (never a game presented as a result).
 */
function searchHint(
  args: { query?: string; janCode?: string; platformIds?: number[] },
  prepared: PreparedSearch,
  result: SearchResult,
): string | undefined {
  const query = args.query ?? "";
  if (result.withinOneEdit) return `No game matches '${query}' as typed; these differ from it by one character.`;
  if (result.totalCount > result.hits.length) {
    return `${result.totalCount} games match; narrow with platformIds or releaseDateFrom/releaseDateTo, or make the query more specific.`;
  }
  if (result.totalCount > 0) return undefined;
  if (args.janCode !== undefined) {
    const misread = janCode.safeParse(args.janCode.replace(/[\s-]/g, "")).error?.issues[0]?.message;
    if (misread) return `No game has the JAN code ${args.janCode}: it ${misread}, so it was misread or mistyped; read the barcode again.`;
    return `No game has the JAN code ${args.janCode} yet. Holding the box? Find the game by its title, then suggestGameIdentifier (kind janCode) adds it once reviewed.`;
  }
  if (args.query === undefined)
    return "No game has that identifier; a model number may also be given in part (hyphens and case are ignored).";
  const words = query
    .normalize("NFKC")
    .split(/\s+/)
    .filter((raw) => prepared.platformTerms.includes(searchForm(raw)))
    .map((raw) => `'${raw}'`)
    .join(", ");
  if (words && args.platformIds?.length) {
    return `No game matches '${query}': the platform word ${words} and platformIds name different platforms; drop one of them.`;
  }
  if (words) return `No game matches '${query}' on the platforms ${words} names; try the query without the platform word.`;
  const suggestion = searchTerms(query).map(closestPlatformWord).find(Boolean);
  if (suggestion) return `No game matches '${query}'; did you mean the platform word '${suggestion}'?`;
  return `No game matches '${query}'. Check the spelling, or try the hiragana reading, an English title or fewer terms.`;
}

/** What a search reads in one batch: its hits, then what the coverage needs. */
const searchReads = (prepared: PreparedSearch, userId: string) => [prepared.query, ...coverageQueries(userId)];

export const searchGames = defineTool({
  name: "searchGames",
  family: "games",
  title: "ゲーム検索",
  description:
    "Finds a gameId by title (kana or kanji), hiragana reading, English title, nickname, JAN barcode or model number; spelling variants are ignored (ドラゴンクエストIII = どらごんくえすと3). To list by platform or genre, use browseGames.",
  restNote: "In REST, externalId is accepted only in a POST JSON body.",
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: PAGING,
  input,
  output: z.object({
    items: z.array(hitSchema),
    ...pageEnvelopeFields,
    generation: z.string(),
    coverage: coverageSchema.optional().describe("Only when nothing was found, or with includeCoverage: what the master data holds."),
    platformCounts: z
      .array(z.object({ platformId: z.number().int(), name: z.string(), count: z.number().int() }))
      .optional()
      .describe("Only when hasMore: matches per platform, most first, up to 10."),
    hint: z
      .string()
      .optional()
      .describe(
        "When hasMore: how to narrow the search. When nothing matched as typed: why, and the closest platform word or spelling it can suggest (the items, if any, are then within one edit of the query, exact false).",
      ),
  }),
  notes: [
    "One of query, janCode, modelNumber or externalId is required; several terms must all match.",
    "One page of the best matches (no page argument): when hasMore, narrow with platformIds, the release dates or a platform word beside other terms (SFC, メガドラ).",
    "exact is true when the whole query equals the matched title or alias; near spellings (within one character) match only when nothing matches as typed, with a hint.",
  ],
  firstReads(args, { userId, pageLimit }) {
    if (userId === undefined) return undefined;
    const prepared = buildWithoutLookups(searchPlan(userId, args, pageLimit(args.limit).effectiveLimit));
    return prepared && searchReads(prepared, userId);
  },
  async handler({ db, read, auth, pageLimit, env }, args) {
    const limit = pageLimit(args.limit);
    const groups = groupsOf(args.fields, DEFAULT_GAME_FIELDS);
    const prepared = await prepareSearch(db, auth.userId, args, limit.effectiveLimit);
    const [asTyped, ...coverageRows] = await read<[HitRow[], ...CoverageRows]>(searchReads(prepared, auth.userId));
    const page = asTyped.length === 0 && prepared.fallback ? await db.all<HitRow>(prepared.fallback) : asTyped;
    const result = readSearch(prepared, page);
    const { generation, coverage } = await coverageFrom(db, coverageRows, env.MASTER_DATA_CREDIT);
    const hasMore = result.totalCount > result.hits.length;
    const hint = searchHint(args, prepared, result);
    return {
      items: result.hits.map((hit) => ({
        ...toGame(hit.record, groups),
        matchedBy: hit.matchedBy,
        exact: hit.exact,
        edition: hit.edition,
      })),
      page: 1,
      returnedCount: result.hits.length,
      totalCount: result.totalCount,
      hasMore,
      ...limit,
      generation,
      // The same for every search of the day: given where it explains an empty answer, or when asked.
      ...(result.totalCount === 0 || args.includeCoverage ? { coverage } : {}),
      ...(hasMore ? { platformCounts: result.platformCounts.slice(0, 10) } : {}),
      ...(hint === undefined ? {} : { hint }),
    };
  },
});
