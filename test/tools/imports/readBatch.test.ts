// A step reads the staged NDJSON in ranged R2 reads, each read to its end: rows cut by a read's end
// come whole in the next read, a row longer than a read doubles it, and the offsets resume exactly.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BATCH_ROWS, type JobRow, STAGED_PREFIX } from "../../../src/tools/imports/jobs";
import { readBatch } from "../../../src/tools/imports/steps";

const line = (r: number, memo: string) => `${JSON.stringify({ r, d: { memo } })}\n`;

async function stagedJob(text: string): Promise<JobRow> {
  const stagedKey = `${STAGED_PREFIX}read-batch/${crypto.randomUUID()}.ndjson`;
  await env.EXPORTS.put(stagedKey, text);
  return { stagedKey, byteSize: new TextEncoder().encode(text).length, nextOffset: 0 } as JobRow;
}

const memosOf = (batch: Awaited<ReturnType<typeof readBatch>>) => batch.rows.map((row) => (row.d as { memo: string }).memo);

describe("readBatch", () => {
  it("reads rows across small windows, whole, with the offset just after the last one", async () => {
    const memos = ["a", "bb", "ccc", "dddd", "eeeee"];
    const text = memos.map((memo, i) => line(i + 1, memo)).join("");
    const batch = await readBatch(env.EXPORTS, await stagedJob(text), 20);
    expect(memosOf(batch)).toEqual(memos);
    expect(batch.nextOffset).toBe(new TextEncoder().encode(text).length);
  });

  it("doubles the window for a row longer than it, and keeps multi-byte text whole", async () => {
    const long = "ヴェスタ".repeat(50);
    const batch = await readBatch(env.EXPORTS, await stagedJob(line(1, "x") + line(2, long) + line(3, "y")), 16);
    expect(memosOf(batch)).toEqual(["x", long, "y"]);
  });

  it("stops at BATCH_ROWS and resumes at the next row", async () => {
    const text = Array.from({ length: BATCH_ROWS + 5 }, (_, i) => line(i + 1, `m${i + 1}`)).join("");
    const job = await stagedJob(text);
    const first = await readBatch(env.EXPORTS, job, 64);
    expect(first.rows).toHaveLength(BATCH_ROWS);
    const second = await readBatch(env.EXPORTS, { ...job, nextOffset: first.nextOffset }, 64);
    expect(memosOf(second)).toEqual(Array.from({ length: 5 }, (_, i) => `m${BATCH_ROWS + i + 1}`));
    expect(second.nextOffset).toBe(job.byteSize);
  });
});
