// The `npm run dev` that test/setup/devServer.ts started for the served tests (Node only): waits
// until it has seeded the catalog and printed the demo account, and answers what the tests read.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { SERVED_FILES } from "./servedFiles";

export interface ServedDevServer {
  url: string;
  adminToken: string;
  /** Its output up to the printed demo account (keys and invite link, written at once). */
  log: string;
  /** Milliseconds from the start until the Worker first answered. */
  startMs: number;
}

const DEMO_ACCOUNT_PRINTED = /^Try: curl/m;

/** Resolves once the server printed its demo account; fails with its output if it exits first or takes over `timeoutMs`. */
export async function servedDevServer(timeoutMs = 240_000): Promise<ServedDevServer> {
  const dir = inject("devServerDir");
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : undefined);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log = read(SERVED_FILES.output) ?? "";
    const servedAfterMs = read(SERVED_FILES.servedAfterMs);
    if (DEMO_ACCOUNT_PRINTED.test(log) && servedAfterMs !== undefined) {
      return { url: inject("devServerUrl"), adminToken: inject("devServerAdminToken"), log, startMs: Number(servedAfterMs) };
    }
    const exit = read(SERVED_FILES.exit);
    if (exit !== undefined) throw new Error(`npm run dev exited (${exit}) before printing its demo account:\n${log}`);
    if (Date.now() > deadline) throw new Error(`npm run dev printed no demo account within ${timeoutMs} ms:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
