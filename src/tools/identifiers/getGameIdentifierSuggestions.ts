import { z } from "zod";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { suggestionSchema, toSuggestion } from "./items";
import { ownSuggestionPage } from "./queries";

const PAGING: Paging = { cap: 100, defaultLimit: 20 };

export const getGameIdentifierSuggestions = defineTool({
  name: "getGameIdentifierSuggestions",
  family: "identifiers",
  title: "識別子の提案一覧",
  description: "Your suggestGameIdentifier suggestions, newest first, with their status.",
  restNote: "In REST, call GET /rest/v1/getGameIdentifierSuggestions.",
  scopes: ["library:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ ...pageArgs(PAGING) }),
  output: pagedEnvelope(suggestionSchema),
  async handler({ db, auth, pageLimit }, args) {
    const limit = pageLimit(args.limit);
    const { rows, totalCount } = await ownSuggestionPage(db, auth.userId, pageWindow(args.page, limit));
    return pageOf(rows.map(toSuggestion), args.page, totalCount, limit);
  },
});
