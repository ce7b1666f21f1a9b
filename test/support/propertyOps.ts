// What the property tests (integrity, collection summaries) share: choosing targets from the
// numbers fast-check draws, two-step removals, and the collection operations both run.
import type { Player } from "./harness";

/** The n-th of a list, wrapping around; undefined for an empty list. */
export const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
/** The members of a list whose bit is set in n. */
export const some = <T>(list: readonly T[], n: number) => list.filter((_, i) => (n >> i) & 1);

/** A two-step removal: the preview, then its confirmation (a changed target previews again: also fine). */
export async function removeConfirmed(p: Player, tool: string, args: Record<string, unknown>) {
  const preview = await p.call(tool, args);
  if (preview.body?.confirmToken === undefined) return preview;
  return p.call(tool, { ...args, confirmToken: preview.body.confirmToken });
}

interface CollectionTargets {
  games: readonly number[];
  collections: readonly { id: string; revision: string; type: string }[];
}

/** updateCollection on the a-th collection: up to `most` games chosen by b (its excluded games unless INDIVIDUAL). */
export function updateSomeCollection(p: Player, t: CollectionTargets, a: number, b: number, most: number) {
  const collection = pick(t.collections, a);
  if (!collection) return p.call("getCollections", {});
  const list = collection.type === "INDIVIDUAL" ? "gameIds" : "excludeGameIds";
  return p.call("updateCollection", {
    collectionId: collection.id,
    [list]: some(t.games, b).slice(0, most),
    revision: collection.revision,
  });
}

/** removeCollection of the a-th collection (of a missing one when there is none). */
export const removeSomeCollection = (p: Player, t: CollectionTargets, a: number) =>
  removeConfirmed(p, "removeCollection", { collectionId: pick(t.collections, a)?.id ?? "col_none" });
