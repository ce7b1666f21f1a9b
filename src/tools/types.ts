// Per-tool types, derived from the registered tool constants and their zod schemas (never written
// by hand): what a tool takes (z.input of its input schema, as a caller sends it) and what it
// answers (z.output of its output schema). Type-only; the test harness types its replies with them.
import type { z } from "zod";
import type { Registry } from "./index";

/** Every registered tool's name. */
export type ToolName = keyof Registry;

/** Tool name to its argument and reply types. */
export type ToolTypes = {
  [N in ToolName]: { input: z.input<Registry[N]["input"]>; output: z.output<Registry[N]["output"]> };
};

/** The arguments a tool takes, as a caller sends them. */
export type ToolInput<N extends ToolName> = ToolTypes[N]["input"];

/** The body of a tool's successful reply. */
export type ToolOutput<N extends ToolName> = ToolTypes[N]["output"];

/** A tool constant registered under another name than its tool's (checked where the name is a literal type). */
type Misregistered = {
  [N in ToolName]: Registry[N]["name"] extends N ? never : string extends Registry[N]["name"] ? never : N;
}[ToolName];
type Holds<T extends true> = T;
/** Compiles only while every tool is registered under its own name. */
export type RegistryNamesMatch = Holds<[Misregistered] extends [never] ? true : Misregistered>;
