import type { Bindings } from "../bindings";
import { ApiError } from "./errors";

/**
 * Reads from D1's replicas (Sessions API). Every call runs in a session of its own: writes still go
 * to the primary, and every read after one sees it; reads may be served by the nearest replica
 * once read replication is on. Master data (the tools whose only scope is games:read, and master
 * exports) may come from any replica ("first-unconstrained"): it changes only with an operator's
 * import. A user's own data starts from the primary ("first-primary"), or from the bookmark the
 * client handed back from its last answer, so the caller always reads at least what it wrote.
 */

/** The header a client sends back (and every answer carries): the D1 bookmark of its last call. */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** D1 bookmarks as D1 writes them: four hex groups. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The client's bookmark, if it sent one; a malformed one is a 400 naming the header. */
export function readBookmark(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!BOOKMARK.test(header)) {
    throw new ApiError("invalid_input", `${BOOKMARK_HEADER}: send back the value of the header of an earlier answer, as it was.`, {
      field: BOOKMARK_HEADER,
    });
  }
  return header;
}

/** Where a call's session starts: any replica for master data, else the client's bookmark or the primary. */
export const sessionStartOf = (readsMasterOnly: boolean, bookmark: string | undefined): string =>
  readsMasterOnly ? "first-unconstrained" : (bookmark ?? "first-primary");

/** The D1 session of one call. */
export const readSession = (env: Pick<Bindings, "DB">, readsMasterOnly: boolean, bookmark: string | undefined): D1DatabaseSession =>
  env.DB.withSession(sessionStartOf(readsMasterOnly, bookmark));
