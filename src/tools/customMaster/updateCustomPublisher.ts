import { z } from "zod";
import { PREMIUM_ONLY } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { PUBLISHER, updateCustom } from "./queries";
import { companyIdArg, customPublisherFields, customPublisherResult } from "./shared";

export const updateCustomPublisher = defineTool({
  name: "updateCustomPublisher",
  family: "customMaster",
  title: "カスタムメーカー更新",
  description:
    "Changes one of your custom publishers. An omitted field is kept; null clears a field that may be empty. Send the revision you last read to be told (409 revision_conflict) when it changed since.",
  restNote: "In REST, POST /rest/v1/updateCustomPublisher with companyId and the fields to change.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  idempotent: true,
  input: z
    .strictObject({
      companyId: companyIdArg,
      ...customPublisherFields,
      revision: z.string().min(1).describe("From addCustomPublisher or the last update; optional."),
    })
    .partial()
    .required({ companyId: true }),
  output: customPublisherResult,
  conflicts: ["already_exists", "revision_conflict"],
  notes: ["Official publishers and other users' custom publishers are 404 not_found."],
  async handler({ db, auth }, { companyId, revision, ...changes }) {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const stored = await updateCustom(db, PUBLISHER, auth.userId, companyId, defined, revision);
    return { item: { companyId, ...stored.fields, custom: true as const }, revision: stored.revision };
  },
});
