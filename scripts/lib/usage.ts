// The scripts' one way to refuse their arguments: the problem, then how to call them, exit 2.

/** A `fail(message)` that prints the message and `usage` on stderr and exits 2 (a usage error). */
export function usageFailure(usage: string): (message: string) => never {
  return (message) => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
}
