// MCP annotations that tell the truth (issue 26, item 3): every tool's readOnly/destructive/idempotent
// hints are pinned to a reviewed table; MCP tools/list, the catalog and the OpenAPI document publish
// the same; and against real D1, a write that says it only adds never changes a row the user had,
// and a write that says it is idempotent changes nothing when repeated (revision and updatedAt
// included). Games are a tiny fictional master (ids 643000-643099, marker word セージ).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { annotationsOf } from "../../src/registry/defineTool";
import { tools } from "../../src/tools";
import type { ToolName } from "../../src/tools/types";
import { newAccount, type Player, player, send } from "../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../support/master";
import { mcpClient } from "../support/mcp";
import { ok, okDone, okPreview } from "../support/replies";

type Args = Record<string, unknown>;

/** [readOnlyHint, destructiveHint, idempotentHint, why, when it is not obvious from the name]. */
type Hints = readonly [readOnly: boolean, destructive: boolean, idempotent: boolean, why?: string];

const READ: Hints = [true, false, true];
/** Two steps: the preview changes nothing, and a used confirmToken (or the target gone) is refused. */
const REMOVE: Hints = [false, true, true];
const TOUCH_IF_CHANGED = "overwrites fields; equal values keep revision and updatedAt, so a repeat changes nothing";
const BUMPS = "overwrites fields; every call moves updatedAt even with the stored values, so a repeat is a change";

/** Every tool's hints, reviewed one by one (a new tool fails to compile until it is added here). */
const REVIEWED: Record<ToolName, Hints> = {
  getAccount: READ,
  searchGames: READ,
  browseGames: READ,
  getGamesBatch: READ,
  listPlatforms: READ,
  listGenres: READ,
  listPublishers: READ,
  suggestGameIdentifier: [false, false, true, "only adds a suggestion; a repeat is 409 already_exists (one open per game and kind)"],
  getGameIdentifierSuggestions: READ,
  getLibrary: READ,
  addToLibrary: [false, true, true, "takes the game off the wishlist; a repeat is 409 already_exists"],
  updateLibraryEntry: [false, true, true, TOUCH_IF_CHANGED],
  removeFromLibrary: REMOVE,
  getWishlist: READ,
  addToWishlist: [false, false, true, "only adds; a repeat is 409 already_exists"],
  updateWishlistEntry: [false, true, true, TOUCH_IF_CHANGED],
  removeFromWishlist: REMOVE,
  getPhysicalCopies: READ,
  addPhysicalCopy: [
    false,
    true,
    true,
    "materialize/makeActive overwrite the library entry; the required revision moves, so a repeat is 409",
  ],
  updatePhysicalCopy: [false, true, true, "the required revision moves with every copy write, so a repeat is 409"],
  removePhysicalCopy: REMOVE,
  addCustomGame: [false, false, false, "only adds; titles are not unique, so a repeat adds a second game"],
  updateCustomGame: [false, true, true, "its revision is the hash of its fields: equal fields, same row"],
  removeCustomGame: REMOVE,
  addCustomPlatform: [false, false, true, "only adds; a repeat is 409 already_exists (names are unique)"],
  updateCustomPlatform: [false, true, true, "its revision is the hash of its fields: equal fields, same row"],
  removeCustomPlatform: REMOVE,
  addCustomPublisher: [false, false, true, "only adds; a repeat is 409 already_exists (names are unique)"],
  updateCustomPublisher: [false, true, true, "its revision is the hash of its fields: equal fields, same row"],
  removeCustomPublisher: REMOVE,
  getPlayRecords: READ,
  addPlayRecord: [false, true, false, "a FREE/LIGHT replay replaces the record and its logs; a PREMIUM replay adds a cycle each time"],
  updatePlayRecord: [false, true, true, TOUCH_IF_CHANGED],
  removePlayRecord: REMOVE,
  getGamePlayHistory: READ,
  getPlayLogs: READ,
  addPlayLog: [false, false, false, "only adds (the record's totalPlayTime is their sum); a repeat adds a second session"],
  updatePlayLog: [false, true, false, BUMPS],
  removePlayLog: REMOVE,
  getConsoles: READ,
  addConsole: [false, false, false, "only adds; a repeat adds a second console"],
  updateConsole: [false, true, false, BUMPS],
  removeConsole: REMOVE,
  getConsoleMaintenanceLogs: READ,
  addConsoleMaintenanceLog: [false, false, false, "only adds; a repeat adds a second log"],
  updateConsoleMaintenanceLog: [false, true, false, BUMPS],
  removeConsoleMaintenanceLog: REMOVE,
  getTags: READ,
  addTag: [false, false, true, "only adds; a repeat is 409 already_exists (names are unique)"],
  updateTag: [false, true, true, TOUCH_IF_CHANGED],
  updateTagGames: [
    false,
    true,
    true,
    "remove and replace drop games; the set is written as a set and the revision moves only on a real change",
  ],
  removeTag: REMOVE,
  getCollections: READ,
  addCollection: [false, false, false, "only adds; names are not unique, so a repeat adds a second collection"],
  updateCollection: [false, true, true, TOUCH_IF_CHANGED],
  removeCollection: REMOVE,
  getCollectionGames: READ,
  listAttributes: READ,
  addAttribute: [false, false, true, "only adds; a repeat is 409 already_exists (labels are unique)"],
  removeAttribute: REMOVE,
  exportMyData: [false, false, true, "POST only, so not readOnly; it signs a link and writes nothing"],
  exportMasterData: [false, false, true, "POST only, so not readOnly; it signs a link and writes nothing"],
  importMyData: [false, true, false, "replace mode removes the dataset; each call starts another job"],
  getImportStatus: [false, false, false, "each call writes the job's next rows (merge rows only add)"],
};

