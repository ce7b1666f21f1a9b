import { z } from "zod";
import { ALL_PLANS } from "../../platform/plans";
import { nameText } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { attributeSchema } from "./items";
import { insertOwnAttribute } from "./queries";

export const addAttribute = defineTool({
  name: "addAttribute",
  family: "attributes",
  title: "属性追加",
  description: "Adds an attribute label of your own (e.g. 帯あり, サイン入り) for library entries, copies and play records.",
  restNote: 'In REST, POST /rest/v1/addAttribute with {"label": "..."}.',
  scopes: ["library:write"],
  plans: ALL_PLANS,
  kind: "write",
  destructive: false,
  // A repeat is 409 already_exists (labels are unique).
  idempotent: true,
  input: z.strictObject({ label: nameText(30).describe("1 to 30 characters, unique among system and your labels.") }),
  output: z.object({ item: attributeSchema }),
  conflicts: ["already_exists"],
  notes: ["How many labels you may add depends on the plan (see getAccount)."],
  async handler({ db, auth, upgradeUrl }, args) {
    return { item: await insertOwnAttribute(db, { ...auth, upgradeUrl }, args.label) };
  },
});
