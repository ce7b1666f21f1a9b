import { z } from "zod";
import { ApiError } from "../../platform/errors";
import { ALL_PLANS, PLANS, SCOPES } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { readAccount } from "./accountView";

const countWithLimit = z.object({ count: z.number().int(), limit: z.number().int().nullable() });

export const getAccount = defineTool({
  name: "getAccount",
  family: "account",
  title: "アカウント確認",
  description:
    "Returns the plan, the account's time zone and today's date there, counts against the plan's limits, today's usage of the daily quota (a UTC day) and the burst rate.",
  restNote: "In REST, call GET /rest/v1/getAccount with the key in the Authorization header.",
  scopes: [],
  plans: ALL_PLANS,
  kind: "read",
  input: z.strictObject({}),
  output: z.object({
    userId: z.string(),
    name: z.string().nullable(),
    plan: z.enum(PLANS),
    timeZone: z
      .string()
      .describe(
        'IANA time zone (default Asia/Tokyo), changed on the settings page: it decides "today" for default dates and overdue filters.',
      ),
    today: z.string().describe("Today in that time zone, YYYY-MM-DD."),
    key: z.object({ keyId: z.string(), scopes: z.array(z.enum(SCOPES)) }),
    registered: z.record(z.string(), countWithLimit),
    usage: z.object({
      date: z.string().describe("UTC day the quota counts."),
      used: z.number().int(),
      limit: z.number().int(),
      remaining: z.number().int(),
      usageRate: z.number().describe("used / limit, 0 to 1."),
      resetAt: z.string(),
    }),
    rate: z.object({ burstLimit: z.number().int(), burstWindowSec: z.number().int() }),
  }),
  async handler({ env, db, auth, now }) {
    const { account } = await readAccount(env, db, auth.userId, now);
    if (!account) throw new ApiError("unauthorized", "The API key's account no longer exists.");
    const { userId, name, plan, timeZone, today, ...measures } = account;
    return { userId, name, plan, timeZone, today, key: { keyId: auth.keyId, scopes: [...auth.scopes] }, ...measures };
  },
});
