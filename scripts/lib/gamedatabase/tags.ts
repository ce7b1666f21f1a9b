// PigSaint's tags: `#main:sub>child>child:sub` in a CSV cell, and the taxonomy of tags.yml.
import { parse as parseYaml } from "yaml";

/**
 * One `:` value of a tag. `>` lists children of that value, not levels below each other:
 * `#genre:action>platformer>runandgun` is action with the children platformer and runandgun.
 */
export interface TagValue {
  value: string;
  children: string[];
}

/** `#genre:adventure:sim>otome` -> {name: "genre", values: [adventure, sim>otome]}; `#alt` has no values. */
export interface Tag {
  name: string;
  values: TagValue[];
}

export function parseTags(cell: string): Tag[] {
  return cell
    .split(/\s+/)
    .filter((token) => token.startsWith("#") && token.length > 1)
    .map(parseTag);
}

function parseTag(token: string): Tag {
  const [name = "", ...values] = token.slice(1).split(":");
  return {
    name,
    values: values.map((text) => {
      const [value = "", ...children] = text.split(">");
      return { value, children };
    }),
  };
}

export function tagsNamed(tags: Tag[], name: string): Tag[] {
  return tags.filter((tag) => tag.name === name);
}

export function hasTag(tags: Tag[], name: string): boolean {
  return tags.some((tag) => tag.name === name);
}

// ---------------------------------------------------------------------------------------------
// tags.yml: `<tag>: {description, subtag: {<sub>: {description, children: {<child>: text}}}}`.

export interface TaxonomyEntry {
  key: string;
  description: string;
  children: Array<{ key: string; description: string }>;
}

export interface TagTaxonomy {
  /** The `#genre` subtags (roots) with their children, in the file's order. */
  genres: TaxonomyEntry[];
  /** `#reboxed` subtag -> its description ("Genteiban / 限定版"). */
  reboxed: Map<string, string>;
}

interface YamlSubtag {
  description?: unknown;
  children?: Record<string, unknown>;
}

export function readTagTaxonomy(yamlText: string): TagTaxonomy {
  const document = parseYaml(yamlText) as Record<string, { subtag?: Record<string, YamlSubtag | null> } | null>;
  return {
    genres: taxonomyEntries(document.genre?.subtag),
    reboxed: new Map(taxonomyEntries(document.reboxed?.subtag).map((entry) => [entry.key, entry.description])),
  };
}

function taxonomyEntries(subtags: Record<string, YamlSubtag | null> | undefined): TaxonomyEntry[] {
  return Object.entries(subtags ?? {}).map(([key, subtag]) => ({
    key,
    description: String(subtag?.description ?? key),
    children: Object.entries(subtag?.children ?? {}).map(([child, description]) => ({ key: child, description: String(description) })),
  }));
}
