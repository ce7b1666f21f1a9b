// Shared by the local scripts (dev server, admin CLI, seeding): where the server is and how to
// reach its operator API.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const projectRoot = join(dirname(new URL(import.meta.url).pathname), "..", "..");
const devVarsPath = join(projectRoot, ".dev.vars");

export const port = () => process.env.PORT ?? "8787";
export const baseUrl = () => process.env.RGC_BASE_URL ?? `http://127.0.0.1:${port()}`;

function readDevVar(name) {
  if (!existsSync(devVarsPath)) return undefined;
  const line = readFileSync(devVarsPath, "utf8")
    .split(/\r?\n/)
    .find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).replace(/^"(.*)"$/, "$1");
}

/** ADMIN_TOKEN from the environment, else .dev.vars; `create` writes a fresh one to .dev.vars. */
export function adminToken({ create = false } = {}) {
  const token = process.env.ADMIN_TOKEN ?? readDevVar("ADMIN_TOKEN");
  if (token || !create) return token;
  const fresh = randomBytes(24).toString("base64url");
  writeFileSync(devVarsPath, `${existsSync(devVarsPath) ? readFileSync(devVarsPath, "utf8") : ""}ADMIN_TOKEN=${fresh}\n`);
  console.log(`Wrote a new ADMIN_TOKEN to .dev.vars (used by \`npm run admin\`).`);
  return fresh;
}

export const wranglerBin = () =>
  join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");

/** Calls the operator API; throws with the server's error body on a non-2xx answer. */
export async function adminFetch(path, { method = "GET", body, contentType = "application/json", token } = {}) {
  const response = await fetch(`${baseUrl()}/admin/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token ?? adminToken()}`, ...(body ? { "Content-Type": contentType } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text}`);
  return parsed;
}

/** Import order: games refer to the other three. */
export const MASTER_DATASETS = ["platforms", "companies", "genres", "games"];
const LINES_PER_REQUEST = 2_000;

/** Sends an NDJSON file to the operator import in requests of LINES_PER_REQUEST lines. */
export async function importNdjsonFile(dataset, path, options = {}) {
  const lines = readFileSync(path, "utf8").split(/\r?\n/).filter((line) => line.trim() !== "");
  const total = { dataset, received: 0, upserted: 0, unchanged: 0, generation: null };
  for (let start = 0; start < lines.length; start += LINES_PER_REQUEST) {
    const body = `${lines.slice(start, start + LINES_PER_REQUEST).join("\n")}\n`;
    const result = await adminFetch(`/master/${dataset}`, { method: "POST", body, contentType: "application/x-ndjson", ...options });
    total.received += result.received;
    total.upserted += result.upserted;
    total.unchanged += result.unchanged;
    total.generation = result.generation;
  }
  return total;
}
