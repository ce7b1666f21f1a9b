import { z } from "zod";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageOffset } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { everyGenreQuery, type GenreListRow } from "./queries";

const PAGING: Paging = { cap: 100, defaultLimit: 100, capReason: "listGenres returns at most 100 main genres per page" };

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
  description: "Lists the genre tree: main (root) genres with their support genres beneath.",
  restNote: "In REST, call GET /rest/v1/listGenres; pages count main genres.",
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ ...pageArgs(PAGING) }),
  output: pagedEnvelope(mainGenre),
  firstReads: () => [everyGenreQuery()],
  async handler({ read, pageLimit }, args) {
    const limit = pageLimit(args.limit);
    const [genres] = await read<[GenreListRow[]]>([everyGenreQuery()]);
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
