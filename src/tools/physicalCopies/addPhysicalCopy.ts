import { z } from "zod";
import { ApiError } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { givenFields } from "../../platform/updates";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { attributeLabels, attributesKept, resolveAttributeIds } from "../attributes/queries";
import { entryValuesOf, findEntry, notInLibrary } from "../library/queries";
import { type CopyValues, copyFieldArgs, copyWriteResult, type NewCopy, newCopy, toPhysicalCopy } from "./items";
import { findCopy, insertCopySql, listCopies, revisionConflict, setActiveSql, writeCopies } from "./queries";

export const addPhysicalCopy = defineTool({
  name: "addPhysicalCopy",
  family: "physicalCopies",
  title: "所持品追加",
  description:
    "Records a physical copy of a game in your library: materialize records the copy already owned while none is (inheriting the entry's data; values sent overwrite the entry's), additional adds another. makeActive makes it the representative copy, overwriting the entry's purchase data, rating, memo and attributes: tell the user.",
  restNote: "In REST, POST /rest/v1/addPhysicalCopy; the revision comes from getPhysicalCopies or the previous copy write.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  // Destructive: materialize and makeActive overwrite the library entry. The required revision moves
  // with every copy write, so a repeat is 409 revision_conflict and changes nothing.
  idempotent: true,
  input: z
    .strictObject({
      gameId: positiveId,
      mode: z.enum(["materialize", "additional"]).describe("Never inferred from how many copies exist."),
      ...copyFieldArgs,
      revision: z.string().min(1).describe("The whole game's revision (getPhysicalCopies)."),
    })
    .partial()
    .required({ gameId: true, mode: true, revision: true }),
  output: z.object({ ...copyWriteResult, createdPhysicalIds: z.array(z.string()) }),
  conflicts: ["already_exists", "revision_conflict"],
  notes: ["materialize with copies recorded is 409 already_exists."],
  async handler({ db, auth, now }, { gameId, mode, revision, makeActive = false, attributes, editionRef: _base, ...given }) {
    const entry = await findEntry(db, auth.userId, gameId);
    if (!entry) throw notInLibrary(gameId);
    if (revision !== entry.revision) throw revisionConflict();
    const existing = await listCopies(db, auth.userId, gameId);
    if (mode === "materialize" && existing.length > 0) {
      throw new ApiError("already_exists", "Copies of this game are recorded already; add another with mode additional.", {
        field: "mode",
      });
    }
    const { userLinks: _links, ...inherited } = entryValuesOf(entry);
    const attributeIds = attributes === undefined ? undefined : await resolveAttributeIds(db, auth.userId, attributes, "attributes");
    const chosen: Partial<CopyValues> = { ...givenFields(given), ...(attributeIds ? { attributeIds } : {}) };
    const created: NewCopy[] = [];
    // A materialized copy is representative: values sent that differ from the entry's go into it too.
    let materializedSync = false;
    if (mode === "materialize") {
      const copy = newCopy({ quantity: 1, ...inherited, ...chosen }, true);
      materializedSync = (Object.keys(inherited) as (keyof typeof inherited)[]).some(
        (key) => JSON.stringify(copy[key]) !== JSON.stringify(inherited[key]),
      );
      created.push(copy);
    } else {
      const blank = { rating: null, buyDate: null, buyPrice: null, buyPlace: null, memo: null, attributeIds: [] };
      if (existing.length === 0) created.push(newCopy({ quantity: 1, ...inherited }, !makeActive));
      created.push(newCopy({ quantity: 1, ...blank, ...chosen }, makeActive));
    }
    const copy = created.at(-1)!;
    const nowIso = now.toISOString();
    const statements = created.map((c) => insertCopySql(auth.userId, gameId, c, nowIso));
    if (makeActive && existing.length > 0) statements.push(setActiveSql(auth.userId, gameId, copy.id));
    const next = await writeCopies(
      db,
      { userId: auth.userId, gameId, expectedRevision: revision },
      statements,
      { now: nowIso, sync: makeActive || materializedSync ? copy : undefined },
      attributesKept(auth.userId, attributeIds ?? [], "attributes"),
    );
    const activePhysicalId = makeActive ? copy.id : (existing.find((c) => c.isActive)?.id ?? created.find((c) => c.isActive)?.id ?? null);
    return {
      item: toPhysicalCopy(
        readBack(await findCopy(db, auth.userId, copy.id), () => notInLibrary(gameId)),
        await attributeLabels(db, auth.userId),
      ),
      createdPhysicalIds: created.map((c) => c.id),
      activePhysicalId,
      remainingCount: existing.length + created.length,
      libraryEntryRetained: true,
      librarySynced: makeActive || materializedSync,
      revision: next,
    };
  },
});