const hintsOf = (name: string) => {
  const { readOnlyHint, destructiveHint, idempotentHint } = annotationsOf(tools.find((tool) => tool.name === name)!);
  return { readOnlyHint, destructiveHint, idempotentHint };
};

describe("the published annotations", () => {
  it("are the reviewed ones for every tool", () => {
    expect(Object.keys(REVIEWED).sort()).toEqual(tools.map((tool) => tool.name).sort());
    const differing = tools.flatMap((tool) => {
      const [readOnlyHint, destructiveHint, idempotentHint] = REVIEWED[tool.name as ToolName];
      const reviewed = { readOnlyHint, destructiveHint, idempotentHint };
      const published = hintsOf(tool.name);
      return JSON.stringify(published) === JSON.stringify(reviewed)
        ? []
        : [`${tool.name}: publishes ${JSON.stringify(published)}, reviewed ${JSON.stringify(reviewed)}`];
    });
    expect(differing).toEqual([]);
  });

  it("never call an update or a removal non-destructive, nor a read anything but read-only and idempotent", () => {
    for (const tool of tools) {
      const hints = hintsOf(tool.name);
      if (/^(update|remove|import)/.test(tool.name)) expect(hints.destructiveHint, tool.name).toBe(true);
      if (tool.kind === "read") expect(hints, tool.name).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
  });

  it("are the same in MCP tools/list (less MCP's defaults), the catalog and every OpenAPI operation", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    const client = await mcpClient(account.apiKey);
    const { tools: listed } = await client.listTools();
    await client.close();
    const catalog = (await send("/rest/v1/tools")).body.tools as { name: string; annotations: unknown }[];
    const openapi = (await send("/rest/v1/openapi.json")).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
    for (const tool of tools) {
      const expected = annotationsOf(tool);
      expect(catalog.find((entry) => entry.name === tool.name)?.annotations, `catalog ${tool.name}`).toEqual(expected);
      const operations = Object.entries(openapi.paths[`/rest/v1/${tool.name}`] ?? {});
      expect(operations.length, `OpenAPI ${tool.name}`).toBeGreaterThan(0);
      for (const [method, operation] of operations)
        expect(operation["x-svc-annotations"], `OpenAPI ${method} ${tool.name}`).toEqual(expected);
      const onMcp = listed.find((entry) => entry.name === tool.name);
      if (tool.restOnly) expect(onMcp, `${tool.name} is REST only`).toBeUndefined();
      else {
        // MCP leaves out what its defaults say (readOnlyHint false, destructiveHint true, idempotentHint
        // false; destructive and idempotent mean nothing for a read) and the catalog's title.
        const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = expected;
        expect(onMcp?.title, `MCP ${tool.name}`).toBeUndefined();
        const read = onMcp?.annotations ?? {};
        expect(read.readOnlyHint ?? false, `MCP ${tool.name}`).toBe(readOnlyHint);
        expect(read.openWorldHint, `MCP ${tool.name}`).toBe(openWorldHint);
        if (!readOnlyHint) {
          expect(read.destructiveHint ?? true, `MCP ${tool.name}`).toBe(destructiveHint);
          expect(read.idempotentHint ?? false, `MCP ${tool.name}`).toBe(idempotentHint);
        }
      }
    }
  });
});

