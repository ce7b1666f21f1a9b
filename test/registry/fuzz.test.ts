// The fuzz guard: for every tool in the registry, generated inputs never answer 5xx, and every 400
// names its field. Invalid inputs (wrong types, missing or unknown keys, huge and odd strings, odd
// numbers, broken bodies, bad query strings) and valid ones (from the published input schema) are
// drawn with fast-check from a fixed seed, sent over GET (read tools) and POST, and spread over many
// keys so that no burst limit (429) hides an answer. Every failure is collected and listed at once.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/platform/plans";
import { toJsonSchema } from "../../src/registry/catalog";
import type { ToolDefinition } from "../../src/registry/defineTool";
import { tools } from "../../src/tools";
import companies from "../fixtures/master/search.companies.ndjson?raw";
import games from "../fixtures/master/search.games.ndjson?raw";
import genres from "../fixtures/master/search.genres.ndjson?raw";
import platforms from "../fixtures/master/search.platforms.ndjson?raw";
import { authHeader, type Reply, send } from "../support/harness";
import { type KeyPool, keyPool } from "../support/keyPool";
import { importFixture } from "../support/master";
import { branchesOf, type Hints, type JsonSchema, ODD_TEXT, objectArbitrary, typeOf } from "../support/schemaExamples";

const SEED = 20_261_113;
const INVALID_RUNS = 12;
const VALID_RUNS = 8;
/** Calls in flight at once: enough to overlap D1 round trips on a 2-core machine. */
const CONCURRENCY = 4;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

interface FuzzRequest {
  method: "GET" | "POST" | "PUT";
  /** The query string, without `?`. */
  query?: string;
  body?: string | Uint8Array;
  contentType?: string | null;
}

interface FuzzCase {
  label: string;
  request: FuzzRequest;
}

/** GET arguments the way a client would write them: arrays comma-joined, objects as JSON text. */
function queryOf(args: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (Array.isArray(value))
      params.append(name, value.map((item) => (typeof item === "object" ? JSON.stringify(item) : String(item))).join(","));
    else if (typeof value === "object" && value !== null) params.append(name, JSON.stringify(value));
    else params.append(name, String(value));
  }
  return params.toString();
}

const jsonRequest = (args: unknown, method: "POST" | "PUT" = "POST"): FuzzRequest => ({ method, body: JSON.stringify(args) });

function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ""
      : typeof request.body === "string"
        ? ` ${request.body.length > 160 ? `${request.body.slice(0, 160)}…(${request.body.length} chars)` : request.body}`
        : ` bytes[${[...request.body.slice(0, 12)].join(",")}${request.body.length > 12 ? ",…" : ""}]`;
  const query = request.query
    ? `?${request.query.length > 160 ? `${request.query.slice(0, 160)}…(${request.query.length} chars)` : request.query}`
    : "";
  const type = request.contentType === undefined ? "" : ` [Content-Type: ${request.contentType}]`;
  return `${request.method}${query}${body}${type}`;
}

function sendCase(tool: ToolDefinition, apiKey: string, request: FuzzRequest): Promise<Reply> {
  const headers: Record<string, string> = { ...authHeader(apiKey) };
  const contentType = request.contentType === undefined ? "application/json" : request.contentType;
  if (request.body !== undefined && contentType !== null) headers["Content-Type"] = contentType;
  return send(`/rest/v1/${tool.name}${request.query ? `?${request.query}` : ""}`, {
    method: request.method,
    headers,
    body: request.body,
  });
}

// ---------------------------------------------------------------------------------------------
// Invalid inputs
// ---------------------------------------------------------------------------------------------

