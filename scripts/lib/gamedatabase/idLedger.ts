// The id ledger (seed/master/gamedatabase-ids.tsv, `kind\tkey\tid`): which master id each
// source key has. Keys come from PigSaint's own ids (`game\tsfc/akumajoudraculasuper`), so ids
// survive re-conversions of a newer checkout whatever the rows' order. The converter only adds:
// a new key gets the next id of its kind, an id once given is never renumbered nor reused.
import { CUSTOM_ID_BASE } from "../../../src/platform/schemas";

export const ID_KINDS = ["platform", "company", "genre", "game", "edition"] as const;
export type IdKind = (typeof ID_KINDS)[number];

const HEADER = "kind\tkey\tid";

export type IdLedger = Record<IdKind, Map<string, number>>;

export function emptyIdLedger(): IdLedger {
  return { platform: new Map(), company: new Map(), genre: new Map(), game: new Map(), edition: new Map() };
}

/** The ledger file's text ("" for none yet); a malformed line is an error naming it. */
export function parseIdLedger(text: string): IdLedger {
  const ledger = emptyIdLedger();
  const taken = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line === "" || line === HEADER) return;
    const fail = (problem: string): never => {
      throw new Error(`id ledger line ${index + 1}: ${problem}: ${JSON.stringify(line)}`);
    };
    const [kind, key, idText, ...rest] = line.split("\t");
    if (rest.length > 0 || key === undefined || key === "" || idText === undefined) fail("expected kind<TAB>key<TAB>id");
    if (!isIdKind(kind)) fail(`unknown kind (expected ${ID_KINDS.join(", ")})`);
    const id = Number(idText);
    if (!/^[1-9]\d*$/.test(idText as string) || id >= CUSTOM_ID_BASE) fail(`the id must be a whole number from 1 to ${CUSTOM_ID_BASE - 1}`);
    const ids = ledger[kind as IdKind];
    if (ids.has(key as string)) fail("the key is listed twice");
    if (taken.has(`${kind}\t${id}`)) fail(`the id is already given to another ${kind}`);
    taken.add(`${kind}\t${id}`);
    ids.set(key as string, id);
  });
  return ledger;
}

function isIdKind(kind: string | undefined): kind is IdKind {
  return (ID_KINDS as readonly string[]).includes(kind ?? "");
}

/**
 * Gives each key the ledger lacks the next id of its kind, in the order given (a fixed table's,
 * or code-point order: either way a run is deterministic), from one past the highest id the kind
 * ever had (and from `firstId` at least, where a source's ids start), so no id is reused. Returns how many keys were new.
 */
export function assignIds(ledger: IdLedger, kind: IdKind, orderedKeys: Iterable<string>, firstId = 1): number {
  const ids = ledger[kind];
  const fresh = [...new Set(orderedKeys)].filter((key) => !ids.has(key));
  let next = Math.max(firstId - 1, ...ids.values()) + 1;
  for (const key of fresh) {
    if (next >= CUSTOM_ID_BASE) throw new Error(`no ${kind} id left below ${CUSTOM_ID_BASE}`);
    ids.set(key, next);
    next += 1;
  }
  return fresh.length;
}

/** The id of a key assignIds has given one. */
export function idOf(ledger: IdLedger, kind: IdKind, key: string): number {
  const id = ledger[kind].get(key);
  if (id === undefined) throw new Error(`no ${kind} id for ${JSON.stringify(key)}`);
  return id;
}

/** The file's text: by kind, then id; keys no longer in the source stay, so their ids stay taken. */
export function formatIdLedger(ledger: IdLedger): string {
  const lines = ID_KINDS.flatMap((kind) => [...ledger[kind]].sort(([, a], [, b]) => a - b).map(([key, id]) => `${kind}\t${key}\t${id}`));
  return `${[HEADER, ...lines].join("\n")}\n`;
}

/** Plain code-point order, so ids never depend on the runtime's locale data. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
