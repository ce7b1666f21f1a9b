import { z } from "zod";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { attributeLabels, resolveAttributeIds } from "../attributes/queries";
import { loadGameRecords } from "../games/queries";
import { deleteWishSql } from "../wishlist/queries";
import { entryFieldArgs, libraryEntrySchema, toLibraryItem, WRITE_RESULT_FIELDS } from "./items";
import { findEntry, insertEntry } from "./queries";

export const libraryWriteResult = z.object({ item: libraryEntrySchema, revision: z.string() });

export const addToLibrary = defineTool({
  name: "addToLibrary",
  family: "library",
  title: "ライブラリ追加",
  description:
    "Adds a game you own (official or your custom one) to your library with its purchase data, rating, memo, links and attributes; it leaves the wishlist. Already there: 409, use updateLibraryEntry.",
  restNote: 'In REST, POST /rest/v1/addToLibrary with {"gameId": ...}.',
  scopes: ["library:write"],
  plans: ALL_PLANS,
  kind: "write",
  // Destructive: the game leaves the wishlist. A repeat is 409 already_exists and changes nothing.
  idempotent: true,
  nullIsOmission: true,
  input: z
    .strictObject({ gameId: positiveId, ...entryFieldArgs })
    .partial()
    .required({ gameId: true }),
  output: libraryWriteResult.extend({ removedFromWishlist: z.boolean().describe("True when the game was on your wishlist and left it.") }),
  conflicts: ["already_exists"],
  notes: ["The plan caps how many games a library holds (getAccount)."],
  async handler({ db, auth, now, upgradeUrl }, args) {
    if (!(await loadGameRecords(db, auth.userId, [args.gameId])).has(args.gameId)) throw notFound(`Game ${args.gameId}`);
    await insertEntry(
      db,
      { ...auth, upgradeUrl },
      args.gameId,
      {
        rating: args.rating ?? null,
        buyDate: args.buyDate ?? null,
        buyPrice: args.buyPrice ?? null,
        buyPlace: args.buyPlace ?? null,
        memo: args.memo ?? null,
        userLinks: args.userLinks ?? [],
        attributeIds: await resolveAttributeIds(db, auth.userId, args.attributes ?? [], "attributes"),
      },
      now.toISOString(),
    );
    const leftWishlist = await db.run(deleteWishSql(auth.userId, args.gameId));
    const row = readBack(await findEntry(db, auth.userId, args.gameId), () => notFound(`Game ${args.gameId} in your library`));
    const item = toLibraryItem(row, new Set(WRITE_RESULT_FIELDS), await attributeLabels(db, auth.userId));
    return { item, revision: row.revision, removedFromWishlist: leftWishlist.meta.changes > 0 };
  },
});
