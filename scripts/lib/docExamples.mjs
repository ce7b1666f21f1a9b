// Runs the examples of README.md and docs/*.md against a demo server (`npm run check:docs`; the
// rules are in docs/README.md, "How the pages are checked"). Blocks run in page order, in one
// scratch folder that links to the repository's files, so `npm run admin` and relative paths work
// there and downloads land there. Needs bash, curl and python3, as the examples do.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeBlocks, isRun, pagePaths } from "./docPages.ts";
import { projectRoot } from "./local.mjs";

/** The address the pages show; the examples run against the demo server's. */
const PAGE_URL = "http://127.0.0.1:8787";
/** Key variables a block may set to a placeholder (`KEY=rgc_...`): each takes the real key. */
const KEY_PLACEHOLDER = /^(\s*)(\w+)=rgc_\.\.\./gm;
/** Written by curl for every call (the checker's .curlrc), unless the command sets its own -w. */
const CURLRC = 'write-out = "%{stderr}@@ %{http_code} %{method} %{url_effective}\\n"\n';
const CALL_STATUS = /^@@ (\d{3}) (.*)$/gm;
/** Not linked into the scratch folder: version control, local state and the checker's own output. */
const NOT_LINKED = new Set([".git", ".wrangler", ".dev.vars", "tmp", "bench-data"]);
const BLOCK_TIMEOUT_MS = 120_000;

const outputDir = join(projectRoot, "tmp", "check-docs");

const pages = () =>
  pagePaths(readdirSync(join(projectRoot, "docs"))).map((path) => ({ path, text: readFileSync(join(projectRoot, path), "utf8") }));

const linkedEntries = () => readdirSync(projectRoot).filter((name) => !NOT_LINKED.has(name));

/** A fresh folder that looks like the repository: a link to each of its top-level entries. */
function scratchFolder() {
  rmSync(outputDir, { recursive: true, force: true });
  const work = join(outputDir, "work");
  mkdirSync(join(outputDir, "curl"), { recursive: true });
  mkdirSync(work);
  for (const name of linkedEntries()) symlinkSync(join(projectRoot, name), join(work, name));
  writeFileSync(join(outputDir, "curl", ".curlrc"), CURLRC);
  return work;
}

/** Leaves what the examples wrote (downloads, files of `file` blocks), not the links to the repository. */
const removeLinks = (work) => {
  for (const name of linkedEntries()) rmSync(join(work, name), { force: true });
};

/** A key of a second PREMIUM account, for the blocks that restore into another account (`KEY2`). */
async function secondAccountKey({ url, adminToken }) {
  const post = async (path, body) => {
    const reply = await fetch(`${url}/admin/v1${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!reply.ok) throw new Error(`POST /admin/v1${path} -> ${reply.status} ${await reply.text()}`);
    return reply.json();
  };
  const { userId } = await post("/users", { plan: "PREMIUM", name: "check-docs restore" });
  return (await post(`/users/${userId}/keys`, { preset: "standard" })).apiKey;
}

/** The block as it runs here: this server's address, and the real key for each placeholder. */
function runnable(code, server, keys) {
  const problems = [];
  const script = code.replaceAll(PAGE_URL, server.url).replace(KEY_PLACEHOLDER, (line, indent, name) => {
    if (keys[name]) return `${indent}${name}=${keys[name]}`;
    problems.push(`sets ${name} to a placeholder, and the checker has no such key (${Object.keys(keys).join(", ")})`);
    return line;
  });
  return { script, problems };
}

/** What went wrong in a run: its exit, and the calls whose status is not what the block expects. */
function judge(block, result) {
  const calls = [...result.stderr.matchAll(CALL_STATUS)].map(([, status, call]) => ({ status: Number(status), call }));
  const problems = [];
  if (result.error) problems.push(`did not finish: ${result.error.message}`);
  else if (result.status !== 0) problems.push(`exited with ${result.status}: ${result.stderr.replace(CALL_STATUS, "").trim().slice(-500)}`);
  if (block.directive?.kind === "answers") {
    const statuses = calls.map((c) => c.status);
    if (statuses.join() !== block.directive.statuses.join())
      problems.push(`answered ${statuses.join(" ")}, not ${block.directive.statuses.join(" ")}`);
  } else {
    for (const { status, call } of calls.filter((c) => c.status >= 400)) problems.push(`${call} answered ${status}`);
  }
  return problems;
}

function runBlock(block, context) {
  const { script, problems } = runnable(block.code, context.server, context.keys);
  if (problems.length) return problems;
  const result = spawnSync("bash", ["-eu", "-c", script], {
    cwd: context.work,
    env: {
      ...process.env,
      BASE: context.server.url,
      RGC_BASE_URL: context.server.url,
      ADMIN_TOKEN: context.server.adminToken,
      CURL_HOME: join(outputDir, "curl"),
      ...context.keys,
    },
    encoding: "utf8",
    timeout: BLOCK_TIMEOUT_MS,
  });
  appendFileSync(context.log, `### ${block.page}:${block.line}\n${script}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}\n`);
  return judge(block, result);
}

/**
 * Runs every example of the pages against `server` ({ url, adminToken, keys } of startDemoServer)
 * and answers the problems found, each naming its block by page and line.
 */
export async function runExamples(server) {
  const work = scratchFolder();
  const context = {
    server,
    work,
    log: join(outputDir, "examples.log"),
    keys: { KEY: server.keys.standard, FULL: server.keys.full, KEY2: await secondAccountKey(server) },
  };
  const problems = [];
  for (const block of pages().flatMap(codeBlocks)) {
    if (block.directive?.kind === "file") writeFileSync(join(work, block.directive.name), block.code.replaceAll(PAGE_URL, server.url));
    else if (isRun(block)) problems.push(...runBlock(block, context).map((problem) => `${block.page}:${block.line} ${problem}`));
  }
  removeLinks(work);
  return problems;
}
