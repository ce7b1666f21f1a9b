import { ApiError } from "../../platform/errors";
import { KEY_PRESETS, type Plan, REGISTERED_LIMITS } from "../../platform/plans";
import { expiryDayRange, type KeyDraft, presetLabel } from "./keys";
import type { Page } from "./layout";

/** What a refused form is about: the preset chosen (for the scopes' message), the typed time zone, the plan (for its key limit). */
export interface FormContext {
  draft?: Pick<KeyDraft, "preset">;
  typedTimeZone?: string;
  plan?: Plan;
}

/** Refusals of a form itself (a field that does not fit, the plan's key limit), shown beside the form they came from. */
export const isFormRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.code === "invalid_input" || error.code === "plan_required");

/**
 * A form's refusal as the person reads it: in the page's language, naming the field in words and
 * what it takes (the service's own message names the field as the API spells it, in English).
 */
export function formProblem(page: Page, error: ApiError, context: FormContext = {}): string {
  const { t } = page;
  if (error.code === "plan_required")
    return context.plan ? t.problemKeyLimit(context.plan, REGISTERED_LIMITS.apiKeys[context.plan] ?? 0) : error.message;
  const field = typeof error.details.field === "string" ? error.details.field : "";
  const preset = context.draft?.preset;
  switch (field.split(/[.[]/)[0]) {
    case "name":
      return t.problemName;
    case "scopes":
      return preset && preset !== "individual" && preset in KEY_PRESETS
        ? t.scopesDisagree(presetLabel(page, preset), KEY_PRESETS[preset as keyof typeof KEY_PRESETS].join(", "))
        : t.problemScopesNone;
    case "preset":
      return t.problemPreset;
    case "expiresInDays":
    case "expiresOn": {
      const { from, to } = expiryDayRange(page);
      return t.problemExpiry(from, to);
    }
    case "timeZone":
      return t.problemTimeZone(context.typedTimeZone ?? "");
    default:
      return t.problemOther(field || error.message);
  }
}