// ---- By behaviour, against real D1 ----

const PLATFORM = 643001;
const game = (n: number) => 643100 + n;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "セージ機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson(
      Array.from({ length: 30 }, (_, i) =>
        fictionalGame({ gameId: game(i + 1), title: `セージの冒険${String(i + 1).padStart(2, "0")}`, platformId: PLATFORM }),
      ),
    ),
  });
}, 60_000);

/**
 * The rows that are the user's, per table, each as JSON, sorted. play_records.total_play_time is
 * left out: triggers keep it the sum of the record's logs, so a log added moves it by design.
 */
const USER_ROWS: Record<string, string> = {
  attributes: "user_id = ?1",
  library_entries: "user_id = ?1",
  wishlist_entries: "user_id = ?1",
  physical_copies: "user_id = ?1",
  consoles: "user_id = ?1",
  console_platforms: "console_id IN (SELECT id FROM consoles WHERE user_id = ?1)",
  maintenance_logs: "user_id = ?1",
  play_records: "user_id = ?1",
  play_logs: "user_id = ?1",
  tags: "user_id = ?1",
  tag_games: "tag_id IN (SELECT id FROM tags WHERE user_id = ?1)",
  collections: "user_id = ?1",
  collection_games: "collection_id IN (SELECT id FROM collections WHERE user_id = ?1)",
  games: "owner_user_id = ?1",
  platforms: "owner_user_id = ?1",
  companies: "owner_user_id = ?1",
  identifier_suggestions: "user_id = ?1",
};
const DERIVED: Record<string, string[]> = { play_records: ["total_play_time"] };

type Snapshot = Record<string, string[]>;

async function snapshot(userId: string): Promise<Snapshot> {
  const tables = Object.entries(USER_ROWS);
  const results = await env.DB.batch(tables.map(([table, where]) => env.DB.prepare(`SELECT * FROM ${table} WHERE ${where}`).bind(userId)));
  return Object.fromEntries(
    tables.map(([table], i) => {
      const rows = (results[i]!.results as Record<string, unknown>[]).map((row) => {
        for (const column of DERIVED[table] ?? []) delete row[column];
        return JSON.stringify(row);
      });
      return [table, rows.sort()];
    }),
  );
}

/** The rows of `before` that `after` no longer holds as they were (changed or gone). */
const lost = (before: Snapshot, after: Snapshot) =>
  Object.entries(before).flatMap(([table, rows]) => rows.filter((row) => !after[table]!.includes(row)).map((row) => `${table} ${row}`));

/** Timestamps have millisecond resolution: a pause makes a moved updatedAt visible. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

interface Seed {
  playId: string;
  consoleId: string;
}

interface Case {
  /** What the call is (several cases of one tool). */
  label?: string;
  /** Prepares the call's target on the shared account and answers its arguments. */
  args(p: Player, seed: Seed): Promise<Args>;
  /** An export: it signs a link and no row changes. */
  writesNothing?: true;
}

const body = async (p: Player, tool: string, args: Args) => ok(await p.call(tool, args), tool);
const addTagWith = async (p: Player, name: string, gameIds: number[]) => {
  const { tagId } = (await body(p, "addTag", { name })).item;
  const { revision } = await body(p, "updateTagGames", { tagId, mode: "add", gameIds });
  return { tagId, revision };
};

/**
 * A case for every write whose annotations promise something a repeat can break: it only adds
 * (destructiveHint false) or it is idempotent. Games 1 to 3 are in the library from the seed.
 */
