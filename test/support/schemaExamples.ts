// Values made from a tool's PUBLISHED input JSON Schema (the catalog's inputSchema and
// planDifferences), so tests check the server against what it tells clients, not against its code.
// exampleOf gives one plain valid value; validArbitrary gives fast-check arbitraries of valid values;
// outsideNarrower finds a value a PREMIUM schema accepts but a lower plan's narrower schema refuses.
import fc from "fast-check";

export type JsonSchema = Record<string, any>;

const DATE_PATTERN_HINT = "-02-29";
const JAN_PATTERN = "^(\\d{8}|\\d{13})$";
const HIRAGANA_PATTERN = "^[\\u3041-\\u309f\\u30fc0-9a-z]+$";
const COLOR_PATTERN = "^#[0-9a-fA-F]{6}$";

/** A schema's branches without the null one (anyOf/oneOf), or the schema itself. */
export function branchesOf(schema: JsonSchema): JsonSchema[] {
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!union) return [schema];
  return union.filter((branch) => branch.type !== "null").flatMap(branchesOf);
}

/** The first non-null branch: what a value of this argument looks like. */
export const nonNull = (schema: JsonSchema): JsonSchema => branchesOf(schema)[0] ?? schema;

export const typeOf = (schema: JsonSchema): string | undefined => {
  const type = nonNull(schema).type;
  return Array.isArray(type) ? type.find((t) => t !== "null") : type;
};

/** A pattern-only string argument (a confirmToken): made-up values of it are refused, so skip it. */
export const isTokenLike = (name: string, schema: JsonSchema) =>
  name === "confirmToken" || (typeof nonNull(schema).pattern === "string" && nonNull(schema).pattern.startsWith("^ct_"));

/** An EAN/JAN code of `length` digits with a correct check digit. */
export function janOf(body: string): string {
  const digits = [...body].map(Number);
  const sum = [...digits].reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

export const todayUtc = () => new Date().toISOString().slice(0, 10);

function fitLength(text: string, schema: JsonSchema): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  let value = text;
  while ([...value].length < min) value += "x";
  return [...value].slice(0, Math.max(min, Math.min(max, [...value].length))).join("");
}

function exampleString(schema: JsonSchema): string {
  if (schema.format === "date" || String(schema.pattern ?? "").includes(DATE_PATTERN_HINT)) return todayUtc();
  if (schema.format === "uri") return "https://example.com/page";
  if (schema.format === "email") return "someone@example.com";
  if (schema.pattern === JAN_PATTERN) return janOf("490000000001");
  if (schema.pattern === HIRAGANA_PATTERN) return fitLength("あいう", schema);
  if (schema.pattern === COLOR_PATTERN) return "#3366cc";
  if (typeof schema.pattern === "string" && schema.pattern.startsWith("^ct_")) return `ct_${"A".repeat(32)}`;
  return fitLength("abc", schema);
}

function exampleNumber(schema: JsonSchema, integer: boolean): number {
  let low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.5) : 1);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 0.5) : Infinity);
  if (low > high) low = high;
  return Math.max(low, Math.min(high, 1));
}

/** One plain valid value of a schema (first enum value, today for dates, "abc" for text...). */
export function exampleOf(schema: JsonSchema): unknown {
  const node = nonNull(schema);
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.enum)) return node.enum[0];
  switch (typeOf(node)) {
    case "string":
      return exampleString(node);
    case "integer":
      return exampleNumber(node, true);
    case "number":
      return exampleNumber(node, false);
    case "boolean":
      return true;
    case "array": {
      const count = node.minItems ?? 0;
      return Array.from({ length: Math.max(count, 1) }, () => exampleOf(node.items ?? {}));
    }
    case "object":
      return requiredExample(node);
    case "null":
      return null;
    default:
      return "abc";
  }
}

/** The required arguments of an object schema, each from `overrides[name]` when given (a narrower schema). */
export function requiredExample(schema: JsonSchema, overrides: Record<string, JsonSchema> = {}): Record<string, unknown> {
  const required: string[] = schema.required ?? [];
  return Object.fromEntries(required.map((name) => [name, exampleOf(overrides[name] ?? schema.properties?.[name] ?? {})]));
}

/**
 * A value the PREMIUM schema accepts and the narrower one refuses, read from a tighter published
 * bound (enum subset, maxLength, minLength, maximum, minimum, maxItems, minItems, const, format);
 * undefined when the narrower schema publishes no tighter bound.
 */
