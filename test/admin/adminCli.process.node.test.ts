// `npm run admin` (scripts/admin.mjs) as a terminal user meets it. Runs in Node (the "processes"
// project of vitest.config.ts), not workerd, against a stand-in operator API served here, which
// records the requests and answers like src/admin/adminRoutes.ts. What needs a process of its own
// spawns the CLI (`admin`): the exit code the shell sees, stdout kept apart from stderr, a terminal,
// the folder import's TypeScript loader. The arguments, the usage and the requests they make run
// the same code in this process (`cli`: runAdminCli, which scripts/admin.mjs calls), each spawn
// costing a Node start and the CLI's modules.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_EXPIRY_DAYS, KEY_PRESET_CHOICES } from "../../src/accounts/apiKeys";
import { KEY_PRESETS, PLANS, SCOPES } from "../../src/platform/plans";
import { MASTER_DATASETS } from "../../src/tools/games/masterRows";
import { SUGGESTION_STATUSES } from "../../src/tools/identifiers/items";

interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

const TOKEN = "cli-test-token";
let server: Server;
let baseUrl: string;
let dir: string;
let requests: Recorded[] = [];
/** Answers a recorded request; the default acts like a healthy operator API. */
let answer: (request: Recorded) => [number, unknown] = defaultAnswer;

function defaultAnswer({ method, path, body }: Recorded): [number, unknown] {
  if (method === "POST" && path.startsWith("/admin/v1/master/")) {
    const received = body.split("\n").filter((l) => l !== "").length;
    return [200, { dataset: path.split("/").at(-1), received, upserted: received, unchanged: 0, generation: "g1" }];
  }
  if (path.startsWith("/admin/v1/users/usr_missing")) {
    return [404, { code: "not_found", message: "The user was not found.", requestId: "req_1" }];
  }
  return [200, { ok: true, method, path }];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rgc-cli-"));
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const recorded = { method: req.method!, path: req.url!, authorization: req.headers.authorization, body };
      requests.push(recorded);
      const [status, json] = answer(recorded);
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node scripts/admin.mjs ...args` (as `npm run admin -- ...args` does) against the stand-in. */
function admin(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  requests = [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/admin.mjs", ...args], {
      env: { ...process.env, RGC_BASE_URL: baseUrl, ADMIN_TOKEN: TOKEN, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

// @ts-expect-error: a plain ES module without type declarations
const { runAdminCli } = (await import("../../scripts/lib/adminCli.mjs")) as {
  runAdminCli: (argv: string[], streams: { stdout: object; stderr: object }) => Promise<number>;
};

/** A stream that keeps what is written to it, as a pipe would (not a terminal). */
function collector() {
  const stream = {
    text: "",
    isTTY: false,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream;
}

/** Runs the CLI on `args` in this process, with the environment `admin` gives its child (`undefined` unsets). */
async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  requests = [];
  const variables = { RGC_BASE_URL: baseUrl, ADMIN_TOKEN: TOKEN, ...env };
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  const setAll = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  const stdout = collector();
  const stderr = collector();
  setAll(variables);
  try {
    const code = await runAdminCli(args, { stdout, stderr });
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    setAll(saved);
  }
}

const bodyOf = (index = 0) => JSON.parse(requests[index]!.body) as unknown;

describe("--help", () => {
  it("prints the overview and exits 0, without a stack trace", async () => {
    const run = await admin(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: npm run admin --");
    const lines = "users list|users create|users update|users invite|keys list|keys create|keys revoke|master import|master load".split(
      "|",
    );
    for (const line of lines) {
      expect(run.stdout).toContain(line);
    }
    expect(run.stdout + run.stderr).not.toMatch(/\bat .*\.m?js:\d+/);
  });

  it.each([
    ["users"],
    ["users", "list"],
    ["users", "create"],
    ["users", "update"],
    ["users", "invite"],
    ["keys"],
    ["keys", "list"],
    ["keys", "create"],
    ["keys", "revoke"],
    ["master"],
    ["master", "import"],
  ])("answers %s %s --help with that command's usage", async (...command) => {
    const run = await cli([...command, "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: npm run admin -- ${command.join(" ")}`);
    expect(requests).toEqual([]);
  });

  it("documents the choices where they are used", async () => {
    expect((await cli(["users", "create", "--help"])).stdout).toMatch(/FREE.*LIGHT.*PREMIUM/s);
    expect((await cli(["keys", "create", "--help"])).stdout).toMatch(
      /viewOnly.*standard.*individual.*full:\s+individual\s+with\s+every\s+scope.*--expires-in-days.*30, 90 or 365/s,
    );
    expect((await cli(["users", "invite", "--help"])).stdout).toMatch(/one-time link.*72 hours.*passkey/s);
    expect((await cli(["master", "import", "--help"])).stdout).toMatch(/platforms.*companies.*genres.*games/s);
  });
});