const CASES: Partial<Record<ToolName, Case[]>> = {
  addToLibrary: [
    {
      label: "of a game on the wishlist",
      args: async (p) => {
        await body(p, "addToWishlist", { gameId: game(10) });
        return { gameId: game(10), rating: 4, memo: "買った" };
      },
    },
  ],
  updateLibraryEntry: [
    {
      args: async (p) => {
        await body(p, "addToLibrary", { gameId: game(11), rating: 1 });
        return { gameId: game(11), rating: 5, memo: "書き換え", buyPlace: "駿河屋" };
      },
    },
  ],
  removeFromLibrary: [
    {
      args: async (p) => {
        await body(p, "addToLibrary", { gameId: game(12) });
        await body(p, "addPlayRecord", { gameId: game(12) });
        return { gameId: game(12) };
      },
    },
  ],
  addToWishlist: [{ args: async () => ({ gameId: game(13), priority: 2, memo: "ほしい" }) }],
  updateWishlistEntry: [
    {
      args: async (p) => {
        await body(p, "addToWishlist", { gameId: game(19), priority: 1 });
        return { gameId: game(19), priority: 3, memo: "値下がり待ち" };
      },
    },
  ],
  removeFromWishlist: [
    {
      args: async (p) => {
        await body(p, "addToWishlist", { gameId: game(14) });
        return { gameId: game(14) };
      },
    },
  ],
  addPhysicalCopy: [
    {
      label: "additional with makeActive",
      args: async (p) => {
        const { revision } = await body(p, "addToLibrary", { gameId: game(15), rating: 3 });
        return { gameId: game(15), mode: "additional", makeActive: true, rating: 2, memo: "二本目", revision };
      },
    },
  ],
  updatePhysicalCopy: [
    {
      args: async (p) => {
        const added = await body(p, "addToLibrary", { gameId: game(16) });
        const copy = await body(p, "addPhysicalCopy", { gameId: game(16), mode: "materialize", revision: added.revision });
        return { physicalId: copy.item.physicalId, rating: 4, memo: "箱なし", revision: copy.revision };
      },
    },
  ],
  removePhysicalCopy: [
    {
      args: async (p) => {
        const added = await body(p, "addToLibrary", { gameId: game(17) });
        const copy = await body(p, "addPhysicalCopy", { gameId: game(17), mode: "additional", revision: added.revision });
        return { physicalId: copy.item.physicalId };
      },
    },
  ],
  addCustomGame: [{ args: async () => ({ title: "セージ外伝", platformId: PLATFORM }) }],
  updateCustomGame: [
    {
      args: async (p) => {
        const { gameId } = (await body(p, "addCustomGame", { title: "セージ改", platformId: PLATFORM })).item;
        return { gameId, title: "セージ改二", releaseDate: "1999-09-09" };
      },
    },
  ],
  removeCustomGame: [
    {
      args: async (p) => ({ gameId: (await body(p, "addCustomGame", { title: "セージ廃", platformId: PLATFORM })).item.gameId }),
    },
  ],
  addCustomPlatform: [{ args: async () => ({ name: "セージ試作機" }) }],
  updateCustomPlatform: [
    {
      args: async (p) => {
        const { platformId } = (await body(p, "addCustomPlatform", { name: "セージ改造機" })).item;
        return { platformId, name: "セージ改造機二", maker: "セージ社" };
      },
    },
  ],
  removeCustomPlatform: [
    { args: async (p) => ({ platformId: (await body(p, "addCustomPlatform", { name: "セージ廃棄機" })).item.platformId }) },
  ],
  addCustomPublisher: [{ args: async () => ({ name: "セージ工房" }) }],
  updateCustomPublisher: [
    {
      args: async (p) => {
        const { companyId } = (await body(p, "addCustomPublisher", { name: "セージ同人" })).item;
        return { companyId, name: "セージ同人会", nameKana: "せーじどうじんかい" };
      },
    },
  ],
  removeCustomPublisher: [
    { args: async (p) => ({ companyId: (await body(p, "addCustomPublisher", { name: "セージ解散" })).item.companyId }) },
  ],
  removePlayRecord: [
    {
      args: async (p) => {
        await body(p, "addToLibrary", { gameId: game(18) });
        return { playId: (await body(p, "addPlayRecord", { gameId: game(18) })).playId };
      },
    },
  ],
  updatePlayRecord: [
    {
      args: async (p) => {
        await body(p, "addToLibrary", { gameId: game(20) });
        const { playId } = await body(p, "addPlayRecord", { gameId: game(20) });
        return { playId, status: "PLAYING", rating: 4, memo: "二周目", userLinks: [{ name: "攻略", url: "https://example.com/a" }] };
      },
    },
  ],
  addPlayLog: [{ args: async (_, seed) => ({ playId: seed.playId, playTime: 15, playDate: "2024-03-03", memo: "中盤" }) }],
  removePlayLog: [
    {
      args: async (p, seed) => ({ playLogId: (await body(p, "addPlayLog", { playId: seed.playId, playTime: 5 })).item.playLogId }),
    },
  ],
  addConsole: [{ args: async () => ({ name: "セージ携帯", platformPriorities: [{ platformId: PLATFORM, priority: 2 }] }) }],
  removeConsole: [{ args: async (p) => ({ consoleId: (await body(p, "addConsole", { name: "セージ廃棄" })).item.consoleId }) }],
  addConsoleMaintenanceLog: [{ args: async (_, seed) => ({ consoleId: seed.consoleId, title: "電池交換", status: "DONE" }) }],
  removeConsoleMaintenanceLog: [
    {
      args: async (p, seed) => {
        const log = await body(p, "addConsoleMaintenanceLog", { consoleId: seed.consoleId, title: "掃除" });
        return { consoleId: seed.consoleId, maintenanceLogId: log.item.maintenanceLogId };
      },
    },
  ],
  addTag: [{ args: async () => ({ name: "セージ新", color: "#112233" }) }],
  updateTag: [
    {
      args: async (p) => {
        const { tagId } = (await body(p, "addTag", { name: "セージ変" })).item;
        return { tagId, description: "説明", color: "#445566" };
      },
    },
  ],
  updateTagGames: [
    {
      label: "add",
      args: async (p) => ({ tagId: (await addTagWith(p, "セージ足", [game(1)])).tagId, mode: "add", gameIds: [game(2), game(3)] }),
    },
    {
      label: "remove",
      args: async (p) => ({
        tagId: (await addTagWith(p, "セージ引", [game(1), game(2), game(3)])).tagId,
        mode: "remove",
        gameIds: [game(1)],
      }),
    },
    {
      label: "replace",
      args: async (p) => {
        const { tagId, revision } = await addTagWith(p, "セージ替", [game(1), game(2)]);
        return { tagId, mode: "replace", gameIds: [game(3)], revision };
      },
    },
  ],
  removeTag: [{ args: async (p) => ({ tagId: (await addTagWith(p, "セージ消", [game(1)])).tagId }) }],
  addCollection: [{ args: async () => ({ name: "セージ全集", type: "INDIVIDUAL", purpose: "LIBRARY", gameIds: [game(1), game(2)] }) }],
  updateCollection: [
    {
      label: "name and description",
      args: async (p) => {
        const { collectionId } = (await body(p, "addCollection", { name: "セージ選集", type: "INDIVIDUAL", gameIds: [game(1)] })).item;
        return { collectionId, name: "セージ選集二", description: "説明" };
      },
    },
    {
      label: "its games, with the revision",
      args: async (p) => {
        const { collectionId, revision } = (await body(p, "addCollection", { name: "セージ撰", type: "INDIVIDUAL", gameIds: [game(1)] }))
          .item;
        return { collectionId, gameIds: [game(2), game(3)], revision };
      },
    },
  ],
  removeCollection: [
    {
      args: async (p) => ({
        collectionId: (await body(p, "addCollection", { name: "セージ解", type: "INDIVIDUAL", gameIds: [game(1)] })).item.collectionId,
      }),
    },
  ],
  addAttribute: [{ args: async () => ({ label: "セージ印二" }) }],
  suggestGameIdentifier: [{ args: async () => ({ gameId: game(5), kind: "modelNumber", value: "SAGE-643-X" }) }],
  removeAttribute: [
    {
      args: async (p) => {
        const { id } = (await body(p, "addAttribute", { label: "セージ消印" })).item;
        await body(p, "updateLibraryEntry", { gameId: game(3), attributes: [id] });
        return { attribute: id };
      },
    },
  ],
  exportMyData: [{ args: async () => ({ dataset: "library", format: "json" }), writesNothing: true }],
  exportMasterData: [{ args: async () => ({ dataset: "platforms" }), writesNothing: true }],
};

