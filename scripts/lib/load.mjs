// Closed-loop HTTP load for `npm run bench:api`: `concurrency` callers, each sending its next
// request as soon as the previous answer has been read, over keep-alive connections of node:http
// (lighter on the client's CPU than fetch, which matters on a 2-core machine where client and
// server share the cores). Bodies are read whole but not parsed: parsing is the client's cost.
import http from "node:http";

const agents = new Map();
const agentFor = (origin) => {
  const known = agents.get(origin);
  if (known) return known;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  agents.set(origin, agent);
  return agent;
};

/** One request; resolves to {status, headers, body (string), ms}. */
export function request(url, { method = "GET", headers = {}, body } = {}) {
  const target = new URL(url);
  const payload = body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        agent: agentFor(target.origin),
        headers: { ...headers, ...(payload ? { "Content-Type": "application/json", "Content-Length": payload.length } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/**
 * Sends `count` requests made by `makeRequest(i)` (→ {url, method, headers, body}) with
 * `concurrency` in flight, and answers the latencies (ms), the wall time of the whole block, and
 * how many answers were not 2xx (by status). A 429 is counted, not retried: the bench rotates keys
 * so that none should happen, and reports any that did.
 */
export async function runBlock(makeRequest, { count, concurrency }) {
  const latencies = [];
  const failures = {};
  let next = 0;
  let firstFailure;
  const started = performance.now();
  const caller = async () => {
    while (next < count) {
      const i = next++;
      const spec = makeRequest(i);
      const answer = await request(spec.url, spec);
      latencies.push(answer.ms);
      if (answer.status < 200 || answer.status >= 300) {
        failures[answer.status] = (failures[answer.status] ?? 0) + 1;
        firstFailure ??= `${spec.method ?? "GET"} ${spec.url} -> ${answer.status} ${answer.body.slice(0, 300)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return { latencies, wallMs: performance.now() - started, failures, firstFailure };
}

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** Summary of blocks of one kind: p50/p95 over every latency, req/s = calls / summed wall time. */
export function summarize(blocks) {
  const sorted = blocks.flatMap((b) => b.latencies).sort((a, b) => a - b);
  const wallMs = blocks.reduce((sum, b) => sum + b.wallMs, 0);
  const failures = {};
  for (const b of blocks) for (const [status, n] of Object.entries(b.failures)) failures[status] = (failures[status] ?? 0) + n;
  return {
    calls: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    reqPerSec: sorted.length / (wallMs / 1000),
    failures,
  };
}