describe("usage errors exit 2 and send nothing", () => {
  it.each([
    ["no command", []],
    ["an unknown command", ["frob"]],
    ["a noun without a verb", ["users"]],
    ["an unknown option", ["users", "list", "--bogus"]],
    ["an extra argument", ["users", "list", "extra"]],
    ["--suspended yes", ["users", "update", "usr_1", "--suspended", "yes"]],
    ["--suspended 1", ["users", "update", "usr_1", "--suspended", "1"]],
    ["--suspended TRUE", ["users", "update", "usr_1", "--suspended", "TRUE"]],
    ["users update with nothing to change", ["users", "update", "usr_1"]],
    ["a missing --plan", ["users", "create"]],
    ["an unknown plan", ["users", "create", "--plan", "GOLD"]],
    ["a lower-case plan", ["users", "create", "--plan", "free"]],
    ["an unknown preset", ["keys", "create", "usr_1", "--preset", "admin"]],
    ["a missing --preset", ["keys", "create", "usr_1"]],
    ["an unknown scope", ["keys", "create", "usr_1", "--preset", "individual", "--scopes", "library:read,games:write"]],
    ["individual without --scopes", ["keys", "create", "usr_1", "--preset", "individual"]],
    ["--scopes with another preset", ["keys", "create", "usr_1", "--preset", "standard", "--scopes", "library:read"]],
    ["--scopes with the full preset", ["keys", "create", "usr_1", "--preset", "full", "--scopes", "library:read"]],
    ["a missing key id", ["keys", "revoke"]],
    ["an expiry other than 30, 90 or 365 days", ["keys", "create", "usr_1", "--preset", "standard", "--expires-in-days", "7"]],
    ["users invite without a user", ["users", "invite"]],
    ["users invite with an extra argument", ["users", "invite", "usr_1", "usr_2"]],
    ["keys list without a user", ["keys", "list"]],
    ["keys list --page 0", ["keys", "list", "usr_1", "--page", "0"]],
    ["an unknown dataset", ["master", "import", "movies", "x.ndjson"]],
    ["a missing file", ["master", "import", "games", "/nonexistent/games.ndjson"]],
    ["--page 0", ["users", "list", "--page", "0"]],
    ["--limit ten", ["users", "list", "--limit", "ten"]],
  ])("%s", async (_name, args) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error|Usage/);
    expect(run.stderr).not.toMatch(/\bat .*\.m?js:\d+/);
    expect(requests).toEqual([]);
  });

  it.each([
    ["commander's", ["users", "create", "--plan", "GOLD"]],
    ["the CLI's own", ["users", "update", "usr_1"]],
  ])("end the process with exit code 2, %s message on stderr and nothing on stdout", async (_name, args) => {
    const run = await admin(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: .*\n\(add --help for usage\)\n$/);
    expect(run.stdout).toBe("");
    expect(requests).toEqual([]);
  });

  it("names the accepted values", async () => {
    expect((await cli(["users", "update", "usr_1", "--suspended", "yes"])).stderr).toContain("Give true or false");
    expect((await cli(["users", "create", "--plan", "GOLD"])).stderr).toContain("FREE, LIGHT, PREMIUM");
    const scopes = await cli(["keys", "create", "usr_1", "--preset", "individual", "--scopes", "games:write"]);
    expect(scopes.stderr).toContain("'games:write'");
    expect(scopes.stderr).toContain(SCOPES.join(", "));
  });

  it("says where to get an operator token when there is none", async () => {
    const run = await cli(["users", "list"], { ADMIN_TOKEN: "" }); // set but empty: no local file is read
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("set ADMIN_TOKEN, give --token-file <file>, run the command in a terminal to be asked for it");
    expect(requests).toEqual([]);
  });
});

