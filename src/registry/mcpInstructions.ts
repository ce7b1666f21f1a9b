import { confirmTokenArg, TWO_STEP_NOTE } from "../platform/confirm";
import { attributeSetArg, sharedFilterArgs } from "../platform/filters";
import { pageArg } from "../platform/paging";
import { CUSTOM_ID_NOTE, PRICE_DESCRIPTION, RECORDED_DATE_RULE, REVISION_NOTE, SORT_NOTE, UPDATE_NOTE } from "../platform/schemas";
import { SYSTEM_ATTRIBUTES } from "../platform/systemAttributes";

/**
 * The rules of arguments many tools share, said once here (the MCP server's `instructions`)
 * instead of in every listed schema: the listing leaves these descriptions out of each argument.
 */
const SHARED_ARGUMENT_RULES = [
  "page counts from 1; sortOrder is asc or desc; ratings, priorities and their bounds run 1 to 5; prices are JPY. Filters: platformIds (up to 10) matches any of its ids; attributes take up to 5 ids or exact labels, all of which must be present (in a write, up to 20, replacing the whole set, [] clears);",
  "a main genreId matches the main or support genre, another genre through its taxonomy; title (up to 30 characters) matches part of a title, reading, nickname or edition title (English titles: use searchGames);",
  "buyPlace and wishPlace (up to 30 characters) match a part, case-insensitive; From/To bounds are inclusive, and a release date bound leaves out games without a release date. Empty values sort last in either order.",
  'buyDate and wishDate take full dates only: when only the month or year is known, leave the date out and note it in memo (e.g. "2023年5月頃").',
  "Updates: an omitted field is kept, null clears one that may be empty; send the revision you last read and a change since is 409 revision_conflict (nothing changed).",
  "Texts are capped (memo 2,000 characters, names 50 to 100); an over-long one is refused naming the field.",
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
  ]
    .map((schema) => schema.description)
    .concat(PRICE_DESCRIPTION),
);

/** The catalog notes the instructions give (the two-step rule, the update rules), which listed descriptions leave out. */
const notesSaidOnce = new Set([TWO_STEP_NOTE, UPDATE_NOTE, REVISION_NOTE, SORT_NOTE, CUSTOM_ID_NOTE]);

export const isNoteSaidOnce = (note: string) => notesSaidOnce.has(note);

/** Whether an argument's description only repeats a rule the instructions give. */
export const isDescribedOnce = (description: string) => describedOnce.has(description) || description.endsWith(RECORDED_DATE_RULE);

/** What the server tells a client on initialize (its `instructions`), for the model's context. */
export const MCP_INSTRUCTIONS = [
  "Tools for one collector's library of Japanese retro games.",
  "Look ids up first: searchGames finds a gameId; listPlatforms, listGenres and listPublishers give the other ids.",
  "getAccount tells the plan (FREE, LIGHT or PREMIUM), its limits and today's quota use;",
  '"today" in default dates and overdue filters is the day in the account\'s time zone (getAccount timeZone). Custom games, platforms and publishers have ids from 1,000,000,000.',
  "Every tool call counts against the daily quota and a burst limit per 10 seconds: rate_limited says when to retry (retryAfterSec); plan_required names what the plan lacks.",
  "Removals and FREE/LIGHT replays are two-step: the first call changes nothing and answers a summary and a confirmToken;",
  "show the summary to the user and call again with the same arguments and the token (valid 10 minutes) only after they agree.",
  "Clients with forms (elicitation) ask the person instead, without a token.",
  "An isError result carries the error body (code, message, field, ...): fix the named field rather than retrying as is.",
  "Unknown arguments are refused. Dates are YYYY-MM-DD. List tools answer a page: items plus page, returnedCount, totalCount, hasMore,",
  "effectiveLimit, limitReduced and limitReason (a limit above the tool's cap is reduced); ask for the next page while hasMore, keeping the other arguments.",
  ...SHARED_ARGUMENT_RULES,
  `Attributes every user has: ${SYSTEM_ATTRIBUTES.map(({ id, label }) => `${id} (${label})`).join(", ")}; listAttributes adds the user's own.`,
  "The tools listed are those this key can call (its plan and scopes).",
  "Files are REST only: a CSV or JSON export (POST /rest/v1/exportMyData answers a download link) and imports are not MCP tools, so point the person there.",
].join(" ");
