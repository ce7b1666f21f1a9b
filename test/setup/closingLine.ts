// Prints the plain "N passed, N failed" closing line that CI reads, after vitest's own summary.
import type { Reporter, TestModule } from "vitest/node";

export default class ClosingLine implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const count = (state: "passed" | "failed" | "skipped") =>
      testModules.reduce((sum, module) => sum + [...module.children.allTests(state)].length, 0);
    const skipped = count("skipped");
    console.log(`\n${count("passed")} passed, ${count("failed")} failed${skipped ? `, ${skipped} skipped` : ""}`);
  }
}
