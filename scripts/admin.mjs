#!/usr/bin/env node
// `npm run admin -- <command>`: the operator API for a terminal user. See README "Operating".
import { parseArgs } from "node:util";
import { adminFetch, importNdjsonFile } from "./lib/local.mjs";

const USAGE = `usage: npm run admin -- <command>
  users list [--page N] [--limit N]
  users create --plan FREE|LIGHT|PREMIUM [--name NAME]
  users update <userId> [--plan PLAN] [--suspended true|false]
  keys create <userId> --preset viewOnly|standard|individual [--scopes a,b] [--name NAME]
  keys revoke <keyId>
  master import <platforms|companies|genres|games> <file.ndjson>`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    plan: { type: "string" },
    name: { type: "string" },
    suspended: { type: "string" },
    preset: { type: "string" },
    scopes: { type: "string" },
    page: { type: "string" },
    limit: { type: "string" },
  },
});

const compact = (object) => Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
const booleanOption = (text) => (text === undefined ? undefined : text === "true");

const commands = {
  "users list": () => adminFetch(`/users?${new URLSearchParams(compact({ page: values.page, limit: values.limit }))}`),
  "users create": () => adminFetch("/users", { method: "POST", body: compact({ plan: values.plan, name: values.name }) }),
  "users update": ([userId]) =>
    adminFetch(`/users/${userId}`, {
      method: "PATCH",
      body: compact({ plan: values.plan, suspended: booleanOption(values.suspended) }),
    }),
  "keys create": ([userId]) =>
    adminFetch(`/users/${userId}/keys`, {
      method: "POST",
      body: compact({ preset: values.preset, name: values.name, scopes: values.scopes?.split(",") }),
    }),
  "keys revoke": ([keyId]) => adminFetch(`/keys/${keyId}`, { method: "DELETE" }),
  "master import": ([dataset, file]) => importNdjsonFile(dataset, file),
};

const [noun, verb, ...rest] = positionals;
const command = commands[`${noun} ${verb}`];
if (!command) {
  console.error(USAGE);
  process.exit(2);
}
try {
  console.log(JSON.stringify(await command(rest), null, 2));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
