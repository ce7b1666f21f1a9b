import { z } from "zod";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { REVISION_NOTE, UPDATE_NOTE } from "../../platform/schemas";
import { lazyToday } from "../../platform/timeZones";
import { givenFields } from "../../platform/updates";
import { defineTool } from "../../registry/defineTool";
import { playFieldArgs, playRecordSchema } from "./items";
import { findPlay, renderPlay } from "./listQueries";
import { checkedReferences, playRevisionConflict, playValuesOf, updatePlay, withStatusDates } from "./queries";

export const updatePlayRecord = defineTool({
  name: "updatePlayRecord",
  family: "play",
  title: "プレイ記録更新",
  description:
    "Changes a play record; moving to PLAYING without a start date starts it today, to COMPLETED or DROPPED without an end date ends it today.",
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
      revision: z.string().min(1),
    })
    .partial()
    .required({ playId: true }),
  output: z.object({ item: playRecordSchema }),
  planDifferences: { FREE: { removedProperties: ["consoleId"] } },
  conflicts: ["revision_conflict"],
  notes: [UPDATE_NOTE, REVISION_NOTE],
  async handler({ db, auth, now }, { playId, revision, attributes, ...changes }) {
    const current = await findPlay(db, auth.userId, playId);
    if (!current) throw notFound(`Your play record ${playId}`);
    if (revision !== undefined && revision !== current.revision) throw playRevisionConflict();
    const { attributeIds, conditions } = await checkedReferences(db, auth.userId, { consoleId: changes.consoleId, attributes });
    const values = await withStatusDates(
      { ...playValuesOf(current), ...givenFields(changes), ...(attributeIds ? { attributeIds } : {}) },
      current.status,
      lazyToday(db, auth.userId, now),
    );
    await updatePlay(db, { userId: auth.userId, playId, expected: current.revision }, values, now.toISOString(), conditions);
    return { item: await renderPlay(db, auth.userId, playId) };
  },
});
