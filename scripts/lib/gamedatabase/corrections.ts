// The project's corrections to GameDataBase, seed/master/corrections.tsv: one change a line, each
// with its reason, reviewed like code. `exact` replaces the source's `Title (exact)` before the
// box title and the reading are derived from it (a typo, or a Japanese title the source lacks);
// `reading` gives the reading by hand where the derived one is wrong or missing. Pure: the CLI
// reads the file.

export interface Correction {
  exact?: string;
  reading?: string;
}

/** Corrections by game key (`fc/rockman2drwilynonazo`: the platform's key and GameDataBase's ID). */
export type Corrections = Map<string, Correction>;

const FIELDS = ["exact", "reading"] as const;
type Field = (typeof FIELDS)[number];
const isField = (value: string): value is Field => (FIELDS as readonly string[]).includes(value);
const HIRAGANA_READING = /^[\u3041-\u309f\u30fc0-9]+$/;

/** Throws on a malformed line, naming it: every line needs a key, a known field, a value and a reason. */
export function parseCorrections(text: string): Corrections {
  const corrections: Corrections = new Map();
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [key = "", field = "", value = "", reason = ""] = line.split("\t");
    const problem = !/^[a-z0-9-]+\/\S+$/.test(key)
      ? "a game key such as fc/rockman2drwilynonazo"
      : !isField(field)
        ? `a field: ${FIELDS.join(" or ")}`
        : value.trim() === ""
          ? "a value"
          : field === "reading" && !HIRAGANA_READING.test(value)
            ? "a reading in hiragana, ー and digits"
            : reason.trim() === ""
              ? "a reason"
              : null;
    if (problem !== null || !isField(field))
      throw new Error(`corrections line ${index + 1}: expected ${problem}, got ${JSON.stringify(line)}`);
    const correction = corrections.get(key) ?? {};
    if (correction[field] !== undefined) throw new Error(`corrections line ${index + 1}: ${key} ${field} is corrected twice`);
    corrections.set(key, { ...correction, [field]: value });
  }
  return corrections;
}

/** Keys of corrections that name no game of the conversion: a typo there would silently correct nothing. */
export const unusedCorrections = (corrections: Corrections, gameKeys: Set<string>) =>
  [...corrections.keys()].filter((key) => !gameKeys.has(key));
