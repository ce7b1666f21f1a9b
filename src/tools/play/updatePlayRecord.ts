import { z } from "zod";
import { ApiError, notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { resolveAttributeIds } from "../attributes/queries";
import { findConsole } from "../consoles/queries";
import { playFieldArgs, playRecordSchema } from "./items";
import { consoleNotFound, findPlay, playValuesOf, renderPlay, updatePlay, withStatusDates } from "./queries";

const conflict = () =>
  new ApiError("revision_conflict", "The play record changed since that revision; read it again and resend.", { field: "revision" });

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
    if (revision !== undefined && revision !== current.revision) throw conflict();
    if (changes.consoleId && !(await findConsole(db, auth.userId, changes.consoleId))) throw consoleNotFound(changes.consoleId);
    const values = withStatusDates(
      {
        ...playValuesOf(current),
        ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
        ...(attributes !== undefined ? { attributeIds: await resolveAttributeIds(db, auth.userId, attributes, "attributes") } : {}),
      },
      current.status,
      now,
    );
    if (!(await updatePlay(db, auth.userId, playId, values, current.revision, now.toISOString()))) {
      // Changed meanwhile (409), or removed with its game (404, as a moment later).
      throw (await findPlay(db, auth.userId, playId)) ? conflict() : notFound(`Your play record ${playId}`);
    }
    return { item: await renderPlay(db, auth.userId, playId) };
  },
});
