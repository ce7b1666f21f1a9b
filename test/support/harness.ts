// The test harness: real Worker, real D1/KV/R2. Accounts are made through the operator API, so
// every test starts from its own fresh user and never depends on another test's rows.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { createApp } from "../../src/app";
import type { Bindings } from "../../src/bindings";
import type { Plan, Scope } from "../../src/platform/plans";
import { SCOPES } from "../../src/platform/plans";
import type { ToolDefinition } from "../../src/registry/defineTool";
import { tools } from "../../src/tools";
import type { ToolName, ToolOutput } from "../../src/tools/types";

export const ORIGIN = "https://api.test";
export const ADMIN_TOKEN = "test-admin-token";
export const ALL_SCOPES: Scope[] = [...SCOPES];

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Type-only mark of the tool a reply answers; never present at run time. */
declare const answeredBy: unique symbol;

/**
 * A tool call's reply. Its body stays loosely typed (tests read error fields and failed answers
 * through it); the tool's name rides along at type level, so `ok(reply)` (support/replies.ts)
 * returns that tool's output type.
 */
export type ToolReply<N extends string = string> = Reply & { readonly [answeredBy]: N };

/** A successful reply's body: the tool's output type (tools/types.ts) for a registered tool, any for other names (test tools, unknown tools). */
export type OutputOf<N extends string> = N extends ToolName ? ToolOutput<N> : any;

/** A body as UTF-8 text (workerd warns when .text() reads a type it does not know as text). */
export const textOf = async (response: Response) => new TextDecoder().decode(await response.arrayBuffer());

async function toReply(response: Response): Promise<Reply> {
  const text = await textOf(response);
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (HTML docs page): keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** Sends a request to the deployed-shape Worker (its default export). */
export async function send(path: string, init: RequestInit = {}): Promise<Reply> {
  return toReply(await exports.default.fetch(new Request(`${ORIGIN}${path}`, init)));
}

/** An app built with other tools, bindings or clock as a fetch (its work after the answer awaited), for clients that take one. */
export const fetchThrough =
  (app: ReturnType<typeof createApp>, bindings: Partial<Bindings> = {}) =>
  async (request: Request): Promise<Response> => {
    const ctx = createExecutionContext();
    const response = await app.fetch(request, { ...env, ...bindings }, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };

/** Sends a request to an app built with other tools or bindings (e.g. maintenance on). */
export async function sendTo(
  app: ReturnType<typeof createApp>,
  path: string,
  init: RequestInit = {},
  bindings: Partial<Bindings> = {},
): Promise<Reply> {
  return toReply(await fetchThrough(app, bindings)(new Request(`${ORIGIN}${path}`, init)));
}

/** The real app plus tools that exist only to exercise the registry's rules. */
export const testApp = (extraTools: ToolDefinition[]) => createApp([...tools, ...extraTools]);

export async function admin(method: string, path: string, body?: unknown): Promise<Reply> {
  return send(`/admin/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export interface Account {
  userId: string;
  keyId: string;
  apiKey: string;
  plan: Plan;
  /** Calls a tool with POST JSON (default) or GET query arguments. */
  call<N extends string>(tool: N, args?: Record<string, unknown>, method?: "POST" | "GET" | "PUT"): Promise<ToolReply<N>>;
  /** Issues another key for the same user. */
  newKey(scopes: Scope[]): Promise<{ keyId: string; apiKey: string }>;
}

export const authHeader = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

/** Encodes arguments the way the spec's GET rules read them: arrays comma-separated. */
export function toQuery(args: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    params.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Calls a tool with this key; arguments stay loosely typed (tests send invalid ones on purpose). */
export function callWith<N extends string>(
  apiKey: string,
  tool: N,
  args: Record<string, unknown> = {},
  method = "POST",
): Promise<ToolReply<N>> {
  if (method === "GET") return send(`/rest/v1/${tool}${toQuery(args)}`, { headers: authHeader(apiKey) }) as Promise<ToolReply<N>>;
  return send(`/rest/v1/${tool}`, {
    method,
    headers: { ...authHeader(apiKey), "Content-Type": "application/json" },
    body: JSON.stringify(args),
  }) as Promise<ToolReply<N>>;
}

async function issueKey(userId: string, scopes: Scope[]) {
  const reply = await admin("POST", `/users/${userId}/keys`, { preset: "individual", scopes });
  if (reply.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(reply.body)}`);
  return reply.body as { keyId: string; apiKey: string };
}

export async function newAccount(options: { plan?: Plan; scopes?: Scope[] } = {}): Promise<Account> {
  const plan = options.plan ?? "PREMIUM";
  const user = await admin("POST", "/users", { plan, name: "test user" });
  if (user.status !== 201) throw new Error(`user creation failed: ${JSON.stringify(user.body)}`);
  const userId = user.body.userId as string;
  const key = await issueKey(userId, options.scopes ?? ALL_SCOPES);
  return {
    userId,
    plan,
    ...key,
    call: (tool, args = {}, method = "POST") => callWith(key.apiKey, tool, args, method),
    newKey: (scopes) => issueKey(userId, scopes),
  };
}

/** An account whose calls rotate over `extraKeys` more keys of the same user (burst limits are per key). */
export interface Player {
  account: Account;
  call<N extends string>(tool: N, args?: Record<string, unknown>, method?: "POST" | "GET"): Promise<ToolReply<N>>;
}

export async function player(options: { plan?: Plan; scopes?: Scope[] } = {}, extraKeys = 1): Promise<Player> {
  const account = await newAccount(options);
  const keys = [account.apiKey];
  for (let i = 0; i < extraKeys; i++) keys.push((await account.newKey(options.scopes ?? ALL_SCOPES)).apiKey);
  let next = 0;
  return { account, call: (tool, args = {}, method = "POST") => callWith(keys[next++ % keys.length]!, tool, args, method) };
}

/**
 * `make(key)` run once per key, on first use, its promise shared after: for a seeded account that
 * the tests which only read share (a test that writes makes its own, so the shared rows never move).
 */
export function oncePer<K, T>(make: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const made = new Map<K, Promise<T>>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
}
