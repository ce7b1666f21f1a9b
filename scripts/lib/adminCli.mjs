// The operator CLI behind `npm run admin`, built with commander: every command and subcommand has
// --help, values are checked before anything is sent (plans, presets, scopes, datasets, true/false,
// page numbers), and the exit code tells a usage error (2) from a failure at the server (1). The
// operator token is never an argument (argv shows in `ps`) and never printed.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { adminFetch, adminToken, baseUrl } from "./local.mjs";
import { importCatalog, importNdjsonFile, MASTER_DATASETS, readNdjsonLines } from "./masterImport.mjs";

/** Mirrors src/platform/plans.ts (test/admin/adminCli.process.node.test.ts keeps them equal). */
export const PLANS = ["FREE", "LIGHT", "PREMIUM"];
export const PRESETS = ["viewOnly", "standard", "individual"];
export const SCOPES = ["library:read", "library:write", "library:delete", "play:read", "play:write", "play:delete", "games:read"];
/** The CLI's name (and the demo key's, printed by `npm run dev`) for individual settings with every scope. */
export const FULL_PRESET = "full";

/** The operator API's key choice for `--preset`: `full` is sent as individual with every scope. */
export const keyChoice = ({ preset, scopes, ...rest }) =>
  preset === FULL_PRESET ? { preset: "individual", ...rest, scopes: SCOPES } : { preset, ...rest, scopes };
/** Mirrors KEY_EXPIRY_DAYS of src/accounts/apiKeys.ts. */
export const KEY_EXPIRY_DAYS = ["30", "90", "365"];
/** Mirrors SUGGESTION_STATUSES of src/tools/identifiers/items.ts. */
export const SUGGESTION_STATUSES = ["open", "approved", "rejected"];

export const EXIT_OK = 0;
export const EXIT_SERVER = 1;
export const EXIT_USAGE = 2;

/** A mistake on the command line (or in what it names): exit code 2, nothing sent. */
export class UsageError extends Error {}

function strictBoolean(text) {
  if (text === "true") return true;
  if (text === "false") return false;
  throw new InvalidArgumentError("Give true or false.");
}

function positiveInteger(text) {
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new InvalidArgumentError("Give a whole number from 1 up.");
  return Number(text);
}

function expiryDays(text) {
  if (!KEY_EXPIRY_DAYS.includes(text)) throw new InvalidArgumentError(`Give ${KEY_EXPIRY_DAYS.join(", ")} (days).`);
  return Number(text);
}

function scopeList(text) {
  const scopes = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = scopes.filter((s) => !SCOPES.includes(s));
  if (scopes.length === 0) throw new InvalidArgumentError(`Give one or more of ${SCOPES.join(", ")}, comma-separated.`);
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`Unknown scope ${unknown.map((s) => `'${s}'`).join(", ")}; known: ${SCOPES.join(", ")}.`);
  }
  return [...new Set(scopes)];
}

const compact = (object) => Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));

const OVERVIEW_HELP = `
All commands:
  users list [--page N] [--limit N]  (oldest first)
  users create --plan FREE|LIGHT|PREMIUM [--name NAME]
  users update <userId> [--plan PLAN] [--suspended true|false]
  users invite <userId>            (a one-time link, valid 72 h, to register a passkey: sign-up or recovery)
  keys list <userId> [--page N] [--limit N]
  keys create <userId> --preset viewOnly|standard|individual|full [--scopes a,b] [--name NAME] [--expires-in-days 30|90|365]
  keys revoke <keyId>
  master import platforms|companies|genres|games <file.ndjson>
  master load [dir]                (a whole master folder; default seed/master, the default catalog)
  identifiers list [--status open|approved|rejected] [--page N] [--limit N]  (oldest first)
  identifiers approve <suggestionId>
  identifiers reject <suggestionId> [--reason TEXT]
Every command has --help, e.g. npm run admin -- keys create --help
`;

const ENVIRONMENT_HELP = `
The operator token: from --token-file, else ADMIN_TOKEN, else (for a server on this machine)
ADMIN_TOKEN in .dev.vars or the one npm run dev generated (.wrangler/local-secrets.env), else
asked for on the terminal, not echoed.

Environment:
  RGC_BASE_URL   the server (default http://127.0.0.1:$PORT, PORT default 8787)
  ADMIN_TOKEN    the operator token

Exit codes: 0 done, 1 the server refused or could not be reached, 2 usage error.
Results are printed as JSON on stdout; import progress goes to stderr.`;