const LONE_SURROGATES = ["\uD800", "a\uDFFFb", "\uDBFF", "x\uD83D"];
const HUGE = 10_000;
const hugeStrings = fc.constantFrom(
  "x".repeat(HUGE),
  "😀".repeat(HUGE / 2),
  "%".repeat(HUGE),
  "a ".repeat(HUGE / 2),
  "ー".repeat(HUGE),
  '" OR *'.repeat(HUGE / 6),
);
const oddStrings = fc.constantFrom(...ODD_TEXT, ...LONE_SURROGATES, "", "x".repeat(HUGE));
const oddNumbers = fc.constantFrom(-0, 1e308, -1e308, -1, 0, 2 ** 53 + 1, 2 ** 53, 2 ** 63, 1.5, 5e-324, 1e21, 2 ** 31, -(2 ** 31) - 1);
/** Numbers as GET text: what a number must be read from, and what it must not. */
const oddNumberTexts = fc.constantFrom(
  "NaN",
  "-0",
  "1e308",
  "1e309",
  "-1",
  "9007199254740993",
  "Infinity",
  "-Infinity",
  "0x10",
  "1e-400",
  " 1",
  "1 ",
  "+1",
  "1.0",
  "1.5",
  ".5",
  "5.",
  "١٢",
  "1_000",
  "",
);
const anything = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, "", "x", [], {}, [1], ["x"], [null], { a: 1 }, [[]], { dbId: "x" }),
  fc.jsonValue({ maxDepth: 3 }),
);
const ODD_KEYS = [
  "zzUnknown",
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "",
  " ",
  "GAMEID",
  "a.b",
  "[0]",
  "prototype",
  "then",
  "limit ",
  "fields[]",
];

/** Nested JSON far deeper than any argument: the body stays under 1 MiB but recursion would not. */
const DEEP = 200_000;
const RAW_BODIES: (string | Uint8Array)[] = [
  "{",
  '{"a":',
  '{"gameId": 1,}',
  "{'gameId': 1}",
  "[]",
  "[1,2]",
  '[{"gameId":1}]',
  '"text"',
  "123",
  "null",
  "true",
  "\uFEFF{}",
  "{}garbage",
  "{}{}",
  '{"gameId":1e400}',
  '{"gameId":-0}',
  '{"gameId":1,"gameId":"x"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{}}}',
  '{"x":"\\ud800"}',
  '{"x":"\\u0000"}',
  "  \n\t ",
  new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]),
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  `{"x":${"[".repeat(DEEP)}${"]".repeat(DEEP)}}`,
  `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`,
  `{"x":${'{"a":'.repeat(DEEP / 5)}1${"}".repeat(DEEP / 5)}}`,
];

interface ToolShape {
  schema: JsonSchema;
  properties: [string, JsonSchema][];
  required: string[];
  isRead: boolean;
}

function shapeOf(tool: ToolDefinition): ToolShape {
  const schema = toJsonSchema(tool.input, "input");
  return {
    schema,
    properties: Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>),
    required: (schema.required ?? []) as string[],
    isRead: tool.kind === "read",
  };
}

/** Names of arguments whose values (or whose items) are of a given JSON type. */
function propertiesOfType(shape: ToolShape, type: string): string[] {
  return shape.properties
    .filter(([, schema]) =>
      branchesOf(schema).some((branch) => branch.type === type || (branch.type === "array" && typeOf(branch.items ?? {}) === type)),
    )
    .map(([name]) => name);
}

/** Sets an argument, putting the value in an array when the argument is one. */
function withValue(shape: ToolShape, args: Record<string, unknown>, name: string, value: unknown, asItem: boolean) {
  const schema = shape.properties.find(([property]) => property === name)?.[1];
  const isArray = schema !== undefined && branchesOf(schema).some((branch) => branch.type === "array");
  return { ...args, [name]: isArray && asItem ? [value] : value };
}

