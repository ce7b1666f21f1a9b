import { confirmTokenArg } from "../platform/confirm";
import { attributeSetArg, sharedFilterArgs } from "../platform/filters";
import { pageArg } from "../platform/paging";
import { RECORDED_DATE_RULE } from "../platform/schemas";
import { SYSTEM_ATTRIBUTES } from "../platform/systemAttributes";

/**
 * The rules of arguments many tools share, said once here (the MCP server's `instructions`)
 * instead of in every listed schema: the listing leaves these descriptions out of each argument.
 */
const SHARED_ARGUMENT_RULES = [
  "page counts from 1. Filters: platformIds matches any of its ids; attributes take ids or exact labels, all of which must be present (in a write, attributes replaces the whole set, [] clears);",
  "a main genreId matches the main or support genre, another genre through its taxonomy; title matches part of a title, its hiragana reading, a nickname or an edition's title (for English titles find the gameId with searchGames);",
  "buyPlace and wishPlace match a part, case-insensitive; From/To bounds are inclusive, and a release date bound leaves out games without a release date.",
  'buyDate and wishDate take full dates only: when only the month or year is known, leave the date out and note it in memo (e.g. "2023年5月頃").',
  "Texts and ids are capped (memo 2,000 characters, names 50 to 100, ids 40); an over-long one is refused naming the field.",
];

/** The argument descriptions SHARED_ARGUMENT_RULES gives, which the listed schemas leave out. */
const describedOnce = new Set(
  [
    pageArg,
    confirmTokenArg,
    sharedFilterArgs.platformIds,
    sharedFilterArgs.genreId,
    sharedFilterArgs.title,
    sharedFilterArgs.releaseDateTo,
    sharedFilterArgs.attributes,
    attributeSetArg,
    sharedFilterArgs.buyPlace,
  ].map((schema) => schema.description),
);

/** Whether an argument's description only repeats a rule the instructions give. */
export const isDescribedOnce = (description: string) => describedOnce.has(description) || description.endsWith(RECORDED_DATE_RULE);

/** What the server tells a client on initialize (its `instructions`), for the model's context. */
export const MCP_INSTRUCTIONS = [
  "Tools for one collector's retro game library: the library, wishlist, physical copies, play records and logs,",
  "consoles and their maintenance logs, tags, collections and attributes, on top of a catalog of Japanese retro games.",
  "Look ids up before you use them: searchGames finds a gameId by title, kana reading, nickname, JAN barcode or model number",
  "(browseGames by platform and genre); listPlatforms, listGenres and listPublishers give the other ids; getGamesBatch reads many games at once.",
  "getAccount tells the plan (FREE, LIGHT or PREMIUM), today's calls against the daily quota and when it resets, and the counts against the plan's limits.",
  "Every tool call counts against the daily quota, and calls come at most so fast (a burst limit per 10 seconds):",
  "a result with code rate_limited says when to retry (retryAfterSec); plan_required names what the plan does not allow.",
  "Removals and FREE/LIGHT replays are two-step: the first call changes nothing and answers a summary and a confirmToken;",
  "show the summary to the user and call again with the same arguments and the token (valid 10 minutes) only after they agree.",
  "Where the client shows forms (revision 2026-07-28 with elicitation), the person is asked the summary directly and no token is given.",
  "A result with isError carries the REST error body (code, message, field, retryAfterSec, requestId): fix the named field rather than retrying as is.",
  "Unknown arguments are refused. Dates are YYYY-MM-DD. List tools answer a page: items plus page, returnedCount, totalCount, hasMore,",
  "effectiveLimit, limitReduced and limitReason; ask for the next page while hasMore, keeping the other arguments.",
  ...SHARED_ARGUMENT_RULES,
  `Attributes every user has: ${SYSTEM_ATTRIBUTES.map(({ id, label }) => `${id} (${label})`).join(", ")}; listAttributes adds the user's own.`,
  "The tools listed are those this key can call (its plan and scopes).",
].join(" ");
