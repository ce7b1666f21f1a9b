import { z } from "zod";
import { notFound } from "../../platform/errors";
import { type Paging, pageArgs, pageEnvelopeFields, pageOf, pageOffset } from "../../platform/paging";
import { PREMIUM_ONLY } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { attributeLabels } from "../attributes/queries";
import { findEntry } from "../library/queries";
import { physicalCopySchema, toPhysicalCopy } from "./items";
import { listCopies } from "./queries";

const PAGING: Paging = { cap: 100, defaultLimit: 100 };

export const getPhysicalCopies = defineTool({
  name: "getPhysicalCopies",
  family: "physicalCopies",
  title: "所持品一覧",
  description:
    "Lists your physical copies of one game, oldest first, the representative (active) one marked, with the revision addPhysicalCopy and updatePhysicalCopy need (valid with no copies too).",
  restNote: "In REST, GET /rest/v1/getPhysicalCopies?gameId=...",
  scopes: ["library:read"],
  plans: PREMIUM_ONLY,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ gameId: positiveId, ...pageArgs(PAGING) }),
  output: z.object({
    gameId: z.number().int(),
    items: z.array(physicalCopySchema),
    ...pageEnvelopeFields,
    activePhysicalId: z.string().nullable(),
    revision: z.string().describe("The whole game's revision: send it to addPhysicalCopy and updatePhysicalCopy."),
  }),
  async handler({ db, auth, pageLimit }, args) {
    const entry = await findEntry(db, auth.userId, args.gameId);
    if (!entry) throw notFound(`Game ${args.gameId} in your library`);
    const [copies, labels] = await Promise.all([listCopies(db, auth.userId, args.gameId), attributeLabels(db, auth.userId)]);
    const limit = pageLimit(args.limit);
    const offset = pageOffset(args.page, limit);
    const page = copies.slice(offset, offset + limit.effectiveLimit).map((copy) => toPhysicalCopy(copy, labels));
    return {
      gameId: args.gameId,
      ...pageOf(page, args.page, copies.length, limit),
      activePhysicalId: copies.find((copy) => copy.isActive)?.id ?? null,
      revision: entry.revision,
    };
  },
});
