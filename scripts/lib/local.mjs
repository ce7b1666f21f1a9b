// Shared by the local scripts (dev server, admin CLI, seeding): where the server is and how to
// reach its operator API.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

export const projectRoot = join(dirname(new URL(import.meta.url).pathname), "..", "..");
/** The developer's own local variables, which wrangler reads (and announces) by itself. */
export const devVarsPath = join(projectRoot, ".dev.vars");
/**
 * Where the secrets `npm run dev` generates are kept: beside wrangler's local state, not in
 * .dev.vars, so that file stays the developer's own and the test pool has nothing of ours to read
 * and announce on every test file.
 */
const generatedSecretsPath = join(projectRoot, ".wrangler", "local-secrets.env");
const GENERATED_SECRETS_NAME = ".wrangler/local-secrets.env";

export const port = () => process.env.PORT ?? "8787";

/** A port nothing listens on now, for a server of a test or a check. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
export const baseUrl = () => process.env.RGC_BASE_URL ?? `http://127.0.0.1:${port()}`;

function readVar(path, name) {
  if (!existsSync(path)) return undefined;
  const line = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).replace(/^"(.*)"$/, "$1");
}

/**
 * A secret from the environment, else .dev.vars, else the ones `npm run dev` generated; `create`
 * generates a fresh random one there (readable by this user only).
 */
function devSecret(name, { create = false, bytes = 24, purpose }) {
  const value = process.env[name] ?? readVar(devVarsPath, name) ?? readVar(generatedSecretsPath, name);
  if (value || !create) return value;
  const fresh = randomBytes(bytes).toString("base64url");
  mkdirSync(dirname(generatedSecretsPath), { recursive: true });
  appendFileSync(generatedSecretsPath, `${name}=${fresh}\n`, { mode: 0o600 });
  console.log(`Wrote a new ${name} to ${GENERATED_SECRETS_NAME} (${purpose}).`);
  return fresh;
}

/** ADMIN_TOKEN from the environment, else .dev.vars, else the one `npm run dev` generated; `create` generates one. */
export const adminToken = ({ create = false } = {}) => devSecret("ADMIN_TOKEN", { create, purpose: "used by `npm run admin`" });

/** EXPORT_SIGNING_SECRET (the HMAC key of export download links), found or created like ADMIN_TOKEN. */
export const exportSigningSecret = ({ create = false } = {}) =>
  devSecret("EXPORT_SIGNING_SECRET", { create, bytes: 32, purpose: "signs export download links" });

/** SESSION_SECRET (the HMAC key of the pages' session cookies), found or created like ADMIN_TOKEN. */
export const sessionSecret = ({ create = false } = {}) =>
  devSecret("SESSION_SECRET", { create, bytes: 32, purpose: "signs the settings pages' session cookies" });

export const wranglerBin = () => join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");

/**
 * Calls the operator API; on a non-2xx answer throws an Error naming the call and the server's
 * body, with `status` and the parsed `body` attached.
 */
export async function adminFetch(path, { method = "GET", body, contentType = "application/json", token } = {}) {
  const response = await fetch(`${baseUrl()}/admin/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token ?? adminToken()}`, ...(body ? { "Content-Type": contentType } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    if (response.ok) throw new Error(`${method} ${path} -> ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (!response.ok) {
    throw Object.assign(new Error(`${method} ${path} -> ${response.status} ${text}`), { status: response.status, body: parsed });
  }
  return parsed;
}