function invalidCases(shape: ToolShape, base: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<FuzzCase> {
  const names = shape.properties.map(([name]) => name);
  const strings = propertiesOfType(shape, "string");
  const numbers = [...new Set([...propertiesOfType(shape, "integer"), ...propertiesOfType(shape, "number")])];
  const transport = (args: Record<string, unknown>, label: string): fc.Arbitrary<FuzzCase> =>
    fc
      .constantFrom<FuzzRequest>(
        ...(shape.isRead
          ? [jsonRequest(args), { method: "GET" as const, query: queryOf(args) }]
          : [jsonRequest(args), jsonRequest(args, "PUT")]),
      )
      .map((request) => ({ label, request }));

  const mutations: fc.Arbitrary<FuzzCase>[] = [
    fc.tuple(base, fc.constantFrom(...ODD_KEYS), anything).chain(([args, key, value]) => {
      const withKey = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
      Object.defineProperty(withKey, key, { value, enumerable: true, configurable: true, writable: true });
      return transport(withKey, `unknown key ${JSON.stringify(key)}`);
    }),
    fc
      .constantFrom(...RAW_BODIES)
      .chain((body) =>
        fc
          .constantFrom<string | null>("application/json", "text/plain", null)
          .map((contentType) => ({ label: "raw body", request: { method: "POST" as const, body, contentType } })),
      ),
  ];
  if (names.length > 0) {
    mutations.push(
      fc
        .tuple(base, fc.constantFrom(...names), anything)
        .chain(([args, name, value]) => transport({ ...args, [name]: value }, `wrong type for ${name}`)),
      fc
        .tuple(base, fc.constantFrom(...names), hugeStrings, fc.boolean())
        .chain(([args, name, value, asItem]) => transport(withValue(shape, args, name, value, asItem), `huge string for ${name}`)),
    );
  }
  if (shape.required.length > 0) {
    mutations.push(
      fc.tuple(base, fc.constantFrom(...shape.required)).chain(([args, name]) => {
        const { [name]: _dropped, ...rest } = args;
        return transport(rest, `missing ${name}`);
      }),
    );
  }
  if (strings.length > 0) {
    mutations.push(
      fc
        .tuple(base, fc.constantFrom(...strings), oddStrings, fc.boolean())
        .chain(([args, name, value, asItem]) => transport(withValue(shape, args, name, value, asItem), `odd string for ${name}`)),
    );
  }
  if (numbers.length > 0) {
    mutations.push(
      fc
        .tuple(base, fc.constantFrom(...numbers), oddNumbers, fc.boolean())
        .chain(([args, name, value, asItem]) => transport(withValue(shape, args, name, value, asItem), `odd number for ${name}`)),
    );
  }
  if (shape.isRead) {
    const keys = [...names, "fields", "limit", "zz"];
    mutations.push(
      fc
        .tuple(base, fc.constantFrom(...keys), fc.constantFrom(...keys), oddNumberTexts, fc.constantFrom(...ODD_TEXT, ...LONE_SURROGATES))
        .chain(([args, name, other, numberText, odd]) => {
          const encoded = queryOf(args);
          const prefix = encoded ? `${encoded}&` : "";
          const forms = [
            `${name}=1&${name}=2`,
            `${name}=a&${name}=`,
            `${name}=%zz`,
            `%zz=1`,
            `${name}%zz=1`,
            `${name}[a]=1`,
            `${name}[]=1`,
            `${name}=%7B%22a%22%3A1%7D`,
            `${name}=${encodeURIComponent(numberText)}`,
            `${name}`,
            `${name}=`,
            `=`,
            `&&&`,
            `${name}=a=b`,
            `${name}=%00`,
            `${name}=%ED%A0%80`,
            `${name}=%C3%28`,
            `${name}=${encodeURIComponent(odd.replace(/[\uD800-\uDFFF]/g, "x"))}`,
            `${name}=,,`,
            `${name}=%2C`,
            `fields=`,
            `fields=,`,
            `fields=game,,console`,
            `fields=game&fields=`,
            `fields[]=game`,
            `fields=%2C%2C`,
            `limit=${encodeURIComponent(numberText)}`,
            `page=${encodeURIComponent(numberText)}`,
            `${name}=1&${other}=${encodeURIComponent(numberText)}`,
            `constructor=1`,
            `__proto__=1`,
            `toString=x`,
            `hasOwnProperty=1`,
            `${name}=${"x".repeat(HUGE)}`,
          ];
          return fc
            .constantFrom(...forms)
            .map((form) => ({ label: "query string", request: { method: "GET" as const, query: `${prefix}${form}` } }));
        }),
      fc.constant({ label: "GET with no arguments", request: { method: "GET" as const, query: "" } }),
    );
  } else {
    mutations.push(base.map((args) => ({ label: "GET on a write tool", request: { method: "GET" as const, query: queryOf(args) } })));
  }
  return fc.oneof(...mutations);
}

// ---------------------------------------------------------------------------------------------
// Valid inputs
// ---------------------------------------------------------------------------------------------

/** GET cannot carry object arguments or nulls; everything else goes through as a client writes it. */
function getArgs(shape: ToolShape, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(([name, value]) => {
      const schema = shape.properties.find(([property]) => property === name)?.[1] ?? {};
      return value !== null && typeOf(schema) !== "object" && !(Array.isArray(value) && value.some((item) => typeof item === "object"));
    }),
  );
}

