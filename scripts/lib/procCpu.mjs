// CPU time of a server's processes (Linux /proc), for `npm run bench:api`: what a call costs in
// the runtime (workerd) and in the development tool around it (wrangler's node process, which
// reads every console line of the Worker), apart from the benchmark client.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}

const commOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "?";
  }
};

/** The process and its descendants, each with the group it is counted in: workerd, wrangler (node processes) or other (esbuild, ...). */
export function processTree(rootPid) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(entry);
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(entry)]);
  }
  const all = [];
  const walk = (pid) => {
    const comm = commOf(pid);
    // wrangler's bin re-launches node with the CLI (its main thread names the process "MainThread").
    const group = comm === "workerd" ? "workerd" : comm === "node" || comm === "MainThread" ? "wrangler" : "other";
    all.push({ pid, group });
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(rootPid);
  return all;
}

/** CPU ms so far per group of the tree. */
export function treeCpu(tree) {
  const total = { workerd: 0, wrangler: 0, other: 0 };
  for (const { pid, group } of tree) total[group] += stat(pid)?.cpuMs ?? 0;
  return total;
}

export const cpuDelta = (before, after) => Object.fromEntries(Object.keys(before).map((k) => [k, after[k] - before[k]]));
