import { z } from "zod";
import { notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { UPDATE_NOTE } from "../../platform/schemas";
import { givenFields } from "../../platform/updates";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { attributeLabels, attributesKept, resolveAttributeIds } from "../attributes/queries";
import { findEntry } from "../library/queries";
import { copyFieldArgs, copyValuesOf, copyWriteResult, toPhysicalCopy } from "./items";
import { findCopy, listCopies, revisionConflict, setActiveSql, updateCopySql, writeCopies } from "./queries";

export const updatePhysicalCopy = defineTool({
  name: "updatePhysicalCopy",
  family: "physicalCopies",
  title: "所持品更新",
  description:
    "Changes one physical copy; changing the representative one (or making this one so with makeActive) overwrites the library entry's purchase data, rating, memo and attributes: tell the user.",
  restNote: "In REST, POST /rest/v1/updatePhysicalCopy with physicalId, the fields to change and the whole game's revision.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  idempotent: true,
  input: z
    .strictObject({
      physicalId: z.string().min(1).max(40),
      ...copyFieldArgs,
      revision: z.string().min(1).describe("The whole game's revision (getPhysicalCopies)."),
    })
    .partial()
    .required({ physicalId: true, revision: true }),
  output: z.object(copyWriteResult),
  conflicts: ["revision_conflict"],
  notes: [UPDATE_NOTE],
  async handler({ db, auth, now }, { physicalId, revision, makeActive, attributes, editionRef: _base, ...given }) {
    const copy = await findCopy(db, auth.userId, physicalId);
    if (!copy) throw notFound(`Your copy ${physicalId}`);
    const gone = () => notFound(`Your copy ${physicalId}`);
    const entry = readBack(await findEntry(db, auth.userId, copy.gameId), gone);
    if (revision !== entry.revision) throw revisionConflict();
    const attributeIds = attributes === undefined ? undefined : await resolveAttributeIds(db, auth.userId, attributes, "attributes");
    const values = { ...copyValuesOf(copy), ...givenFields(given), ...(attributeIds ? { attributeIds } : {}) };
    const active = makeActive === true || copy.isActive;
    const nowIso = now.toISOString();
    const statements = [updateCopySql(auth.userId, physicalId, values, nowIso)];
    if (makeActive) statements.push(setActiveSql(auth.userId, copy.gameId, physicalId));
    const next = await writeCopies(
      db,
      { userId: auth.userId, gameId: copy.gameId, expectedRevision: revision },
      statements,
      { now: nowIso, sync: active ? values : undefined },
      attributesKept(auth.userId, attributeIds ?? [], "attributes"),
    );
    const copies = await listCopies(db, auth.userId, copy.gameId);
    const labels = await attributeLabels(db, auth.userId);
    return {
      item: toPhysicalCopy(
        readBack(
          copies.find((c) => c.id === physicalId),
          gone,
        ),
        labels,
      ),
      activePhysicalId: copies.find((c) => c.isActive)?.id ?? null,
      remainingCount: copies.length,
      libraryEntryRetained: true,
      librarySynced: active,
      revision: next,
    };
  },
});
