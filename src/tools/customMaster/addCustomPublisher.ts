import { z } from "zod";
import { PREMIUM_ONLY } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { PUBLISHER, insertCustom } from "./queries";
import { CUSTOM_ID_NOTE, customPublisherFields, customPublisherResult } from "./shared";

export const addCustomPublisher = defineTool({
  name: "addCustomPublisher",
  family: "customMaster",
  title: "カスタムメーカー追加",
  description:
    "Registers a publisher the master data lacks (a doujin circle, a small label) as your own custom publisher. Only you can see it; your custom games can use it as publisherId, and listPublishers shows it with custom: true.",
  restNote: "In REST, POST /rest/v1/addCustomPublisher; the new id is in item.companyId.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  input: z.strictObject(customPublisherFields).partial().required({ name: true }),
  output: customPublisherResult,
  conflicts: ["already_exists"],
  notes: [CUSTOM_ID_NOTE, "A name you already gave another custom publisher is 409 already_exists.", "At most 100 custom publishers per account."],
  async handler({ db, auth, upgradeUrl }, args) {
    const fields = { name: args.name, nameKana: args.nameKana ?? null, nameEn: args.nameEn ?? null };
    const stored = await insertCustom(db, PUBLISHER, { ...auth, upgradeUrl }, fields);
    return { item: { companyId: stored.id, ...stored.fields, custom: true as const }, revision: stored.revision };
  },
});
