// A tool call held at one point until the test lets it go: a request left in flight, as a crash
// leaves it, so a test can look at what its retry finds.
import type { ToolDefinition } from "../../src/registry/defineTool";

export interface HeldTool {
  /** The tool under its own name, whose first call stops before or after the real handler runs. */
  tool: ToolDefinition;
  /** Resolves once the first call stopped. */
  reached: Promise<void>;
  /** Lets the stopped call go on. */
  release(): void;
}

/** Wraps `tool`: its first call stops `at` the handler (later calls run straight through). */
export function holdFirstCall(tool: ToolDefinition, name: string, at: "beforeHandler" | "afterHandler"): HeldTool {
  let reachedNow!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    reachedNow = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let armed = true;
  const stop = async () => {
    if (!armed) return;
    armed = false;
    reachedNow();
    await gate;
  };
  return {
    reached,
    release,
    tool: {
      ...tool,
      name,
      async handler(ctx, args) {
        if (at === "beforeHandler") await stop();
        const result = await tool.handler(ctx, args);
        if (at === "afterHandler") await stop();
        return result;
      },
    },
  };
}
