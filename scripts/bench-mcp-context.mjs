#!/usr/bin/env node
// `npm run bench:mcp-context`: what the MCP face costs a model's context, in o200k BPE tokens
// (gpt-tokenizer): tools/list plus the initialize instructions for four keys (PREMIUM full and view-only, FREE standard and
// view-only) on both protocol eras (2025 handshake, 2026-07-28), and the text of a typical
// searchGames and getLibrary result. Also counts JSON Schema `type` arrays and the MCP Inspector's
// schema-portability findings in each list. Starts its own `npm run dev` unless given --url (then
// --admin-token, --full-key and --view-only-key name a PREMIUM account's keys on that server).
// Exits non-zero when a target is missed: PREMIUM full <= 12,000, FREE view-only <= 5,000, no type
// arrays, no portability finding.
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { startDemoServer } from "./lib/demoServer.mjs";
import { portabilityFindings, typeArrays } from "./lib/schemaPortability.ts";

const TARGETS = { "PREMIUM full": 12_000, "FREE view-only": 5_000 };
const ERAS = { "2025-11-25": {}, "2026-07-28": { versionNegotiation: { mode: { pin: "2026-07-28" } } } };

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "admin-token": { type: "string" },
    "full-key": { type: "string" },
    "view-only-key": { type: "string" },
  },
});

const tokens = (value) => encode(typeof value === "string" ? value : JSON.stringify(value)).length;

/** An SDK v2 client on `era`, recording the raw tools/list answer (what a host puts before the model). */
async function connect(url, apiKey, era) {
  const answers = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      answers.push(
        await response
          .clone()
          .json()
          .catch(() => null),
      );
      return response;
    },
  });
  const client = new Client({ name: "bench-mcp-context", version: "1" }, ERAS[era]);
  await client.connect(transport);
  return { client, answers };
}

async function adminPost(url, adminToken, path, body) {
  const response = await fetch(`${url}/admin/v1${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A FREE account beside the demo one, with the standard and view-only presets. */
async function freeKeys(url, adminToken) {
  const { userId } = await adminPost(url, adminToken, "/users", { plan: "FREE", name: "bench-mcp-context" });
  const key = async (preset) => (await adminPost(url, adminToken, `/users/${userId}/keys`, { preset, name: preset })).apiKey;
  return { standard: await key("standard"), viewOnly: await key("viewOnly") };
}

const server = values.url
  ? {
      url: values.url.replace(/\/$/, ""),
      adminToken: values["admin-token"],
      keys: { full: values["full-key"], viewOnly: values["view-only-key"] },
      stop: async () => {},
    }
  : await startDemoServer();
const rows = [];
const missed = [];
try {
  const free = await freeKeys(server.url, server.adminToken);
  const keys = {
    "PREMIUM full": server.keys.full,
    "PREMIUM view-only": server.keys.viewOnly,
    "FREE standard": free.standard,
    "FREE view-only": free.viewOnly,
  };
  for (const [label, apiKey] of Object.entries(keys)) {
    for (const era of Object.keys(ERAS)) {
      const { client, answers } = await connect(server.url, apiKey, era);
      const { tools } = await client.listTools();
      const listed = answers.at(-1).result.tools;
      const findings = listed.flatMap(portabilityFindings).length;
      // What a host puts before the model: the listed tools and the server's instructions (the
      // rules of shared arguments live there, said once).
      const instructions = client.getInstructions() ?? "";
      const count = tokens(listed) + tokens(instructions);
      rows.push({
        key: label,
        era,
        tools: tools.length,
        chars: JSON.stringify(listed).length + instructions.length,
        instructionTokens: tokens(instructions),
        tokens: count,
        typeArrays: typeArrays(listed),
        findings,
      });
      if (count > (TARGETS[label] ?? Number.POSITIVE_INFINITY)) missed.push(`${label} on ${era}: ${count} tokens`);
      if (findings > 0) missed.push(`${label} on ${era}: ${findings} portability findings`);
      await client.close();
    }
  }
  const { client } = await connect(server.url, server.keys.full, "2026-07-28");
  if (!values.url) {
    // A library of five games (its own server's demo account only), read back with the default fields.
    const found = await client.callTool({ name: "searchGames", arguments: { query: "ドラゴンクエスト", limit: 5, fields: [] } });
    for (const { gameId } of found.structuredContent.items) {
      await client.callTool({ name: "addToLibrary", arguments: { gameId, buyPlace: "駿河屋", buyPrice: 1980, buyDate: "2023-05-03" } });
    }
  }
  const results = [];
  for (const [name, args] of [
    ["searchGames", { query: "ドラゴンクエスト" }],
    ["searchGames", { query: "ドラゴンクエストIII" }],
    ["searchGames", { query: "ドラゴンクエストIII", includeCoverage: true }],
    ["searchGames", { query: "存在しないゲーム" }],
    ["getLibrary", {}],
  ]) {
    const result = await client.callTool({ name, arguments: args });
    const text = result.content[0].text;
    results.push({ call: `${name} ${JSON.stringify(args)}`, chars: text.length, tokens: tokens(text) });
  }
  await client.close();
  console.log("tools/list plus initialize instructions (o200k tokens of the listed tools as JSON and of the instructions text):");
  console.table(rows);
  console.log("result text (o200k tokens):");
  console.table(results);
} finally {
  await server.stop();
}
if (missed.length > 0) {
  console.error(`bench:mcp-context: targets missed:\n  ${missed.join("\n  ")}`);
  process.exit(1);
}
console.log(
  `targets met: PREMIUM full <= ${TARGETS["PREMIUM full"]}, FREE view-only <= ${TARGETS["FREE view-only"]}, no type arrays, no portability finding.`,
);
