/** Wording shared by the two-step previews' summaries, which name what a confirmation takes along. */

/** The parts that are not empty, as a sentence lists them: "a", "a and b", "a, b and c". */
export function listed(parts: readonly (string | false | 0 | null | undefined)[]): string {
  const present = parts.filter((part): part is string => Boolean(part));
  return present.length < 2 ? (present[0] ?? "") : `${present.slice(0, -1).join(", ")} and ${present.at(-1)}`;
}

/** "1 game", "3 games". */
export const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Past this many, a summary names the first ones and counts the rest. */
const NAMED_AT_MOST = 10;

/** Names in quotes: "'a'", "'a' and 'b'", "'a', 'b' and 'c'", past NAMED_AT_MOST "... and 4 more". */
export const quotedNames = (names: readonly string[]) =>
  listed([
    ...names.slice(0, NAMED_AT_MOST).map((name) => `'${name}'`),
    names.length > NAMED_AT_MOST && `${names.length - NAMED_AT_MOST} more`,
  ]);
