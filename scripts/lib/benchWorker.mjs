#!/usr/bin/env node
// One Worker of `npm run bench:api`, run by wrangler's own dev machinery (unstable_startWorker:
// the same wrangler, Miniflare and workerd as `wrangler dev`) with the debugging inspector off
// unless an inspector port is given. `wrangler dev` has no switch for that, and with the inspector
// attached every console line a Worker writes costs about 1.1 ms in wrangler's process and 0.8 ms
// in workerd (measured on the bench machine), a cost of the debugger that production does not have.
//   node scripts/lib/benchWorker.mjs '<JSON: {config, port, stateDir, vars, inspectorPort}>'
import { unstable_startWorker } from "wrangler";

const { config, port, stateDir, vars = {}, inspectorPort } = JSON.parse(process.argv[2]);
const worker = await unstable_startWorker({
  config,
  build: { bundle: false },
  bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text", value }])),
  dev: {
    server: { hostname: "127.0.0.1", port: Number(port) },
    inspector: inspectorPort ? { hostname: "127.0.0.1", port: Number(inspectorPort) } : false,
    persist: stateDir,
    logLevel: "error",
    watch: false,
  },
});
await worker.ready;

const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
