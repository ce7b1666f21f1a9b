import type { z } from "zod";
import { ApiError, invalidInput } from "./errors";

type ValueKind = "array" | "number" | "boolean" | "object" | "string";

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

/** What a GET query value must become for this field, looking through optional/default wrappers. */
export function valueKind(schema: z.core.$ZodType): ValueKind {
  let def = schema._zod.def as z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; in?: z.core.$ZodType };
  while (WRAPPERS.has(def.type) || def.type === "pipe") {
    const next = def.type === "pipe" ? def.in : def.innerType;
    if (!next) break;
    def = next._zod.def as typeof def;
  }
  switch (def.type) {
    case "array":
    case "tuple":
      return "array";
    case "number":
    case "int":
    case "bigint":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
    case "record":
    case "map":
      return "object";
    case "union": {
      const kinds = new Set(
        (def as unknown as { options: z.core.$ZodType[] }).options.filter((option) => option._zod.def.type !== "null").map(valueKind),
      );
      return kinds.size === 1 ? [...kinds][0]! : "string";
    }
    default:
      return "string";
  }
}

function arrayElement(schema: z.core.$ZodType): z.core.$ZodType | undefined {
  let def = schema._zod.def as z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; element?: z.core.$ZodType };
  while (WRAPPERS.has(def.type) && def.innerType) def = def.innerType._zod.def as typeof def;
  return def.element;
}

const NUMBER_TEXT = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;

/** Numbers and booleans become typed only when they read cleanly; anything else stays text so
 * that validation reports the field with a clear "expected number/boolean" message. */
function coerceScalar(kind: ValueKind, text: string): unknown {
  if (kind === "number") return NUMBER_TEXT.test(text) ? Number(text) : text;
  if (kind === "boolean") return text === "true" ? true : text === "false" ? false : text;
  return text;
}

/**
 * Turns a GET query string into tool arguments by the tool's input schema: comma-separated arrays
 * (`fields=` is `[]`), numbers and booleans by their declared type, object arguments refused.
 * Unknown parameters are passed through as text so that the strict schema names them.
 */
export function coerceQuery(shape: Record<string, z.core.$ZodType>, params: URLSearchParams): Record<string, unknown> {
  // Own properties only: `?constructor=` or `?__proto__=` must read as unknown arguments, not as
  // Object.prototype members (the shape lookup would find them, and `args.__proto__ =` would drop it).
  const args = new Map<string, unknown>();
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    const schema = Object.hasOwn(shape, name) ? shape[name] : undefined;
    const kind = schema ? valueKind(schema) : "string";
    if (kind === "object") {
      throw invalidInput(name, `${name}: object arguments are accepted only in a POST JSON body.`);
    }
    if (kind === "array") {
      const element = arrayElement(schema!);
      const elementKind = element ? valueKind(element) : "string";
      args.set(
        name,
        values.flatMap((value) => (value === "" ? [] : value.split(","))).map((item) => coerceScalar(elementKind, item.trim())),
      );
      continue;
    }
    if (values.length > 1) {
      throw new ApiError("invalid_input", `${name}: given more than once; send it once.`, { field: name });
    }
    args.set(name, coerceScalar(kind, values[0]!));
  }
  return Object.fromEntries(args);
}
