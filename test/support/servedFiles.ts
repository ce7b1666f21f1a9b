/** The files test/setup/devServer.ts writes into the folder it hands the served tests. */
export const SERVED_FILES = {
  /** Everything `npm run dev` printed so far, stdout and stderr as they came. */
  output: "output.log",
  /** Milliseconds from the start until the Worker first answered. */
  servedAfterMs: "served-after-ms",
  /** The exit code (or signal) of `npm run dev`, once it exited. */
  exit: "exit",
} as const;