/**
 * Asks on the terminal without echoing what is typed (the terminal in raw mode, so its own echo is
 * off); Ctrl-C gives up. Backspace removes the last character.
 */
function promptHidden(question, { input = process.stdin, output = process.stderr } = {}) {
  // Echo off before the question shows: a token typed or pasted the moment it appears stays hidden.
  input.setRawMode(true);
  output.write(question);
  input.setEncoding("utf8");
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const finish = (settle) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      output.write("\n");
      settle();
    };
    const onData = (chunk) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish(() => resolve(typed));
        if (char === "\u0003") return finish(() => reject(new UsageError("cancelled: no operator token given.")));
        typed = char === "\u007f" || char === "\b" ? typed.slice(0, -1) : typed + char;
      }
    };
    input.on("data", onData);
  });
}

const NO_TOKEN =
  "no operator token: set ADMIN_TOKEN, give --token-file <file>, run the command in a terminal to be asked for it, " +
  "or for a local server run `npm run dev` once (it generates one in .wrangler/local-secrets.env).";

/** The server is on this machine, so the token `npm run dev` uses (.dev.vars, or the one it generated) is its token. */
const serverIsLocal = () => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(baseUrl()).hostname);

function readTokenFile(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--token-file: cannot read ${path} (${error.code ?? error.message}).`);
  }
  const token = text.trim();
  if (token === "") throw new UsageError(`--token-file: ${path} is empty.`);
  return token;
}

/**
 * The operator token, found once per command and only when a command sends something: a usage
 * error (exit 2, before anything is sent, not a 401) when there is none.
 */
async function findOperatorToken(tokenFile) {
  if (tokenFile !== undefined) return readTokenFile(tokenFile);
  if (process.env.ADMIN_TOKEN !== undefined) {
    if (process.env.ADMIN_TOKEN === "") throw new UsageError(`ADMIN_TOKEN is empty. ${NO_TOKEN}`);
    return process.env.ADMIN_TOKEN;
  }
  const devToken = serverIsLocal() ? adminToken() : undefined;
  if (devToken) return devToken;
  if (process.stdin.isTTY) {
    const typed = (await promptHidden(`Operator token (ADMIN_TOKEN) for ${baseUrl()}: `)).trim();
    if (typed !== "") return typed;
  }
  throw new UsageError(NO_TOKEN);
}

/** The progress display on `stream` (cli-progress), loaded only by the commands that import: every other start is spared it. */
const importProgress = async (stream) => (await import("./progress.mjs")).importProgress(stream);

/** Commander's own output (help, its usage errors) on the CLI's streams, wrapped to their width when they are terminals. */
const outputOn = (stdout, stderr) => ({
  writeOut: (text) => stdout.write(text),
  writeErr: (text) => stderr.write(text),
  getOutHelpWidth: () => (stdout.isTTY ? stdout.columns : undefined),
  getErrHelpWidth: () => (stderr.isTTY ? stderr.columns : undefined),
});

/**
 * The command tree, writing to `stdout` (each command's answer, as JSON; help) and `stderr` (errors,
 * import progress). The actions throw UsageError for command-line mistakes commander cannot see
 * (e.g. --scopes without --preset individual).
 */
export function buildProgram({ stdout, stderr }) {
  const print = (result) => stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  let token;
  const operatorToken = async () => (token ??= await findOperatorToken(program.opts().tokenFile));
  const send = async (path, options) => adminFetch(path, { ...options, token: await operatorToken() });

  const program = new Command("npm run admin --")
    .description("Operate a Retro Game Collection API server: users, API keys, master data and identifier suggestions.")
    .addOption(new Option("--token-file <file>", "read the operator token from this file (first line) instead of ADMIN_TOKEN"))
    .exitOverride()
    .configureOutput(outputOn(stdout, stderr))
    .showHelpAfterError("(add --help for usage)")
    .helpCommand(false)
    .configureHelp({ sortSubcommands: false })
    .addHelpText("after", OVERVIEW_HELP + ENVIRONMENT_HELP);

  const users = program.command("users").description("list, create, update and invite users").helpCommand(false);
  users
    .command("list")
    .description("list users, oldest first (in the order they were created), a page at a time")
    .addOption(new Option("--page <n>", "page number").argParser(positiveInteger))
    .addOption(new Option("--limit <n>", "users per page (at most 100; default 50)").argParser(positiveInteger))
    .action(async ({ page, limit }) => print(await send(`/users?${new URLSearchParams(compact({ page, limit }))}`)));
  users
    .command("create")
    .description("create a user; prints its userId")
    .addOption(new Option("--plan <plan>", "the user's plan").choices(PLANS).makeOptionMandatory())
    .addOption(new Option("--name <name>", "a name for the operator's eyes"))
    .action(async ({ plan, name }) => print(await send("/users", { method: "POST", body: compact({ plan, name }) })));
  users
    .command("update")
    .description("change a user's plan, or suspend / un-suspend it (its keys stop / resume working)")
    .argument("<userId>", "the user (usr_...)")
    .addOption(new Option("--plan <plan>", "the new plan").choices(PLANS))
    .addOption(
      new Option("--suspended <true|false>", "suspend (true) or un-suspend (false); nothing else is accepted").argParser(strictBoolean),
    )
    .action(async (userId, { plan, suspended }) => {
      if (plan === undefined && suspended === undefined) throw new UsageError("users update: give --plan and/or --suspended.");
      print(await send(`/users/${encodeURIComponent(userId)}`, { method: "PATCH", body: compact({ plan, suspended }) }));
    });
  users
    .command("invite")
    .description(
      "issue a one-time link (valid 72 hours) that lets its holder register a passkey for the user and\n" +
        "sign in to the settings pages; for a new user, or to recover one who lost their passkeys",
    )
    .argument("<userId>", "the user (usr_...)")
    .action(async (userId) => print(await send(`/users/${encodeURIComponent(userId)}/invites`, { method: "POST" })));

  const keys = program.command("keys").description("list, issue and revoke API keys").helpCommand(false);
  keys
    .command("list")
    .description("list a user's keys, newest first, a page at a time: name, scopes, state, last use, expiry (never the secret)")
    .argument("<userId>", "the keys' owner (usr_...)")
    .addOption(new Option("--page <n>", "page number").argParser(positiveInteger))
    .addOption(new Option("--limit <n>", "keys per page (at most 100; default 50)").argParser(positiveInteger))
    .action(async (userId, { page, limit }) =>
      print(await send(`/users/${encodeURIComponent(userId)}/keys?${new URLSearchParams(compact({ page, limit }))}`)),
    );
  keys
    .command("create")
    .description("issue an API key for a user; the key is printed once, only its hash is kept")
    .argument("<userId>", "the key's owner (usr_...)")
    .addOption(
      new Option(
        "--preset <preset>",
        "viewOnly: library:read, play:read, games:read; standard: those + library:write, play:write; individual: exactly --scopes; full: individual with every scope",
      )
        .choices([...PRESETS, FULL_PRESET])
        .makeOptionMandatory(),
    )
    .addOption(
      new Option("--scopes <a,b,...>", `with --preset individual only; comma-separated from: ${SCOPES.join(", ")}`).argParser(scopeList),
    )
    .addOption(new Option("--name <name>", "a label for the key"))
    .addOption(
      new Option(
        "--expires-in-days <days>",
        "30, 90 or 365: the key answers 401 after that many days (default: it never expires)",
      ).argParser(expiryDays),
    )
    .action(async (userId, { preset, scopes, name, expiresInDays }) => {
      if ((preset === "individual") !== (scopes !== undefined)) {
        throw new UsageError("keys create: --scopes is required with --preset individual, and only with it.");
      }
      const body = compact(keyChoice({ preset, name, scopes, expiresInDays }));
      print(await send(`/users/${encodeURIComponent(userId)}/keys`, { method: "POST", body }));
    });
  keys
    .command("revoke")
    .description("revoke an API key; it stops working at once")
    .argument("<keyId>", "the key (key_...)")
    .action(async (keyId) => print(await send(`/keys/${encodeURIComponent(keyId)}`, { method: "DELETE" })));

  const master = program.command("master").description("import game master data").helpCommand(false);
  master
    .command("import")
    .description(
      "upsert an NDJSON file into a master dataset, 2,000 lines per request, with progress on stderr.\n" +
        "Import platforms, companies and genres before the games that refer to them.",
    )
    .addArgument(new Argument("<dataset>", "which dataset").choices(MASTER_DATASETS))
    .argument("<file>", "NDJSON, one row per line, in the dataset's master row format")
    .action(async (dataset, file) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`master import: no such file: ${file}`);
      if (readNdjsonLines(file).lines.length === 0) throw new UsageError(`master import: ${file} holds no rows.`);
      const options = { token: await operatorToken() };
      const progress = await importProgress(stderr);
      let result;
      try {
        result = await importNdjsonFile(dataset, file, { ...options, onProgress: progress.onProgress });
      } finally {
        progress.stop(); // ends the bar's line before anything else is printed
      }
      print(result);
    });

  master
    .command("load")
    .description(
      "import a whole master folder in dataset order (platforms, companies, genres, games), its games\n" +
        "with the model numbers of serials.ndjson merged in: the default catalog, or a converter's output.",
    )
    .argument("[dir]", "the folder", "seed/master")
    .action(async (dir) => {
      for (const dataset of MASTER_DATASETS) {
        if (!existsSync(join(dir, `${dataset}.ndjson`))) throw new UsageError(`master load: no ${dataset}.ndjson in ${dir}`);
      }
      const options = { token: await operatorToken() };
      const progress = await importProgress(stderr);
      let results;
      try {
        results = await importCatalog(dir, { ...options, onProgress: progress.onProgress });
      } finally {
        progress.stop();
      }
      print(results);
    });

  const identifiers = program
    .command("identifiers")
    .description("review the JAN codes and model numbers users suggest for catalog games")
    .helpCommand(false);
  identifiers
    .command("list")
    .description("list suggestions of one status (default open), oldest first; conflictGameId names a game already holding the value")
    .addOption(new Option("--status <status>", "which suggestions").choices(SUGGESTION_STATUSES))
    .addOption(new Option("--page <n>", "page number").argParser(positiveInteger))
    .addOption(new Option("--limit <n>", "suggestions per page (at most 100; default 50)").argParser(positiveInteger))
    .action(async ({ status, page, limit }) => print(await send(`/identifiers?${new URLSearchParams(compact({ status, page, limit }))}`)));
  identifiers
    .command("approve")
    .description("approve an open suggestion: the value becomes master data (search, exports) and the games generation moves")
    .argument("<suggestionId>", "the suggestion (sug_...)")
    .action(async (id) => print(await send(`/identifiers/${encodeURIComponent(id)}/approve`, { method: "POST" })));
  identifiers
    .command("reject")
    .description("reject an open suggestion; its author sees the status")
    .argument("<suggestionId>", "the suggestion (sug_...)")
    .addOption(new Option("--reason <text>", "why, for the record (up to 200 characters)"))
    .action(async (id, { reason }) =>
      print(await send(`/identifiers/${encodeURIComponent(id)}/reject`, { method: "POST", body: compact({ reason }) })),
    );

  return program;
}

/** Runs the CLI on `argv` (without node and the script), writing to `stdout` and `stderr`, and answers the exit code. */
export async function runAdminCli(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const program = buildProgram({ stdout, stderr });
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE; // commander printed it
    if (error instanceof UsageError) {
      stderr.write(`error: ${error.message}\n(add --help for usage)\n`);
      return EXIT_USAGE;
    }
    stderr.write(`${describeFailure(error)}\n`);
    return EXIT_SERVER;
  }
}

/** A server's refusal as it said it; an unreachable server as what to check. */
function describeFailure(error) {
  if (error instanceof TypeError && error.message === "fetch failed") {
    const reason = error.cause?.code ?? error.cause?.message ?? "no answer";
    return `error: cannot reach ${baseUrl()} (${reason}). Is the server running (npm run dev)? Set RGC_BASE_URL or PORT for another one.`;
  }
  return `error: ${error.message}`;
}
