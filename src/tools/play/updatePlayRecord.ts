import { z } from "zod";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { givenFields } from "../../platform/updates";
import { defineTool } from "../../registry/defineTool";
import { attributesKept, resolveAttributeIds } from "../attributes/queries";
import { consoleKept, findConsole } from "../consoles/queries";
import { playFieldArgs, playRecordSchema } from "./items";
import { findPlay, renderPlay } from "./listQueries";
import { consoleNotFound, playRevisionConflict, playValuesOf, updatePlay, withStatusDates } from "./queries";

export const updatePlayRecord = defineTool({
  name: "updatePlayRecord",
  family: "play",
  title: "プレイ記録更新",
  description:
    "Changes a play record: status, dates, clear target, rating, memo, links, attributes, console. An omitted field is kept, null clears it. Moving to PLAYING starts it today if it has no start date; moving to COMPLETED or DROPPED ends it today if it has no end date.",
  restNote: "In REST, POST /rest/v1/updatePlayRecord with playId and the fields to change.",
  scopes: ["play:write"],
  plans: ALL_PLANS,
  kind: "write",
  // Idempotent: values equal to the stored ones keep updatedAt and the revision (writes.ts touchIfChanged).
  idempotent: true,
  input: z
    .strictObject({
      playId: z.string().min(1).max(40),
      ...playFieldArgs,
      revision: z.string().min(1).describe("From the record; optional."),
    })
    .partial()
    .required({ playId: true }),
  output: z.object({ item: playRecordSchema }),
  planDifferences: { FREE: { removedProperties: ["consoleId"] } },
  conflicts: ["revision_conflict"],
  async handler({ db, auth, now }, { playId, revision, attributes, ...changes }) {
    const current = await findPlay(db, auth.userId, playId);
    if (!current) throw notFound(`Your play record ${playId}`);
    if (revision !== undefined && revision !== current.revision) throw playRevisionConflict();
    const { consoleId } = changes;
    if (consoleId && !(await findConsole(db, auth.userId, consoleId))) throw consoleNotFound(consoleId);
    const attributeIds = attributes === undefined ? undefined : await resolveAttributeIds(db, auth.userId, attributes, "attributes");
    const values = withStatusDates(
      { ...playValuesOf(current), ...givenFields(changes), ...(attributeIds ? { attributeIds } : {}) },
      current.status,
      now,
    );
    // What the call names is checked again in the batch that writes: a console or attribute removed meanwhile is never stored.
    await updatePlay(db, { userId: auth.userId, playId, expected: current.revision }, values, now.toISOString(), [
      ...(consoleId ? [consoleKept(auth.userId, consoleId, () => consoleNotFound(consoleId))] : []),
      ...attributesKept(auth.userId, attributeIds ?? [], "attributes"),
    ]);
    return { item: await renderPlay(db, auth.userId, playId) };
  },
});
