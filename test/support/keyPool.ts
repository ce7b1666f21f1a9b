// Many keys of one plan, used in turn, so that tests making many calls stay under the per-key
// burst limit (a 429 would hide the answer under test).
import type { Plan } from "../../src/platform/plans";
import { REGISTERED_LIMITS } from "../../src/platform/plans";
import { type Account, ALL_SCOPES, callWith, newAccount, type ToolReply } from "./harness";

export interface KeyPool {
  plan: Plan;
  accounts: Account[];
  /** The next key in turn. */
  nextKey(): string;
  call<N extends string>(tool: N, args?: Record<string, unknown>, method?: "POST" | "GET"): Promise<ToolReply<N>>;
}

/** `accounts` users of `plan` with all scopes, each with as many keys as asked (capped by the plan's key limit). */
export async function keyPool(plan: Plan, options: { accounts?: number; keysPerAccount?: number } = {}): Promise<KeyPool> {
  const keysPerAccount = Math.min(options.keysPerAccount ?? 1, REGISTERED_LIMITS.apiKeys[plan] ?? Infinity);
  const accounts: Account[] = [];
  const keys: string[] = [];
  for (let i = 0; i < (options.accounts ?? 1); i++) {
    const account = await newAccount({ plan });
    accounts.push(account);
    keys.push(account.apiKey);
    for (let k = 1; k < keysPerAccount; k++) keys.push((await account.newKey(ALL_SCOPES)).apiKey);
  }
  let next = 0;
  const nextKey = () => keys[next++ % keys.length]!;
  return { plan, accounts, nextKey, call: (tool, args = {}, method = "POST") => callWith(nextKey(), tool, args, method) };
}
