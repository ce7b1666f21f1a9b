import { z } from "zod";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { positiveId, REVISION_NOTE, UPDATE_NOTE } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { attributeLabels, resolveAttributeIds } from "../attributes/queries";
import { libraryWriteResult } from "./addToLibrary";
import { entryFieldArgs, toLibraryItem, WRITE_RESULT_FIELDS } from "./items";
import { entryValuesOf, findEntry, revisionConflict, updateEntry } from "./queries";

export const updateLibraryEntry = defineTool({
  name: "updateLibraryEntry",
  family: "library",
  title: "ライブラリ更新",
  description: "Changes a library entry.",
  restNote: "In REST, POST /rest/v1/updateLibraryEntry with gameId and the fields to change.",
  scopes: ["library:write"],
  plans: ALL_PLANS,
  kind: "write",
  idempotent: true,
  input: z
    .strictObject({ gameId: positiveId, ...entryFieldArgs, revision: z.string().min(1) })
    .partial()
    .required({ gameId: true }),
  output: libraryWriteResult,
  conflicts: ["revision_conflict"],
  notes: [UPDATE_NOTE, REVISION_NOTE],
  async handler({ db, auth, now }, { gameId, revision, attributes, ...changes }) {
    const current = await findEntry(db, auth.userId, gameId);
    if (!current) throw notFound(`Game ${gameId} in your library`);
    if (revision !== undefined && revision !== current.revision) throw revisionConflict();
    const values = {
      ...entryValuesOf(current),
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      ...(attributes !== undefined ? { attributeIds: await resolveAttributeIds(db, auth.userId, attributes, "attributes") } : {}),
    };
    // The write itself re-checks the revision, so two updates racing cannot both win; an entry
    // removed meanwhile is a 404, as it would have been a moment later.
    await updateEntry(db, auth.userId, gameId, values, current.revision, now.toISOString());
    const row = readBack(await findEntry(db, auth.userId, gameId), () => notFound(`Game ${gameId} in your library`));
    return { item: toLibraryItem(row, new Set(WRITE_RESULT_FIELDS), await attributeLabels(db, auth.userId)), revision: row.revision };
  },
});