export function outsideNarrower(premiumSchema: JsonSchema, narrowerSchema: JsonSchema): unknown {
  const premium = nonNull(premiumSchema);
  const narrower = nonNull(narrowerSchema);
  const fits = (value: unknown) => satisfies(premium, value) && !satisfies(narrower, value);
  const candidates: unknown[] = [];
  if (Array.isArray(narrower.enum)) {
    candidates.push(...((premium.enum as unknown[] | undefined) ?? []).filter((value) => !narrower.enum.includes(value)));
    if (!premium.enum && typeOf(premium) === "string") candidates.push("not-in-the-narrower-enum");
  }
  if (narrower.const !== undefined && premium.const === undefined) candidates.push(...(premium.enum ?? []), "other");
  const base = exampleOf(premium);
  if (typeof narrower.maxLength === "number")
    candidates.push(fitLength("x".repeat(narrower.maxLength + 1), { ...premium, minLength: narrower.maxLength + 1 }));
  if (typeof narrower.minLength === "number" && narrower.minLength > 0) candidates.push("x".repeat(narrower.minLength - 1));
  if (typeof narrower.maximum === "number") candidates.push(narrower.maximum + 1);
  if (typeof narrower.minimum === "number") candidates.push(narrower.minimum - 1);
  if (typeof narrower.maxItems === "number")
    candidates.push(Array.from({ length: narrower.maxItems + 1 }, () => exampleOf(premium.items ?? {})));
  if (typeof narrower.minItems === "number" && narrower.minItems > 0) candidates.push([]);
  if (narrower.format && narrower.format !== premium.format) candidates.push(`not-a-${String(narrower.format)}`, base);
  return candidates.find(fits);
}

const FORMAT_CHECKS: Record<string, (value: string) => boolean> = {
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
  uri: (value) => URL.canParse(value),
};

/** Whether a value meets a schema's published constraints (the keywords the catalog uses). */
export function satisfies(schema: JsonSchema, value: unknown): boolean {
  if (schema.anyOf || schema.oneOf) return ((schema.anyOf ?? schema.oneOf) as JsonSchema[]).some((branch) => satisfies(branch, value));
  if (schema.const !== undefined && value !== schema.const) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  switch (schema.type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "integer":
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return false;
      if (schema.type === "integer" && !Number.isInteger(value)) return false;
      if (schema.minimum !== undefined && value < schema.minimum) return false;
      if (schema.maximum !== undefined && value > schema.maximum) return false;
      if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return false;
      if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return false;
      return true;
    case "string": {
      if (typeof value !== "string") return false;
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength) return false;
      if (schema.maxLength !== undefined && length > schema.maxLength) return false;
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return false;
      if (schema.format && FORMAT_CHECKS[schema.format] && !FORMAT_CHECKS[schema.format]!(value)) return false;
      return true;
    }
    case "array":
      if (!Array.isArray(value)) return false;
      if (schema.minItems !== undefined && value.length < schema.minItems) return false;
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
      return value.every((item) => satisfies(schema.items ?? {}, item));
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const record = value as Record<string, unknown>;
      if ((schema.required ?? []).some((name: string) => record[name] === undefined)) return false;
      return Object.entries(record).every(([name, item]) =>
        schema.properties?.[name] ? satisfies(schema.properties[name], item) : schema.additionalProperties !== false,
      );
    }
    default:
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// fast-check arbitraries
// ---------------------------------------------------------------------------------------------

/**
 * Text that is valid as text but awkward for storage and search: SQL and FTS operators, LIKE
 * wildcards, NUL, bidi marks, emoji, combining marks, full-width forms, quotes and backslashes.
 */
export const ODD_TEXT = [
  '" OR *',
  "%",
  "_",
  "%_%",
  "a*",
  "*",
  "NEAR(a b)",
  "AND",
  "OR NOT",
  "-x",
  "^a",
  "'; DROP TABLE games; --",
  "\\",
  '"',
  "''",
  "\u0000",
  "a\u0000b",
  "\u202Eabc",
  "\u200F\u200E",
  "😀",
  "👨‍👩‍👧",
  "e\u0301",
  "ＡＢＣ１２３",
  "ｶﾀｶﾅ",
  "ー",
  "Ⅲ",
  "𠮷",
  " ",
  "\t\n",
  "a,b",
  "NULL",
  "null",
  "undefined",
  "0",
  "-1",
  "1e308",
  "NaN",
  "<script>",
  "ゾルバ",
  "{}",
  "[]",
];

