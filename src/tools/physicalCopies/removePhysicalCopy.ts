import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, TWO_STEP_NOTE, twoStepResult } from "../../platform/confirm";
import { notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { findEntry } from "../library/queries";
import { deleteCopySql, findCopy, listCopies, setActiveSql, writeCopies } from "./queries";

export const removePhysicalCopy = defineTool({
  name: "removePhysicalCopy",
  family: "physicalCopies",
  title: "所持品削除",
  description:
    "Removes one physical copy (two-step); the library entry stays, and if this copy was the representative one the oldest remaining one becomes it.",
  restNote: 'In REST, POST /rest/v1/removePhysicalCopy with {"physicalId": ...}, then again with confirmToken; it takes no revision.',
  scopes: ["library:delete"],
  plans: PREMIUM_ONLY,
  kind: "delete",
  input: z.strictObject({ physicalId: z.string().min(1).max(40), confirmToken: confirmTokenArg }),
  output: twoStepResult(
    z.object({
      physicalId: z.string(),
      removed: z.literal(true),
      remainingCount: z.number().int(),
      activePhysicalId: z.string().nullable(),
      libraryEntryRetained: z.literal(true),
      revision: z.string(),
    }),
  ),
  notes: [TWO_STEP_NOTE],
  async handler(ctx, args) {
    const { db, auth, now } = ctx;
    const copy = await findCopy(db, auth.userId, args.physicalId);
    if (!copy) throw notFound(`Your copy ${args.physicalId}`);
    const entry = readBack(await findEntry(db, auth.userId, copy.gameId), () => notFound(`Your copy ${args.physicalId}`));
    const remaining = (await listCopies(db, auth.userId, copy.gameId)).filter((c) => c.id !== copy.id);
    // The representative role passes to the oldest remaining copy; the library keeps its data.
    const heir = copy.isActive ? (remaining[0]?.id ?? null) : (remaining.find((c) => c.isActive)?.id ?? null);
    return confirmTwoStep(ctx, args, {
      targetRevision: entry.revision,
      summary:
        `Removes one copy of '${entry.title}' (${remaining.length} left; the library entry stays)` +
        (copy.isActive && heir ? "; the oldest remaining copy becomes representative (the library entry keeps its data)." : "."),
      async execute(marker) {
        const statements = [
          marker,
          deleteCopySql(auth.userId, copy.id),
          ...(copy.isActive ? [setActiveSql(auth.userId, copy.gameId, heir)] : []),
        ];
        const revision = await writeCopies(db, { userId: auth.userId, gameId: copy.gameId, expectedRevision: entry.revision }, statements, {
          now: now.toISOString(),
        });
        return {
          physicalId: copy.id,
          removed: true as const,
          remainingCount: remaining.length,
          activePhysicalId: heir,
          libraryEntryRetained: true as const,
          revision,
        };
      },
    });
  },
});
