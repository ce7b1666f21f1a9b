// `npm run lint:openapi`: lints the OpenAPI document with Redocly CLI (recommended rules,
// redocly.yaml) and Spectral (spectral:oas, .spectral.yaml), both from node_modules, offline.
// The document is built from the registry exactly as the Worker serves it; with
// `-- --url http://127.0.0.1:8787` it is fetched from a running server instead.
// Fails on any Redocly error or warning and on any Spectral error or warning.
// test/registry/openapiLint.node.test.ts runs the same in `npm test`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { openApiDocumentText } from "./lib/openapiDocument";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Runs a CLI from node_modules/.bin with no telemetry or update checks (they would need the network). */
function run(bin: string, args: string[]) {
  const result = spawnSync(join(root, "node_modules", ".bin", bin), args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" },
  });
  if (result.error) throw result.error;
  return result;
}

export interface LintResult {
  /** One line per problem either linter reported; empty when both are clean. */
  problems: string[];
  /** The counts, as printed. */
  summary: string[];
}

export function lintOpenApi(documentText: string): LintResult {
  const dir = mkdtempSync(join(tmpdir(), "rgc-openapi-"));
  const file = join(dir, "openapi.json");
  writeFileSync(file, documentText);
  try {
    const redocly = run("redocly", ["lint", file, "--config", join(root, "redocly.yaml"), "--format", "json"]);
    const report = JSON.parse(redocly.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const spectral = run("spectral", ["lint", file, "--ruleset", join(root, ".spectral.yaml"), "--format", "json", "--quiet"]);
    const results = JSON.parse(spectral.stdout || "[]") as { code: string; message: string; severity: number; path: string[] }[];
    const count = (severity: number) => results.filter((r) => r.severity === severity).length;
    return {
      summary: [
        `redocly lint (recommended): ${report.totals.errors} errors, ${report.totals.warnings} warnings`,
        `spectral lint (spectral:oas): ${count(0)} errors, ${count(1)} warnings, ${count(2) + count(3)} infos/hints`,
      ],
      problems: [
        ...report.problems.map((p) => `redocly ${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ""}: ${p.message}`),
        ...results
          .filter((r) => r.severity <= 1)
          .map((r) => `spectral ${r.severity === 0 ? "error" : "warning"} ${r.code} ${r.path.join(".")}: ${r.message}`),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({ options: { url: { type: "string" } } });
  let text = openApiDocumentText();
  if (values.url) {
    const response = await fetch(`${values.url.replace(/\/$/, "")}/rest/v1/openapi.json`);
    if (!response.ok) throw new Error(`GET /rest/v1/openapi.json answered ${response.status}`);
    text = await response.text();
  }
  const { summary, problems } = lintOpenApi(text);
  for (const line of [...summary, ...problems]) console.log(line);
  if (problems.length > 0) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
