import type { AuthContext } from "../platform/auth";
import { ApiError, invalidInput } from "../platform/errors";
import type { ToolDefinition } from "./defineTool";

const planRequired = (message: string, upgradeUrl: string, field?: string) =>
  new ApiError("plan_required", message, { upgradeUrl, ...(field ? { field } : {}) });

/** Scope, then plan: a key without the scope is refused whatever the plan. */
export function enforceToolAccess(tool: ToolDefinition, auth: AuthContext, upgradeUrl: string): void {
  const missing = tool.scopes.filter((scope) => !auth.scopes.has(scope));
  if (missing.length > 0) {
    throw new ApiError("insufficient_scope", `${tool.name} needs the scope(s): ${missing.join(", ")}.`, {
      scopes: [...tool.scopes],
    });
  }
  if (!tool.plans.includes(auth.plan)) {
    throw planRequired(`${tool.name} is available on ${tool.plans.join(", ")}; this account is ${auth.plan}.`, upgradeUrl);
  }
}

/**
 * Applies the caller's planDifferences to already-validated arguments (the PREMIUM schema).
 * Only the differences and the plan matter, so an export can reapply them at download time.
 */
export function enforcePlanDifferences(
  tool: Pick<ToolDefinition, "planDifferences">,
  auth: Pick<AuthContext, "plan">,
  args: Record<string, unknown>,
  upgradeUrl: string,
): void {
  if (auth.plan === "PREMIUM") return;
  const difference = tool.planDifferences?.[auth.plan];
  if (!difference) return;
  for (const name of difference.removedProperties ?? []) {
    if (args[name] !== undefined) {
      throw planRequired(`${name} is not available on the ${auth.plan} plan.`, upgradeUrl, name);
    }
  }
  for (const [name, narrower] of Object.entries(difference.changedProperties ?? {})) {
    if (args[name] !== undefined && !narrower.safeParse(args[name]).success) {
      throw planRequired(
        `${name} is narrower on the ${auth.plan} plan: ${narrower.description ?? "see planDifferences"}.`,
        upgradeUrl,
        name,
      );
    }
  }
  for (const name of difference.required ?? []) {
    if (args[name] === undefined) throw invalidInput(name, `${name}: required on the ${auth.plan} plan.`);
  }
}
