// Model numbers of cartridges whose libretro serial entry names no dump by CRC. libretro's N64
// and 64DD serial files list each ROM by the CRC of another byte order (.n64/.v64) than the
// big-endian .z64 dumps of its no-intro dat, whose hashes PigSaint gives; a CRC cannot be turned
// into another byte order's without the ROM. Two exact keys remain: the no-intro name the entry
// carries as its comment, and the game code printed inside the box's number (NUS-NSMJ-JPN holds
// NSMJ), which the no-intro dat gives as the ROM header's code. Pure; serials.ts calls it.

/** One `game` of a metadat/serial file: its name (the comment), its CRCs and its model numbers. */
export interface SerialEntry {
  name: string;
  crcs: string[];
  serials: string[];
}

/** One dump of a no-intro dat: its game name, its header's game code (inline `serial`), its hashes. */
export interface NamedDump {
  name: string;
  code: string | undefined;
  hashes: string[];
}

/** NUS-NSMJ-JPN, NUD-DKDJ-JPN, NUS-NWXJ: the code is the second part. */
const BOX_NUMBER = /^[A-Z]{3}-([A-Z0-9]{4})(?:-[A-Z]{3})?$/;

/** The game code inside a box number, or undefined when it has none. */
export function gameCodeOf(serial: string): string | undefined {
  return BOX_NUMBER.exec(serial)?.[1];
}

/**
 * The model numbers of each dump, for the entries given (those whose CRCs name no dump):
 * - by name: the dumps of the entry's name ("(Rev A)" is no-intro's "(Rev 1)"), when the box
 *   number's code agrees with the dump's header code. The first letter is left out of the
 *   comparison (the header says C for a cartridge the 64DD can extend, the box N); a different
 *   game id or region (Pokemon Stadium: box CP2J, dump CPSJ) means the entry is not this dump.
 * - else by code: the dumps whose header code is the box number's, when that code belongs to one
 *   title on both sides (its entries, its dumps; revisions and tags aside). Two titles either
 *   side ("Baku Bomber Man" and "Bomber Man 64" both say NUS-NHAJ-JPN) join nothing.
 */
export function serialsByGameCode(entries: SerialEntry[], dumps: NamedDump[]): Array<{ hashes: string[]; serials: string[] }> {
  const dumpsByName = groupBy(dumps, (dump) => dump.name);
  const dumpsByCode = groupBy(
    dumps.filter((dump) => dump.code !== undefined),
    (dump) => dump.code as string,
  );
  const entryTitlesByCode = new Map<string, Set<string>>();
  for (const entry of entries) {
    for (const code of entry.serials.flatMap((serial) => gameCodeOf(serial) ?? [])) {
      entryTitlesByCode.set(code, (entryTitlesByCode.get(code) ?? new Set()).add(titleOf(entry.name)));
    }
  }
  return entries.flatMap((entry) =>
    entry.serials.flatMap((serial) => {
      const code = gameCodeOf(serial);
      if (code === undefined) return [];
      const named = dumpsByName.get(entry.name) ?? dumpsByName.get(revisionByNumber(entry.name));
      const matched = named
        ? named.filter((dump) => dump.code !== undefined && dump.code.slice(1) === code.slice(1))
        : dumpsOfOneTitle(dumpsByCode.get(code) ?? [], entryTitlesByCode.get(code));
      return matched.map((dump) => ({ hashes: dump.hashes, serials: [serial] }));
    }),
  );
}

function dumpsOfOneTitle(dumps: NamedDump[], entryTitles: Set<string> | undefined): NamedDump[] {
  const dumpTitles = new Set(dumps.map((dump) => titleOf(dump.name)));
  return entryTitles?.size === 1 && dumpTitles.size === 1 ? dumps : [];
}

/** "Super Mario 64 (Japan) (Rev A) (Shindou Edition)" -> "Super Mario 64". */
function titleOf(name: string): string {
  return name.replace(/\s*\(.*$/, "");
}

/** libretro's serial files still say "(Rev A)" where no-intro now says "(Rev 1)". */
function revisionByNumber(name: string): string {
  return name.replace(/\(Rev ([A-Z])\)/g, (_, letter: string) => `(Rev ${letter.charCodeAt(0) - 64})`);
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