/** Id-like arguments take known ids now and then, so valid calls reach real rows. */
export type Hints = Record<string, readonly unknown[]>;

function dateArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom("1970-01-01", "2000-02-29", "1999-12-31", "9999-12-31", "0001-01-01", todayUtc()) },
    {
      weight: 4,
      arbitrary: fc
        .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10)),
    },
  );
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === "date" || String(schema.pattern ?? "").includes(DATE_PATTERN_HINT)) return dateArbitrary();
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 60, 60);
  const fits = (value: string) => [...value].length >= min && [...value].length <= (schema.maxLength ?? Infinity);
  if (schema.format === "uri") {
    return fc
      .oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constant("https://example.com/%zz?q=' OR 1"))
      .filter(fits);
  }
  if (schema.pattern === JAN_PATTERN) {
    return fc.oneof(fc.stringMatching(/^\d{7}$/), fc.stringMatching(/^\d{12}$/)).map(janOf);
  }
  if (typeof schema.pattern === "string") {
    return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  }
  const odd = ODD_TEXT.map((text) => fitLength(text, schema)).filter(fits);
  return fc.oneof(
    { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, max), unit: "grapheme" }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 8)) }) },
    { weight: 2, arbitrary: fc.constantFrom(...(odd.length ? odd : [fitLength("abc", schema)])) },
  );
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 2 ** 31);
  const edges = [low, high, low + 1, 0, 1, 1_000_000_000].filter((value) => value >= low && value <= high);
  if (integer) {
    return fc.oneof(
      fc.constantFrom(...edges),
      fc.integer({ min: low, max: Math.min(high, low + 20) }),
      fc.integer({ min: Math.max(low, -(2 ** 31)), max: Math.min(high, 2 ** 31) }),
    );
  }
  return fc.oneof(
    fc.constantFrom(...edges),
    fc.double({ min: Math.max(low, -1e9), max: Math.min(high, 1e9), noNaN: true, noDefaultInfinity: true }),
  );
}

/** Valid values of a schema; `hints` (by argument name) mixes in known ids. */
export function validArbitrary(schema: JsonSchema, name = "", hints: Hints = {}): fc.Arbitrary<unknown> {
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) {
    const nullable = union.some((branch) => branch.type === "null");
    const branches = branchesOf(schema).map((branch) => validArbitrary(branch, name, hints));
    return nullable
      ? fc.oneof({ weight: 6, arbitrary: fc.oneof(...branches) }, { weight: 1, arbitrary: fc.constant(null) })
      : fc.oneof(...branches);
  }
  const known = hints[name];
  const plain = plainArbitrary(schema, name, hints);
  if (known?.length && typeOf(schema) !== "array")
    return fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: plain });
  return plain;
}

function plainArbitrary(schema: JsonSchema, name: string, hints: Hints): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (typeOf(schema)) {
    case "string":
      return stringArbitrary(schema);
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "boolean":
      return fc.boolean();
    case "array": {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 6, 6));
      return fc.array(validArbitrary(schema.items ?? {}, name, hints), { minLength, maxLength });
    }
    case "object":
      return objectArbitrary(schema, hints);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Puts every `xFrom`/`xTo` pair in order (the documented rule: a range whose end is before its
 * start is a 400), so that generated valid arguments are not all refused for that one reason.
 */
export function orderRanges(args: Record<string, unknown>): Record<string, unknown> {
  const ordered = { ...args };
  for (const from of Object.keys(ordered).filter((name) => name.endsWith("From"))) {
    const to = `${from.slice(0, -4)}To`;
    const [start, end] = [ordered[from], ordered[to]];
    if (start !== null && end !== null && typeof start === typeof end && (start as never) > (end as never)) {
      ordered[from] = end;
      ordered[to] = start;
    }
  }
  return ordered;
}

/** Valid argument objects: every required property, any subset of the others (token-like ones left out). */
export function objectArbitrary(
  schema: JsonSchema,
  hints: Hints = {},
  options: { omit?: (name: string) => boolean } = {},
): fc.Arbitrary<Record<string, unknown>> {
  const required: string[] = schema.required ?? [];
  const entries = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).filter(
    ([name, property]) => required.includes(name) || (!isTokenLike(name, property) && !options.omit?.(name)),
  );
  const model = Object.fromEntries(entries.map(([name, property]) => [name, validArbitrary(property, name, hints)]));
  return (fc.record(model, { requiredKeys: required.filter((name) => name in model) }) as fc.Arbitrary<Record<string, unknown>>).map(
    orderRanges,
  );
}
