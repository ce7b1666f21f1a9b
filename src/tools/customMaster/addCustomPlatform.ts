import { z } from "zod";
import { PREMIUM_ONLY } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { PLATFORM, insertCustom } from "./queries";
import { CUSTOM_ID_NOTE, customPlatformFields, customPlatformResult } from "./shared";

export const addCustomPlatform = defineTool({
  name: "addCustomPlatform",
  family: "customMaster",
  title: "カスタム機種追加",
  description:
    "Registers a platform the master data lacks (a regional model, a homebrew console) as your own custom platform. Only you can see it; your custom games, consoles and collections can use it, and listPlatforms shows it with custom: true.",
  restNote: "In REST, POST /rest/v1/addCustomPlatform; the new platformId is in item.platformId.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  input: z.strictObject(customPlatformFields).partial().required({ name: true }),
  output: customPlatformResult,
  conflicts: ["already_exists"],
  notes: [CUSTOM_ID_NOTE, "A name you already gave another custom platform is 409 already_exists.", "At most 100 custom platforms per account."],
  async handler({ db, auth, upgradeUrl }, args) {
    const fields = {
      name: args.name,
      nameEn: args.nameEn ?? null,
      shortName: args.shortName ?? null,
      maker: args.maker ?? null,
      releaseDate: args.releaseDate ?? null,
    };
    const stored = await insertCustom(db, PLATFORM, { ...auth, upgradeUrl }, fields);
    return { item: { platformId: stored.id, ...stored.fields, custom: true as const }, revision: stored.revision };
  },
});