describe("the operator token", () => {
  const FILE_TOKEN = "file-token-$HOME-not-expanded";

  function tokenFile(name: string, text: string) {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, 0o600);
    return path;
  }

  it("is read from --token-file (first line, before or after the command), which wins over ADMIN_TOKEN", async () => {
    const path = tokenFile("token", `${FILE_TOKEN}\n`);
    for (const args of [
      ["--token-file", path, "users", "list"],
      ["users", "list", "--token-file", path],
    ]) {
      const run = await cli(args);
      expect(run.code, run.stderr).toBe(0);
      expect(requests[0]!.authorization).toBe(`Bearer ${FILE_TOKEN}`);
      expect(run.stdout + run.stderr).not.toContain(FILE_TOKEN);
    }
  });

  it.each([
    ["a missing file", () => join(dir, "no-such-token"), "cannot read"],
    ["an empty file", () => tokenFile("empty-token", "\n"), "is empty"],
  ])("is a usage error with %s, and nothing is sent", async (_name, path, message) => {
    const run = await cli(["users", "list", "--token-file", path()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--token-file: `);
    expect(run.stderr).toContain(message);
    expect(requests).toEqual([]);
  });

  it("is never asked for, read or sent by --help and usage errors", async () => {
    const run = await cli(["keys", "create", "usr_1", "--token-file", join(dir, "no-such-token")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--preset");
    expect(run.stderr).not.toContain("--token-file: ");
  });

  // `script` gives the CLI a terminal, so it asks; what is typed is not echoed back.
  const hasScript = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!hasScript)("is asked for on a terminal without echoing it when neither the environment nor a file gives it", async () => {
    requests = [];
    const typed = "typed-secret-1x";
    const child = spawn("script", ["-qec", `${process.execPath} scripts/admin.mjs users list`, "/dev/null"], {
      env: { ...process.env, RGC_BASE_URL: baseUrl.replace("127.0.0.1", "host.invalid"), ADMIN_TOKEN: undefined },
      stdio: ["pipe", "pipe", "pipe"],
    });
    // host.invalid is not this machine, so no local token file is read; it resolves nowhere, and the
    // request fails after the token was asked for (the stand-in server sees nothing).
    // Typed once the prompt shows, as a person would: the terminal is in raw mode by then (typed
    // earlier, a loaded machine's slow start would leave it echoing what is typed).
    const prompt = "Operator token (ADMIN_TOKEN) for http://host.invalid";
    let output = "";
    const asked = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk) => {
        output += chunk;
        if (output.includes(prompt)) resolve();
      }),
    );
    const closed = new Promise((resolve) => child.on("close", resolve));
    await asked;
    child.stdin.write(`${typed}x\u007f\r`); // one character too many, then Backspace
    const code = await closed;
    expect(output).toContain(prompt);
    expect(output).not.toContain(typed);
    expect(output).toContain("cannot reach http://host.invalid");
    expect(code).toBe(1);
  });
});

describe("commands send what the operator API expects", () => {
  it.each([
    [["users", "list"], "GET", "/admin/v1/users?", undefined],
    [["users", "list", "--page", "2", "--limit", "10"], "GET", "/admin/v1/users?page=2&limit=10", undefined],
    [["users", "create", "--plan", "LIGHT", "--name", "alice"], "POST", "/admin/v1/users", { plan: "LIGHT", name: "alice" }],
    [["users", "update", "usr_1", "--plan", "PREMIUM"], "PATCH", "/admin/v1/users/usr_1", { plan: "PREMIUM" }],
    [["users", "update", "usr_1", "--suspended", "true"], "PATCH", "/admin/v1/users/usr_1", { suspended: true }],
    [["users", "update", "usr_1", "--suspended", "false"], "PATCH", "/admin/v1/users/usr_1", { suspended: false }],
    [["keys", "create", "usr_1", "--preset", "standard"], "POST", "/admin/v1/users/usr_1/keys", { preset: "standard" }],
    [
      ["keys", "create", "usr_1", "--preset", "individual", "--scopes", "library:read,library:delete", "--name", "k"],
      "POST",
      "/admin/v1/users/usr_1/keys",
      { preset: "individual", name: "k", scopes: ["library:read", "library:delete"] },
    ],
    [["keys", "revoke", "key_1"], "DELETE", "/admin/v1/keys/key_1", undefined],
    // full, the name npm run dev prints for the demo's key that may also remove: individual with every scope.
    [["keys", "create", "usr_1", "--preset", "full"], "POST", "/admin/v1/users/usr_1/keys", { preset: "individual", scopes: [...SCOPES] }],
    [
      ["keys", "create", "usr_1", "--preset", "viewOnly", "--expires-in-days", "90"],
      "POST",
      "/admin/v1/users/usr_1/keys",
      { preset: "viewOnly", expiresInDays: 90 },
    ],
    [["keys", "list", "usr_1"], "GET", "/admin/v1/users/usr_1/keys?", undefined],
    [["keys", "list", "usr_1", "--page", "3", "--limit", "20"], "GET", "/admin/v1/users/usr_1/keys?page=3&limit=20", undefined],
    [["users", "invite", "usr_1"], "POST", "/admin/v1/users/usr_1/invites", undefined],
    [["identifiers", "list"], "GET", "/admin/v1/identifiers?", undefined],
    [["identifiers", "list", "--status", "rejected", "--page", "2"], "GET", "/admin/v1/identifiers?status=rejected&page=2", undefined],
    [["identifiers", "approve", "sug_1"], "POST", "/admin/v1/identifiers/sug_1/approve", undefined],
    [["identifiers", "reject", "sug_1", "--reason", "別の版"], "POST", "/admin/v1/identifiers/sug_1/reject", { reason: "別の版" }],
  ])("%j", async (args, method, path, body) => {
    const run = await cli(args);
    expect(run.code, run.stderr).toBe(0);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method, path, authorization: `Bearer ${TOKEN}` });
    if (body !== undefined) expect(bodyOf()).toEqual(body);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true });
  });

  it("lists users in the order the help names, the operator API's order (oldest first)", async () => {
    expect((await cli(["users", "list", "--help"])).stdout).toContain("oldest first");
    expect((await cli(["--help"])).stdout).toMatch(/users list .*\(oldest first\)/);
  });

  it.each([
    ["users", "invite"],
    ["keys", "list"],
  ])("exits 1 with the server's 404 for %s %s of an unknown user", async (...command) => {
    const run = await cli([...command, "usr_missing"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("404");
    expect(run.stdout).toBe("");
  });

  it("exits 1 with the server's answer when the server refuses", async () => {
    const run = await admin(["users", "update", "usr_missing", "--plan", "FREE"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("404");
    expect(run.stderr).toContain("not_found");
    expect(run.stdout).toBe("");
  });

  it("exits 1 and says what to check when no server answers", async () => {
    const run = await admin(["users", "list"], { RGC_BASE_URL: "http://127.0.0.1:9" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(run.stderr).not.toMatch(/\bat .*\.m?js:\d+/);
  });
});

describe("master load", () => {
  it("imports a master folder in dataset order, the games with the model numbers of serials.ndjson merged in", async () => {
    const folder = join(dir, "catalog");
    mkdirSync(folder);
    const game = { gameId: 1, title: "悪魔城伝説", modelNumber: [], editions: [{ gameEditionId: 7, title: "Rev 1", modelNumber: [] }] };
    const files: Record<string, object[]> = {
      platforms: [{ platformId: 1, name: "ファミリーコンピュータ" }],
      companies: [{ companyId: 1, name: "コナミ" }],
      genres: [{ genreId: 1, name: "アクション", parentId: null, taxonomyKey: "action" }],
      games: [game],
      serials: [
        { gameId: 1, gameEditionId: null, modelNumber: ["KDS-UX"] },
        { gameId: 1, gameEditionId: 7, modelNumber: ["KDS-UX-R1"] },
      ],
    };
    for (const [name, rows] of Object.entries(files)) {
      writeFileSync(join(folder, `${name}.ndjson`), rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
    }
    const run = await admin(["master", "load", folder]);
    expect(run.code, run.stderr).toBe(0);
    expect(requests.map((r) => r.path)).toEqual(["platforms", "companies", "genres", "games"].map((d) => `/admin/v1/master/${d}`));
    expect(JSON.parse(requests[3]!.body)).toMatchObject({
      modelNumber: ["KDS-UX"],
      editions: [{ gameEditionId: 7, modelNumber: ["KDS-UX-R1"] }],
    });
    expect(JSON.parse(run.stdout)).toHaveLength(4);
  });

  it("is a usage error (exit 2, nothing sent) when a dataset file is missing", async () => {
    const run = await cli(["master", "load", join(dir, "nowhere")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("master load: no platforms.ndjson");
    expect(requests).toHaveLength(0);
  });
});

describe("master import", () => {
  /** `count` platform rows, blank lines at the given (1-based) file lines. */
  function ndjsonFile(name: string, count: number, blankLines: number[] = []) {
    const lines: string[] = [];
    for (let id = 1; id <= count; id++) {
      while (blankLines.includes(lines.length + 1)) lines.push("");
      lines.push(JSON.stringify({ platformId: id, name: `P${id}` }));
    }
    const path = join(dir, name);
    writeFileSync(path, `${lines.join("\n")}\n`);
    return path;
  }

  it("sends 2,000 lines per request, sums the counts and prints one progress line per request off a TTY", async () => {
    const file = ndjsonFile("platforms.ndjson", 4_500, [3]);
    const run = await admin(["master", "import", "platforms", file]);
    expect(run.code, run.stderr).toBe(0);
    expect(requests.map((r) => r.body.split("\n").filter((l) => l !== "").length)).toEqual([2_000, 2_000, 500]);
    expect(requests[0]!.path).toBe("/admin/v1/master/platforms");
    expect(JSON.parse(run.stdout)).toEqual({ dataset: "platforms", received: 4_500, upserted: 4_500, unchanged: 0, generation: "g1" });
    const progress = run.stderr.trim().split("\n");
    expect(progress).toHaveLength(3);
    expect(progress[0]).toMatch(/^platforms: 2,000\/4,500 rows \(44%\), [\d,]+ rows\/s, ETA /);
    expect(progress[2]).toMatch(/^platforms: 4,500\/4,500 rows \(100%\), [\d,]+ rows\/s, ETA 0 s$/);
  });

  it("sends fewer lines per request where 2,000 would pass the server's 8 MiB, counted in bytes", async () => {
    // Three rows of 1 Mi three-byte characters (3 MiB each): two fit in 8 MiB, the third does not.
    const rows = [1, 2, 3].map((id) => JSON.stringify({ platformId: id, name: "機".repeat(1024 * 1024) }));
    const file = join(dir, "wide.ndjson");
    writeFileSync(file, `${rows.join("\n")}\n`);
    const run = await cli(["master", "import", "platforms", file]);
    expect(run.code, run.stderr).toBe(0);
    expect(requests.map((r) => r.body.split("\n").filter((l) => l !== "").length)).toEqual([2, 1]);
    for (const request of requests) expect(Buffer.byteLength(request.body)).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(JSON.parse(run.stdout).received).toBe(3);
  });

  it("names the line of the file when the server refuses a line of a later request", async () => {
    // Blank lines at 3 and 10 are not sent: file line 4,321 is body line 4,321 - 2 - 4,000 = 319.
    const file = ndjsonFile("bad.ndjson", 4_500, [3, 10]);
    answer = (request) => {
      if (request.body.split("\n")[318] === JSON.stringify({ platformId: 4_319, name: "P4319" })) {
        return [400, { code: "invalid_input", message: "line 319: name: Too big", field: "name", line: 319, requestId: "req_2" }];
      }
      return defaultAnswer(request);
    };
    try {
      const run = await cli(["master", "import", "platforms", file]);
      expect(run.code).toBe(1);
      expect(requests).toHaveLength(3);
      expect(run.stderr).toContain("bad.ndjson line 4321: name: Too big");
      expect(run.stderr).not.toContain("line 319");
      expect(run.stderr).toContain("The 4,000 rows before line 4003 were imported");
    } finally {
      answer = defaultAnswer;
    }
  });

  it("counts a refusal in the first request from the top of the file too", async () => {
    const file = ndjsonFile("first.ndjson", 10, [1, 2]);
    answer = () => [400, { code: "invalid_input", message: "line 5: (row): not readable as JSON", field: "(row)", line: 5 }];
    try {
      const run = await cli(["master", "import", "platforms", file]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("first.ndjson line 7: (row): not readable as JSON");
      expect(run.stderr).toContain("Nothing was imported");
    } finally {
      answer = defaultAnswer;
    }
  });

  it("refuses an empty file as a usage error", async () => {
    const path = join(dir, "empty.ndjson");
    writeFileSync(path, "\n\n");
    const run = await cli(["master", "import", "genres", path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("holds no rows");
    expect(requests).toEqual([]);
  });
});

describe("the CLI's lists", () => {
  it("match the server's plans, presets, scopes and datasets", async () => {
    // @ts-expect-error: a plain ES module without type declarations
    const cli = (await import("../../scripts/lib/adminCli.mjs")) as Record<string, readonly string[]>;
    expect(cli.PLANS).toEqual([...PLANS]);
    expect(cli.SCOPES).toEqual([...SCOPES]);
    expect(cli.PRESETS).toEqual([...Object.keys(KEY_PRESETS), "individual"]);
    expect(cli.PRESETS).toEqual([...KEY_PRESET_CHOICES]);
    expect(cli.KEY_EXPIRY_DAYS).toEqual(KEY_EXPIRY_DAYS.map(String));
    expect(cli.SUGGESTION_STATUSES).toEqual([...SUGGESTION_STATUSES]);
    // @ts-expect-error: likewise
    const { MASTER_DATASETS: cliDatasets } = (await import("../../scripts/lib/masterImport.mjs")) as { MASTER_DATASETS: string[] };
    expect(cliDatasets).toEqual(Object.keys(MASTER_DATASETS));
  });
});
