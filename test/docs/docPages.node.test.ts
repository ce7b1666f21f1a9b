// README.md and docs/*.md hold nothing stale that can be found without a server: links resolve,
// named files exist, every example is run by `npm run check:docs` or says why not, and every call
// a page shows names a tool and arguments the registry has. check:docs runs the examples.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  anchors,
  type CodeBlock,
  codeBlocks,
  isExample,
  isRun,
  links,
  namedFiles,
  type Page,
  pagePaths,
  shownCalls,
} from "../../scripts/lib/docPages";
import { tools } from "../../src/tools";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pages: Page[] = pagePaths(readdirSync(join(root, "docs"))).map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
const pageAt = new Map(pages.map((page) => [page.path, page]));
const exists = (path: string) => existsSync(join(root, path));

/** What is wrong with the page's links: a target outside the repository or missing, or an unknown heading. */
function brokenLinks(page: Page): string[] {
  return links(page)
    .filter(({ target }) => !/^[a-z]+:/.test(target))
    .flatMap(({ target, line }) => {
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const path = file ? normalize(join(dirname(page.path), file)) : page.path;
      if (path.startsWith("..") || !exists(path)) return [`${page.path}:${line} ${target}`];
      const headings = anchors(pageAt.get(path) ?? { path, text: "" });
      return anchor && !headings.has(anchor) ? [`${page.path}:${line} ${target} (no such heading)`] : [];
    });
}

/** Why check:docs would neither run the example nor know why not. */
function unaccounted(block: CodeBlock): string[] {
  const { directive } = block;
  const at = `${block.page}:${block.line} ${block.language} block`;
  if (isRun(block) || directive?.kind === "file" || directive?.kind === "not run") return [];
  if (directive?.kind === "covered")
    return directive.by.filter((path) => !exists(path)).map((path) => `${at}: covered by a missing ${path}`);
  return [directive?.kind === "unknown" ? `${at}: unknown comment "${directive.text}"` : `${at}: not run, and no comment says why`];
}

const argumentsOf = new Map<string, string[]>([
  ...tools.map((tool): [string, string[]] => [tool.name, Object.keys(tool.input.shape)]),
  ["tools", []],
  ["openapi", []],
]);

describe("the documentation pages", () => {
  it("link only to files of this repository, and to headings that exist", () => {
    expect(pages.flatMap(brokenLinks)).toEqual([]);
  });

  it("are all listed by the index, docs/README.md", () => {
    const listed = new Set(links(pageAt.get("docs/README.md")!).map(({ target }) => `docs/${target.split("#")[0]}`));
    expect(pages.filter((page) => page.path.startsWith("docs/") && !listed.has(page.path)).map((page) => page.path)).toEqual([
      "docs/README.md",
    ]);
  });

  it("name only files that exist", () => {
    const missing = pages.flatMap((page) =>
      namedFiles(page)
        .filter((file) => !exists(file.path))
        .map((file) => `${page.path}:${file.line} ${file.path}`),
    );
    expect(missing).toEqual([]);
  });

  it("run every example in npm run check:docs, or say in a form it knows why not", () => {
    expect(pages.flatMap(codeBlocks).filter(isExample).flatMap(unaccounted)).toEqual([]);
  });

  it("show calls of tools that exist, with arguments those tools take", () => {
    const wrong = pages.flatMap(shownCalls).flatMap(({ page, line, tool, args }) => {
      const known = argumentsOf.get(tool);
      if (!known) return [`${page}:${line} no tool ${tool}`];
      return args.filter((arg) => !known.includes(arg)).map((arg) => `${page}:${line} ${tool} takes no ${arg}`);
    });
    expect(wrong).toEqual([]);
  });

  it("keep the README an introduction that starts with the two commands", () => {
    const readme = pageAt.get("README.md")!;
    expect(readme.text.split("\n").length).toBeLessThanOrEqual(300);
    expect(codeBlocks(readme)[0]?.code).toBe("npm install && npm run dev\nnpm test");
  });
});
