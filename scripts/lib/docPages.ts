// The documentation pages (README.md and docs/*.md) as the checks read them: `npm run check:docs`
// runs their examples, test/docs/docPages.node.test.ts checks the rest without a server. Pure text
// work, no Node imports, so that check-docs.mjs (Node 24 strips the types) and the test share it.

/** A page: its path from the repository root (`docs/games.md`) and its text. */
export interface Page {
  path: string;
  text: string;
}

/** The pages in the order the checks read them: the README, then docs/ by name. */
export const pagePaths = (docsFolderNames: string[]) => [
  "README.md",
  ...docsFolderNames
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

/** Fenced blocks in these languages are examples: run by check:docs, or marked with why not. */
export const EXAMPLE_LANGUAGES = ["sh", "js", "ts"];

/** The reasons `<!-- example: not run: <reason> -->` may give, for blocks nothing can run. */
export const NOT_RUN_REASONS = {
  deploys: "it changes a Cloudflare account",
  benchmark: "it takes minutes on servers of its own, and its numbers are the run the page shows",
  client: "it sets up a desktop or hosted assistant; docs/mcp.md says where and how each setup was tried",
} as const;

/** What the comment `<!-- example: ... -->` on the line before a fence says (docs/README.md). */
export type Directive =
  | { kind: "answers"; statuses: number[] }
  | { kind: "file"; name: string }
  | { kind: "covered"; by: string[] }
  | { kind: "not run"; reason: keyof typeof NOT_RUN_REASONS }
  | { kind: "unknown"; text: string };

export interface CodeBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  code: string;
  directive: Directive | null;
}

/** A call of a tool a page shows: in inline code (`GET /rest/v1/getLibrary?sortBy=title`) or a curl command. */
export interface ShownCall {
  page: string;
  line: number;
  tool: string;
  args: string[];
}

const DIRECTIVE = /^<!-- example: (.*) -->$/;
const FENCE = /^(\s*)```(\S*)\s*$/;
/** Paths from the repository root that a page may name; patterns (`<family>`, `*`) end the match. */
const NAMED_FILE = /(?<![\w./-])((?:src|test|scripts|docs|migrations|seed|client|bench|public|\.ci)\/[\w./-]*[\w/])/g;
const TOOL_PATH = /\/rest\/v1\/(\w+)(?:\?([^\s"'`]+))?/;

function parseDirective(text: string): Directive {
  const [word, ...rest] = text.trim().split(/\s+/);
  const tail = rest.join(" ");
  if (word === "answers" && rest.length > 0 && rest.every((s) => /^\d{3}$/.test(s))) return { kind: "answers", statuses: rest.map(Number) };
  if (word === "file" && rest.length === 1) return { kind: "file", name: rest[0]! };
  if (word === "covered" && tail.startsWith("by ")) return { kind: "covered", by: tail.slice(3).split(/,\s*/) };
  const reason = /^not run: (\w+)$/.exec(text.trim())?.[1];
  if (reason && reason in NOT_RUN_REASONS) return { kind: "not run", reason: reason as keyof typeof NOT_RUN_REASONS };
  return { kind: "unknown", text };
}

export function codeBlocks(page: Page): CodeBlock[] {
  const lines = page.text.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const end = lines.findIndex((line, j) => j > i && line.trim() === "```");
    if (end < 0) break;
    const comment = DIRECTIVE.exec(lines[i - 1]?.trim() ?? "");
    blocks.push({
      page: page.path,
      line: i + 1,
      language: open[2]!,
      code: lines
        .slice(i + 1, end)
        .map((line) => line.slice(indent))
        .join("\n"),
      directive: comment ? parseDirective(comment[1]!) : null,
    });
    i = end;
  }
  return blocks;
}

export const isExample = (block: CodeBlock) => EXAMPLE_LANGUAGES.includes(block.language);

/** check:docs runs the block against its server. */
export const isRun = (block: CodeBlock) => block.language === "sh" && (block.directive === null || block.directive.kind === "answers");

/** The page's prose: fenced blocks and inline code blanked out (line breaks kept, for line numbers). */
function prose(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return text.replace(/^\s*```[\s\S]*?^\s*```/gm, blank).replace(/`[^`\n]*`/g, blank);
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Markdown links of the page's prose, with the line each is on. */
export function links(page: Page): { target: string; line: number }[] {
  const text = prose(page.text);
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ target: m[1]!, line: lineAt(text, m.index) }));
}

/** The anchors GitHub gives the page's headings (`## The reference page (/docs)` -> `the-reference-page-docs`). */
export function anchors(page: Page): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const m of prose(page.text).matchAll(/^#{1,6} (.+)$/gm)) {
    // The heading as written: inline code was blanked, so take the text from the page itself.
    const heading = page.text.slice(m.index, m.index + m[0].length).replace(/^#+ /, "");
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Files and folders of this repository the page names, anywhere in its text. */
export function namedFiles(page: Page): { path: string; line: number }[] {
  return [...page.text.matchAll(NAMED_FILE)].map((m) => ({ path: m[1]!, line: lineAt(page.text, m.index) }));
}

const queryNames = (query: string | undefined) => (query ? [...new URLSearchParams(query).keys()] : []);

/** Top-level keys of a `-d` JSON body, read with shell variables standing for values. */
function bodyKeys(body: string): string[] {
  try {
    const value = JSON.parse(body.replace(/\\"/g, '"').replace(/\$\w+/g, "0"));
    return value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/** The arguments a curl invocation (up to its URL) sends: the URL's query, JSON bodies and `-d name=value` fields. */
function curlArgs(invocation: string, query: string | undefined): string[] {
  const data = [...invocation.matchAll(/(?:-d|--data-urlencode)\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+))/g)].map(
    (m) => m[1] ?? m[2] ?? m[3]!,
  );
  const fields = data.flatMap((value) => (value.trimStart().startsWith("{") ? bodyKeys(value) : [value.split("=")[0]!]));
  return [...queryNames(query), ...fields];
}

/** Every tool call the page shows with its arguments; blocks that answer errors on purpose are left out. */
export function shownCalls(page: Page): ShownCall[] {
  const inline = [...page.text.matchAll(/`(?:GET|POST|PUT) (\/rest\/v1\/[^`\s]+)/g)].flatMap((m) => {
    const [, tool, query] = TOOL_PATH.exec(m[1]!) ?? [];
    return tool ? [{ page: page.path, line: lineAt(page.text, m.index), tool, args: queryNames(query) }] : [];
  });
  const commands = codeBlocks(page)
    .filter((block) => block.language === "sh" && block.directive?.kind !== "answers")
    .flatMap((block) => block.code.split(/(?<!\\)\n/).map((command) => ({ block, command })));
  const curls = commands.flatMap(({ block, command }) => {
    const url = TOOL_PATH.exec(command);
    if (!url) return [];
    const invocation = command.slice(command.lastIndexOf("curl ", url.index), url.index + url[0].length);
    return [{ page: page.path, line: block.line, tool: url[1]!, args: curlArgs(invocation, url[2]) }];
  });
  return [...inline, ...curls];
}
