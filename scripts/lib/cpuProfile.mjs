// CPU profiles of the Worker under `wrangler dev --inspector-port`: the Chrome DevTools protocol
// over the inspector's WebSocket (Node's own WebSocket client), Profiler.start/stop around a load,
// then the functions with the most self time (and the most total time) in the profile.

/** Connects to the first Worker target the inspector lists; answers {send(method, params), close()}. */
export async function connectInspector(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  if (!target) throw new Error(`no inspector target on port ${port}`);
  // wrangler's inspector proxy accepts DevTools clients from local origins only (Node's WebSocket takes headers).
  const socket = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error(`cannot open ${target.webSocketDebuggerUrl}`)), { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  const listeners = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(typeof event.data === "string" ? event.data : Buffer.from(event.data).toString("utf8"));
    if (message.method) for (const listener of listeners.get(message.method) ?? []) listener(message.params);
    const waiter = message.id !== undefined && pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`));
    else waiter.resolve(message.result);
  });
  return {
    send(method, params = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
    },
    on(method, listener) {
      listeners.set(method, [...(listeners.get(method) ?? []), listener]);
    },
    close: () => socket.close(),
  };
}

/**
 * Which module each line of the Worker's bundle comes from: esbuild (unminified, as wrangler dev
 * bundles) starts each module with a `// path/of/module.ts` comment. Answers url -> sorted
 * [startLine (0-based), module] pairs.
 */
async function moduleMaps(inspector) {
  const scripts = [];
  inspector.on("Debugger.scriptParsed", (script) => scripts.push(script));
  await inspector.send("Debugger.enable");
  await new Promise((resolve) => setTimeout(resolve, 500));
  const maps = new Map();
  for (const script of scripts.filter((s) => s.url && !s.url.startsWith("cloudflare-internal:") && !s.url.startsWith("node:"))) {
    const { scriptSource } = await inspector.send("Debugger.getScriptSource", { scriptId: script.scriptId });
    const starts = [];
    scriptSource.split("\n").forEach((line, i) => {
      const marker = /^\/\/ ((?:src|node_modules|\.\.\/|scripts|bench)[^\s]*\.(?:[cm]?[jt]s|json))$/.exec(line);
      if (marker) starts.push([i, marker[1]]);
    });
    maps.set(script.url, starts);
  }
  await inspector.send("Debugger.disable");
  return maps;
}

/** Runs `during()` with the profiler on; answers the Profiler.Profile. */
export async function profileDuring(port, during, { samplingIntervalUs = 100 } = {}) {
  const inspector = await connectInspector(port);
  try {
    const modules = await moduleMaps(inspector);
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: samplingIntervalUs });
    await inspector.send("Profiler.start");
    await during();
    const { profile } = await inspector.send("Profiler.stop");
    await inspector.send("Profiler.disable");
    return { ...profile, modules };
  } finally {
    inspector.close();
  }
}

/** A function as the report names it: its name and the module it is in (for the bundle: the source module). */
const frameName = ({ functionName, url, lineNumber }, path) => {
  const where = !url ? "" : path && path !== url ? path.replace(/^node_modules\//, "") : `${url.split("/").slice(-1)[0]}:${lineNumber + 1}`;
  return `${functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
};

/** The module a frame's code comes from: a package, a source file, or the runtime itself. */
function moduleOf(callFrame, modules) {
  const { url, lineNumber, functionName } = callFrame;
  if (!url) return functionName.startsWith("(") ? functionName : "runtime (native)";
  if (url.startsWith("cloudflare-internal:")) return `runtime: ${url.slice("cloudflare-internal:".length)}`;
  // The profile names the bundle by its file name only ("index.js"); the debugger by its full URL.
  const starts = modules?.get(url) ?? [...(modules ?? [])].find(([full]) => full.endsWith(`/${url}`))?.[1];
  if (!starts?.length) return url;
  let lo = 0;
  let hi = starts.length - 1;
  if (lineNumber < starts[0][0]) return "(bundle prelude)";
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid][0] <= lineNumber) lo = mid;
    else hi = mid - 1;
  }
  return starts[lo][1];
}

/** node_modules/<pkg>/... or node_modules/@scope/<pkg>/... -> the package; other paths stay as they are. */
const packageOf = (path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path;

/**
 * Self and total time per function (name, file, line), in ms, over the samples; `busyMs` excludes
 * (idle), `callsProfiled` lets callers print time per call.
 */
export function summarizeProfile(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const self = new Map();
  const total = new Map();
  const byModule = new Map();
  let allUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    const path = moduleOf(node.callFrame, profile.modules);
    const name = frameName(node.callFrame, path);
    allUs += us;
    if (node.callFrame.functionName === "(idle)") idleUs += us;
    self.set(name, (self.get(name) ?? 0) + us);
    const module = packageOf(path);
    byModule.set(module, (byModule.get(module) ?? 0) + us);
    // Total time: every distinct function on the stack gets the sample once (recursion counted once).
    const seen = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const callFrame = byId.get(at).callFrame;
      const frame = frameName(callFrame, moduleOf(callFrame, profile.modules));
      if (seen.has(frame)) continue;
      seen.add(frame);
      total.set(frame, (total.get(frame) ?? 0) + us);
    }
  }
  const ms = (map) => [...map].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  return { self: ms(self), total: ms(total), modules: ms(byModule), allMs: allUs / 1000, busyMs: (allUs - idleUs) / 1000 };
}

/** Markdown lines: the top `count` functions by self time, and by total time, per call. */
export function profileReport(summary, calls, count = 15) {
  const perCall = (ms) => ((ms * 1000) / calls).toFixed(0);
  const share = (ms) => ((100 * ms) / summary.busyMs).toFixed(1);
  const lines = [
    `busy (non-idle) CPU in the Worker: ${summary.busyMs.toFixed(0)} ms over ${calls} calls = ${perCall(summary.busyMs)} µs per call`,
    "",
    "| self µs/call | % of busy | module (self time of its functions) |",
    "|---|---|---|",
    ...summary.modules
      .filter((m) => m.name !== "(idle)")
      .slice(0, count)
      .map((m) => `| ${perCall(m.ms)} | ${share(m.ms)} | ${m.name} |`),
    "",
    "| self µs/call | % of busy | function |",
    "|---|---|---|",
    ...summary.self
      .filter((f) => f.name !== "(idle)")
      .slice(0, count)
      .map((f) => `| ${perCall(f.ms)} | ${share(f.ms)} | ${f.name} |`),
    "",
    "| total µs/call | % of busy | function |",
    "|---|---|---|",
    ...summary.total
      .filter((f) => !["(root)", "(idle)", "(program)"].includes(f.name.split(" ")[0]))
      .slice(0, count)
      .map((f) => `| ${perCall(f.ms)} | ${share(f.ms)} | ${f.name} |`),
  ];
  return lines.join("\n");
}
