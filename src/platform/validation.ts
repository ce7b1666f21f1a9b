import type { z } from "zod";
import { ApiError } from "./errors";

/** `platformIds[2]`, `externalId.dbId`; an argument whose name is empty is shown as `""`, so the field is never blank. */
const fieldPath = (path: readonly PropertyKey[]) =>
  path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part) === "" ? '""' : String(part)}`)).join("");

interface FieldIssue {
  field: string;
  message: string;
}

function describeIssue(issue: z.core.$ZodIssue): FieldIssue {
  if (issue.code === "unrecognized_keys") {
    const field = fieldPath([...issue.path, issue.keys[0] ?? ""]);
    return { field, message: `unknown argument (not accepted by this tool)` };
  }
  return { field: fieldPath(issue.path) || "(body)", message: issue.message };
}

/** Turns a zod failure into a 400 that names the first offending field and lists every issue. */
export function invalidInputFromZod(error: z.ZodError): ApiError {
  const issues = error.issues.map(describeIssue);
  const first = issues[0] ?? { field: "(body)", message: "invalid input" };
  return new ApiError("invalid_input", `${first.field}: ${first.message}`, { field: first.field, issues });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInputFromZod(result.error);
  return result.data;
}

/**
 * The path of the first string (at any depth) holding a lone UTF-16 surrogate, which no storage keeps.
 * Walked with a stack of its own, not by recursion: a body nested 100,000 levels deep is valid JSON.
 * Each step records only its key and its parent, so the path is built once, for the string found.
 */
export function malformedTextPath(root: unknown): PropertyKey[] | null {
  const steps: { key: PropertyKey; parent: number }[] = [];
  const pending: [value: unknown, step: number][] = [[root, -1]];
  while (pending.length > 0) {
    const [value, step] = pending.pop()!;
    if (typeof value === "string") {
      if (value.isWellFormed()) continue;
      const path: PropertyKey[] = [];
      for (let at = step; at >= 0; at = steps[at]!.parent) path.unshift(steps[at]!.key);
      return path;
    }
    if (typeof value !== "object" || value === null) continue;
    const children = Object.entries(value);
    // Pushed last to first, so that the first offending string in document order is found first.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i]!;
      steps.push({ key: Array.isArray(value) ? Number(key) : key, parent: step });
      pending.push([child, steps.length - 1]);
    }
  }
  return null;
}

/** What a field holding invalid Unicode is told. */
export const MALFORMED_TEXT = "contains invalid Unicode (a lone surrogate)";

/** Text is kept as sent, so text that cannot be kept (invalid Unicode) is refused, never altered. */
export function refuseMalformedText(args: Record<string, unknown>): void {
  const path = malformedTextPath(args);
  if (path) {
    const field = fieldPath(path);
    throw new ApiError("invalid_input", `${field}: ${MALFORMED_TEXT}`, { field });
  }
}
