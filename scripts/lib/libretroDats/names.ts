// What a Redump or No-Intro dump name says: `Final Fantasy VII (Japan) (Disc 1)`,
// `Arc the Lad (Japan) (PlayStation the Best)`. Pure.

export interface DumpName {
  /** The name before its first bracket, as the DAT spells it: the game's key. */
  datTitle: string;
  /** The title as the catalog shows it (see cleanTitle). */
  title: string;
  japanese: boolean;
  /** Demos, betas, prototypes, samples, bootlegs, unlicensed: not a game on a shelf. */
  unreleased: boolean;
  /** What sets a re-release or special edition apart (`PlayStation the Best`); "" for the plain release. */
  edition: string;
}

const REGIONS = new Set(
  "Japan USA Europe Asia Korea World Taiwan China Hong Kong Brazil Australia Canada France Germany Spain Italy Netherlands Sweden UK Russia Scandinavia Latin America".split(
    " ",
  ),
);
const REGION_TAG =
  /^(Japan|USA|Europe|Asia|Korea|World|Taiwan|China|Hong Kong|Brazil|Australia|Canada|France|Germany|Spain|Italy|Netherlands|Sweden|UK|Russia|Scandinavia|Latin America)(, .+)?$/;
const UNRELEASED =
  /\b(Taikenban|Demo|Beta|Proto|Prototype|Sample|Trial|Preview|Kiosk|Unl|Pirate|Promo|Debug|Hack|Aftermarket|Homebrew|Bootleg|Test Program|Virtual Console)\b/i;
/**
 * Demo and promotional discs named so in their title rather than a tag (`Square's Preview`,
 * `Sonic Adventure 2 - The Trial`, `Konami PlayStation 2 Taikenban`). Case matters: the romaji
 * `demo` of `Doko Demo Issho` is a word of a game's title.
 */
const DEMO_TITLE =
  /\b(Taikenban|Preview|Sample|Tentou|Movie-ban|Demo[- ](Disc|Video|CD|ban)|Title Demo|Trial (Disc|Edition|Version)|Promotion Dis[ck]|Making (of|Disc))\b|Demo \+|( - The Trial| - Demo|The Demo|Premium Disc)$/;
/** Tags that tell dumps of one release apart, not releases: languages, revisions, versions, alternates, disc numbers. */
const SAME_RELEASE = /^([A-Z][a-z](,[A-Z][a-z])*|Rev [\w.]+|v\d[\w.]*|Alt( \d+)?|Disc (\d+|[A-Z])|Track \d+|Side [AB])$/;
const DISC_NUMBER = /^Disc (\d+|[A-Z])$/;
/** Beside a disc number, the name of that disc (`Leon-hen`, `Zeon Disc`, `Omake Disc`): one release's discs, not a release. */
const DISC_NAME = /(-hen| Disc| Side)$/;
const TAG = /\(([^()]*)\)|\[([^[\]]*)\]/g;

export function parseDumpName(name: string): DumpName {
  const bracket = name.search(/ [([]/);
  const datTitle = (bracket === -1 ? name : name.slice(0, bracket)).trim();
  const tags = [...name.slice(datTitle.length).matchAll(TAG)].map((match) => (match[1] ?? match[2] ?? "").trim());
  const regionTag = tags.find((tag) => REGION_TAG.test(tag) && tag.split(", ").every((part) => REGIONS.has(part)));
  const japanese = regionTag?.split(", ").includes("Japan") ?? false;
  const unreleased = tags.some((tag) => UNRELEASED.test(tag)) || DEMO_TITLE.test(datTitle) || name.startsWith("[BIOS]");
  const hasDiscNumber = tags.some((tag) => DISC_NUMBER.test(tag));
  const edition = tags.filter((tag) => tag !== regionTag && !SAME_RELEASE.test(tag) && !(hasDiscNumber && DISC_NAME.test(tag))).join(" ");
  return { datTitle, title: cleanTitle(datTitle), japanese, unreleased, edition };
}

/**
 * The DAT's title made to read like a box: the article No-Intro moves to the end goes back to the
 * front (`Legend of Zelda, The` -> `The Legend of Zelda`) and the first ` - ` that stands for the
 * subtitle's colon becomes `: ` (`Tokimeki Memorial - Forever with You` -> `Tokimeki Memorial: Forever with You`).
 */
export function cleanTitle(datTitle: string): string {
  const withArticle = datTitle.replace(/^(.+?), (The|A|An)(?= - |$)/, "$2 $1");
  return withArticle.replace(" - ", ": ");
}
