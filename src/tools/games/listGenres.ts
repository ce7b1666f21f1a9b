import { sql } from "drizzle-orm";
import { z } from "zod";
import { limitArg, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";

const CAP = 100;

const genre = { genreId: z.number().int(), name: z.string(), taxonomyKey: z.string() };
const descendant = z.object({ ...genre, parentId: z.number().int() });
/** Two levels in the schema (a recursive one breaks OpenAPI tools): deeper genres sit under their
 * main genre with parentId and taxonomyKey telling where they hang. */
const mainGenre = z.object({ ...genre, children: z.array(descendant).describe("Every genre beneath, in id order.") });
type MainGenre = z.infer<typeof mainGenre>;

export const listGenres = defineTool({
  name: "listGenres",
  family: "games",
  title: "ジャンル一覧",
  description:
    "Lists the genre tree: main (root) genres with their support genres beneath. A main genre's id filters by main or support genre; a support genre's id filters through its taxonomy key.",
  restNote: "In REST, call GET /rest/v1/listGenres; pages count main genres.",
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  input: z.strictObject({ page: pageArg, limit: limitArg(CAP, CAP) }),
  output: pagedEnvelope(mainGenre),
  async handler({ db }, args) {
    const limit = resolveLimit(args.limit, CAP, [{ cap: CAP, reason: `listGenres returns at most ${CAP} main genres per page` }]);
    const genres = await db.all<{ id: number; name: string; parent_id: number | null; taxonomy_key: string }>(
      sql`SELECT id, name, parent_id, taxonomy_key FROM genres ORDER BY id`,
    );
    const roots = new Map<string, MainGenre>();
    for (const g of genres.filter((g) => g.parent_id === null)) {
      roots.set(g.taxonomy_key, { genreId: g.id, name: g.name, taxonomyKey: g.taxonomy_key, children: [] });
    }
    for (const g of genres.filter((g) => g.parent_id !== null)) {
      const root = roots.get(g.taxonomy_key.split(".")[0]!);
      root?.children.push({ genreId: g.id, name: g.name, taxonomyKey: g.taxonomy_key, parentId: g.parent_id! });
    }
    const all = [...roots.values()];
    const offset = pageOffset(args.page, limit);
    return pageOf(all.slice(offset, offset + limit.effectiveLimit), args.page, all.length, limit);
  },
});