/** Writes that promise something but are not exercised here, and why. */
const NOT_EXERCISED: Partial<Record<ToolName, string>> = {
  getImportStatus:
    "it writes only while an upload of more than one step's rows is processing; test/tools/imports/importMyData.test.ts holds that merge rows only add",
};

describe("by behaviour", () => {
  let p: Player;
  let seed: Seed;

  beforeAll(async () => {
    // Five keys: burst limits are per key, and the cases make a few hundred calls.
    p = await player({ plan: "PREMIUM" }, 4);
    // Something of everything, so that a tool which touched what the user had would show it.
    const label = (await body(p, "addAttribute", { label: "セージ印" })).item.id;
    const revisions: string[] = [];
    for (const n of [1, 2, 3]) {
      revisions.push((await body(p, "addToLibrary", { gameId: game(n), rating: n, memo: `seed ${n}`, attributes: [label] })).revision);
    }
    await body(p, "addToWishlist", { gameId: game(4), priority: 1 });
    const { playId } = await body(p, "addPlayRecord", { gameId: game(1), status: "PLAYING" });
    await body(p, "addPlayLog", { playId, playTime: 30 });
    const { consoleId } = (await body(p, "addConsole", { name: "セージ本体", platformPriorities: [{ platformId: PLATFORM, priority: 1 }] }))
      .item;
    await body(p, "addConsoleMaintenanceLog", { consoleId, title: "清掃" });
    await addTagWith(p, "セージ", [game(1), game(2)]);
    await body(p, "addCollection", { name: "セージ集", type: "INDIVIDUAL", gameIds: [game(1), game(2)] });
    await body(p, "addCustomPlatform", { name: "セージ自作機" });
    await body(p, "addCustomPublisher", { name: "セージ同好会" });
    await body(p, "addCustomGame", { title: "セージ自作", platformId: PLATFORM });
    await body(p, "addPhysicalCopy", { gameId: game(2), mode: "materialize", revision: revisions[1] });
    seed = { playId, consoleId };
  }, 60_000);

  it("has a case for every write whose annotations promise something", () => {
    const promising = tools
      .filter((tool) => {
        const hints = hintsOf(tool.name);
        return !hints.readOnlyHint && (!hints.destructiveHint || hints.idempotentHint);
      })
      .map((tool) => tool.name);
    expect([...Object.keys(CASES), ...Object.keys(NOT_EXERCISED)].sort()).toEqual(promising.sort());
  });

  const runs = Object.entries(CASES).flatMap(([tool, cases]) => cases!.map((c) => ({ tool, ...c, label: c.label ?? "" })));
  it.each(runs)("$tool $label", async ({ tool, args: argsOf, writesNothing }) => {
    const { destructiveHint, idempotentHint } = hintsOf(tool);
    const twoStep = tools.find((t) => t.name === tool)!.kind === "delete";
    const args = await argsOf(p, seed);
    const before = await snapshot(p.account.userId);

    // The call, as a client makes it: a two-step removal is previewed (twice: previews change nothing) and then confirmed.
    let call = args;
    if (twoStep) {
      okPreview(await p.call(tool, args), tool);
      const { confirmToken } = okPreview(await p.call(tool, args), tool);
      expect(await snapshot(p.account.userId), `${tool}: a preview changed rows`).toEqual(before);
      call = { ...args, confirmToken };
    }
    okDone(await p.call(tool, call), tool);
    const first = await snapshot(p.account.userId);
    if (writesNothing) expect(first, `${tool} wrote rows`).toEqual(before);
    else expect(first, `${tool} changed nothing: the case does not exercise it`).not.toEqual(before);

    // The same call again, a moment later.
    await tick();
    const again = await p.call(tool, call);
    expect(again.status, JSON.stringify(again.body)).toBeLessThan(500);
    const second = await snapshot(p.account.userId);

    if (!destructiveHint) {
      expect(lost(before, first), `${tool} says it only adds, but changed or removed rows`).toEqual([]);
      expect(lost(first, second), `${tool} says it only adds, but its repeat changed or removed rows`).toEqual([]);
    }
    if (idempotentHint) expect(second, `${tool} says it is idempotent, but its repeat changed rows`).toEqual(first);
  });
});
