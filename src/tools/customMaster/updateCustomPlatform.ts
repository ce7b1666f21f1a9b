import { z } from "zod";
import { PREMIUM_ONLY } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { PLATFORM, updateCustom } from "./queries";
import { customPlatformFields, customPlatformResult, platformIdArg } from "./shared";

export const updateCustomPlatform = defineTool({
  name: "updateCustomPlatform",
  family: "customMaster",
  title: "カスタム機種更新",
  description:
    "Changes one of your custom platforms. An omitted field is kept; null clears a field that may be empty. Send the revision you last read to be told (409 revision_conflict) when it changed since.",
  restNote: "In REST, POST /rest/v1/updateCustomPlatform with platformId and the fields to change.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  idempotent: true,
  input: z
    .strictObject({
      platformId: platformIdArg,
      ...customPlatformFields,
      revision: z.string().min(1).describe("From addCustomPlatform or the last update; optional."),
    })
    .partial()
    .required({ platformId: true }),
  output: customPlatformResult,
  conflicts: ["already_exists", "revision_conflict"],
  notes: ["Official platforms and other users' custom platforms are 404 not_found."],
  async handler({ db, auth }, { platformId, revision, ...changes }) {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const stored = await updateCustom(db, PLATFORM, auth.userId, platformId, defined, revision);
    return { item: { platformId, ...stored.fields, custom: true as const }, revision: stored.revision };
  },
});
