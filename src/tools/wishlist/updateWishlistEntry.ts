import { z } from "zod";
import { ApiError, notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { positiveId, REVISION_NOTE, UPDATE_NOTE } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { wishlistWriteResult } from "./addToWishlist";
import { toWishlistItem, WISHLIST_FIELD_GROUPS, wishFieldArgs } from "./items";
import { findWish, updateWish, wishValuesOf } from "./queries";

const conflict = () =>
  new ApiError("revision_conflict", "The wishlist entry changed since that revision; read it again and resend.", { field: "revision" });

export const updateWishlistEntry = defineTool({
  name: "updateWishlistEntry",
  family: "wishlist",
  title: "ほしいもの更新",
  description: "Changes a wishlist entry.",
  restNote: "In REST, POST /rest/v1/updateWishlistEntry with gameId and the fields to change.",
  scopes: ["library:write"],
  plans: ALL_PLANS,
  kind: "write",
  // Idempotent: values equal to the stored ones keep updatedAt and the revision (writes.ts touchIfChanged).
  idempotent: true,
  input: z
    .strictObject({ gameId: positiveId, ...wishFieldArgs, revision: z.string().min(1) })
    .partial()
    .required({ gameId: true }),
  output: wishlistWriteResult,
  conflicts: ["revision_conflict"],
  notes: [UPDATE_NOTE, REVISION_NOTE],
  async handler({ db, auth, now }, { gameId, revision, ...changes }) {
    const current = await findWish(db, auth.userId, gameId);
    if (!current) throw notFound(`Game ${gameId} on your wishlist`);
    if (revision !== undefined && revision !== current.revision) throw conflict();
    const values = { ...wishValuesOf(current), ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    const gone = () => notFound(`Game ${gameId} on your wishlist`);
    if (!(await updateWish(db, auth.userId, gameId, values, current.revision, now.toISOString()))) {
      throw (await findWish(db, auth.userId, gameId)) ? conflict() : gone();
    }
    const row = readBack(await findWish(db, auth.userId, gameId), gone);
    return { item: toWishlistItem(row, new Set(WISHLIST_FIELD_GROUPS)), revision: row.revision };
  },
});
