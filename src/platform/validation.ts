import type { z } from "zod";
import { ApiError } from "./errors";

const fieldPath = (path: readonly PropertyKey[]) =>
  path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`)).join("");

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