function validCases(shape: ToolShape, hints: Hints): fc.Arbitrary<FuzzCase[]> {
  return objectArbitrary(shape.schema, hints).map((args) => {
    const cases: FuzzCase[] = [{ label: "valid", request: jsonRequest(args) }];
    if (shape.isRead) cases.push({ label: "valid", request: { method: "GET", query: queryOf(getArgs(shape, args)) } });
    return cases;
  });
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

async function inTurn<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** What is wrong with a reply, if anything: a 5xx, a 400 without `field`, or a 429 that hid the answer. */
function problemOf(reply: Reply): string | null {
  if (reply.status >= 500) return "5xx";
  if (reply.status === 429) return "throttled (429): the key rotation is too thin, nothing was checked";
  if (reply.status === 400 && (typeof reply.body?.field !== "string" || reply.body.field === "")) return "400 without field";
  return null;
}

const pools = {} as Record<Plan, KeyPool>;
let hints: Hints = {};

/** Finds the first value of `key` at any depth of a reply body. */
function found(body: unknown, key: string): unknown {
  if (typeof body !== "object" || body === null) return undefined;
  if (!Array.isArray(body) && key in body) return (body as Record<string, unknown>)[key];
  for (const child of Object.values(body)) {
    const value = found(child, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Seeds the PREMIUM user with a few rows of every kind, so that valid calls with known ids reach real data. */
async function seed(premium: KeyPool): Promise<Hints> {
  const ok = async (tool: string, args: Record<string, unknown>) => {
    const reply = await premium.call(tool, args);
    expect(reply.status, `seed ${tool}: ${JSON.stringify(reply.body)}`).toBe(200);
    return reply.body;
  };
  await importFixture({ platforms, companies, genres, games });
  for (const gameId of [700101, 700102, 700103, 700104]) await ok("addToLibrary", { gameId, rating: 4, buyPlace: "ゾルバ堂" });
  await ok("addToWishlist", { gameId: 700105, wishPlace: "shop" });
  const attribute = found(await ok("addAttribute", { label: "mine" }), "id");
  const consoleId = found(
    await ok("addConsole", { name: "ゾルバ機", platformPriorities: [{ platformId: 700001, priority: 1 }] }),
    "consoleId",
  );
  const maintenanceLogId = found(await ok("addConsoleMaintenanceLog", { consoleId, title: "clean" }), "maintenanceLogId");
  const playId = found(await ok("addPlayRecord", { gameId: 700101, status: "PLAYING", consoleId }), "playId");
  const playLogId = found(await ok("addPlayLog", { playId, playTime: 30 }), "playLogId");
  const tagId = found(await ok("addTag", { name: "fav" }), "tagId");
  await ok("updateTagGames", { tagId, mode: "add", gameIds: [700101, 700102] });
  const collectionId = found(await ok("addCollection", { name: "mine", type: "INDIVIDUAL", gameIds: [700101, 700103] }), "collectionId");
  const customPlatformId = found(await ok("addCustomPlatform", { name: "自作機" }), "platformId");
  const customCompanyId = found(await ok("addCustomPublisher", { name: "自作社" }), "companyId");
  const customGameId = found(
    await ok("addCustomGame", { title: "自作ゲーム", platformId: customPlatformId, publisherId: customCompanyId }),
    "gameId",
  );
  const revision = found(await ok("getPhysicalCopies", { gameId: 700102 }), "revision");
  const physicalId = found(await ok("addPhysicalCopy", { gameId: 700102, mode: "materialize", revision }), "physicalId");
  const gameIds = [700101, 700102, 700105, 700206, customGameId];
  return {
    gameId: gameIds,
    gameIds,
    excludeGameIds: gameIds,
    platformId: [700001, customPlatformId],
    platformIds: [700001, 700002, customPlatformId],
    companyId: [customCompanyId],
    publisherId: [700001, customCompanyId],
    genreId: [700001, 700003, 700005],
    genreSubId: [700003],
    consoleId: [consoleId],
    consoleIds: [consoleId],
    playId: [playId],
    playLogId: [playLogId],
    maintenanceLogId: [maintenanceLogId],
    tagId: [tagId],
    collectionId: [collectionId],
    physicalId: [physicalId],
    attribute: [attribute, "mine", "box"],
    attributes: [attribute, "mine", "box", "manual"],
    query: ["ゾルバ", "zolba", "ぞるば", "Zolba Quest 3"],
  };
}

beforeAll(async () => {
  // Burst limits are per key: PREMIUM 80, LIGHT 40, FREE 20 calls per 10 s (FREE: 3 keys per user).
  pools.PREMIUM = await keyPool("PREMIUM", { keysPerAccount: 20 });
  pools.LIGHT = await keyPool("LIGHT", { accounts: 2, keysPerAccount: 6 });
  pools.FREE = await keyPool("FREE", { accounts: 4, keysPerAccount: 3 });
  hints = await seed(pools.PREMIUM);
}, 120_000);

/** Every third valid case goes to the lowest plan the tool is on (when that is not PREMIUM). */
function poolFor(tool: ToolDefinition, index: number): KeyPool {
  if (index % 3 !== 2) return pools.PREMIUM;
  const lower = (["FREE", "LIGHT"] as const).filter((plan) => tool.plans.includes(plan));
  return lower.length ? pools[lower[index % lower.length]!] : pools.PREMIUM;
}

async function check(tool: ToolDefinition, cases: { pool: KeyPool; fuzz: FuzzCase }[]): Promise<string[]> {
  const problems: string[] = [];
  await inTurn(cases, CONCURRENCY, async ({ pool, fuzz }) => {
    const reply = await sendCase(tool, pool.nextKey(), fuzz.request);
    const problem = problemOf(reply);
    if (problem) {
      problems.push(
        `${tool.name} [${pool.plan}] ${fuzz.label}: ${problem}: ${describeRequest(fuzz.request)} -> ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`,
      );
    }
  });
  return problems;
}

describe("fuzz guard: no 5xx, and every 400 names its field", () => {
  it.for(tools.map((tool, index) => [tool.name, index] as const))("%s", async ([, index]) => {
    const tool = tools[index]!;
    const shape = shapeOf(tool);
    const seed = SEED + index;
    const invalid = fc.sample(invalidCases(shape, objectArbitrary(shape.schema, hints)), { seed, numRuns: INVALID_RUNS });
    const valid = fc.sample(validCases(shape, hints), { seed: seed + 7919, numRuns: VALID_RUNS });
    const cases = [
      ...invalid.map((fuzz) => ({ pool: pools.PREMIUM, fuzz })),
      ...valid.flatMap((pair, i) => pair.map((fuzz) => ({ pool: poolFor(tool, i), fuzz }))),
    ];
    expect(await check(tool, cases)).toEqual([]);
  });
});

describe("inputs this guard once found answering 5xx or a blank field", () => {
  const getAccount = tools.find((tool) => tool.name === "getAccount")!;
  const getLibrary = tools.find((tool) => tool.name === "getLibrary")!;

  it("reads Object.prototype names in a GET query as unknown arguments (400 naming them)", async () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const reply = await sendCase(getAccount, pools.PREMIUM.nextKey(), { method: "GET", query: `${name}=1` });
      expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBe(400);
      expect(reply.body.field).toBe(name);
    }
  });

  it("answers a body nested far deeper than any argument with 400, not a stack overflow", async () => {
    for (const body of [
      `{"x":${"[".repeat(DEEP)}${"]".repeat(DEEP)}}`,
      `{"x":${'{"a":'.repeat(DEEP / 5)}"\\ud800"${"}".repeat(DEEP / 5)}}`,
    ]) {
      const reply = await sendCase(getLibrary, pools.PREMIUM.nextKey(), { method: "POST", body });
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body.field).toMatch(/^x/);
    }
  });

  it('names an argument whose name is empty as ""', async () => {
    for (const request of [
      { method: "POST" as const, body: '{"":1}' },
      { method: "GET" as const, query: "=1" },
    ]) {
      const reply = await sendCase(getLibrary, pools.PREMIUM.nextKey(), request);
      expect(reply.status).toBe(400);
      expect(reply.body.field).toBe('""');
    }
  });
});
