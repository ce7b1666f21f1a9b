// The title a Japanese box prints, from GameDataBase's exact title, which writes the title
// screen's Latin logo beside the Japanese (`Dragon Quest III ドラゴンクエストIII そして伝説へ…`):
// Latin words that gloss kana standing beside them are left out. A Latin word the kana does not
// render stays (`Rockman 2: Dr.ワイリーの謎`: corrections.tsv gives that title by hand), and so
// does every Latin word where the kana reads more than the Latin glosses (`Super 競艇2
// スーパーきょうてい2`: the kana is the whole title's reading, not the title).
import { type Assembled, isJapanese, lettersOf, type Segment } from "./readings";
import { containsKana, hepburnAsKana } from "./romanisation";

const isLatinOrNumber = (segment: Segment | undefined) => segment?.kind === "latin" || segment?.kind === "number";

/**
 * The segments that gloss the title's Japanese. A leading block of Latin words and numbers goes
 * whole when the Japanese after it opens with the kana rendering its first words, renders every
 * word and says every number (`Golf Magazine Presents: 36 Great Holes … ゴルフマガジン プレゼンツ
 * 36グレートホールス …`). A later run of Latin words goes when the kana just before or just after it
 * renders it (with the numbers between them that the Japanese says), or, last in the title, when
 * it is the Hepburn romanisation of the reading (`幻想水滸伝 Genso Suikoden`, not `セーラームーン
 * Another Story`).
 */
export function glossingSegments(segments: Segment[], assembled: Assembled): Set<number> {
  const firstJapanese = segments.findIndex(isJapanese);
  const cut = new Set<number>();
  const lead = segments.slice(0, Math.max(firstJapanese, 0));
  const leadGlosses =
    lead.length > 0 &&
    (assembled.renderings.get(0) as number[] | undefined)?.[0] === firstJapanese &&
    lead.every((segment, index) =>
      segment.kind === "number"
        ? assembled.saidElsewhere(segment.digits)
        : Array.isArray(assembled.renderings.get(index)) && !assembled.pinned.has(index),
    );
  if (leadGlosses) for (const index of lead.keys()) cut.add(index);
  for (const [index, renderedBy] of assembled.renderings) {
    if (index < firstJapanese || assembled.pinned.has(index)) continue;
    for (const glossing of glossOf(segments, index, renderedBy, assembled)) cut.add(glossing);
  }
  return standingApart(segments, cut);
}

/** The Latin run at `index` and the numbers it carries, when they gloss their neighbour; else nothing. */
function glossOf(segments: Segment[], index: number, renderedBy: number[] | "elsewhere", assembled: Assembled): number[] {
  const onlyLatinBetween = (from: number, to: number) => segments.slice(from, to).every(isLatinOrNumber);
  if (renderedBy === "elsewhere")
    return onlyLatinBetween(index + 1, segments.length) && romanisesReading(segments[index]!, assembled) ? [index] : [];
  const first = renderedBy[0]!;
  const last = renderedBy.at(-1)!;
  const saysAgain = (segment: Segment | undefined) => segment?.kind === "number" && assembled.saidElsewhere(segment.digits);
  const withNumbers = (to: number) => Array.from({ length: to - index }, (_, offset) => index + offset);
  if (last < index) {
    if (!onlyLatinBetween(last + 1, index)) return [];
    let end = index + 1;
    while (saysAgain(segments[end])) end += 1;
    return withNumbers(end);
  }
  return segments.slice(index + 1, first).every(saysAgain) ? withNumbers(first) : [];
}

/** Whether every word of a Latin run is the Hepburn spelling of kana the reading has. */
function romanisesReading(segment: Segment, assembled: Assembled): boolean {
  if (segment.kind !== "latin") return false;
  return segment.words.every((word) => {
    const kana = hepburnAsKana(lettersOf([word]));
    return kana !== null && kana.length >= 2 && containsKana(assembled.reading, kana);
  });
}

/** The candidates that neither touch a kept neighbour nor are touched by one (`Beat Mania 2nd Mix` keeps its `nd`). */
function standingApart(segments: Segment[], candidates: Set<number>): Set<number> {
  const cut = new Set(candidates);
  const apart = (index: number) => {
    const before = index === 0 || segments[index]!.gap !== "" || cut.has(index - 1);
    const after = index === segments.length - 1 || segments[index + 1]!.gap !== "" || cut.has(index + 1);
    return before && after;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const index of cut) if (!apart(index)) changed = cut.delete(index);
  }
  return cut;
}

/** Characters a title keeps around its words that mean nothing once the words beside them are gone. */
const LOOSE_ENDS = /^(?:[\s:：\-–—・/!?.]|['’](?=\s))+|[\s:：\-–—・/]+$/g;
/** Punctuation written against a word and followed by a space (`Parlor! パーラー!`) goes with the word. */
const ATTACHED_PUNCTUATION = /^[^\s\p{L}\p{N}]+(?=\s)/u;

/**
 * The title without the given segments, each with the spaces before it, in the title's own
 * characters. The title unchanged when nothing Japanese would be left, or when its NFKC form does
 * not map character by character onto it (segment offsets are NFKC offsets).
 */
export function boxTitleOf(title: string, segments: Segment[], cut: Set<number>): string {
  const origins = nfkcOrigins(title);
  if (cut.size === 0 || origins === null) return title;
  let kept = "";
  let from = 0;
  for (const index of [...cut].sort((a, b) => a - b)) {
    const segment = segments[index]!;
    const spaces = segment.gap.length - segment.gap.trimEnd().length;
    kept += title.slice(from, origins[segment.start - spaces]);
    from = origins[segment.end]!;
    from += ATTACHED_PUNCTUATION.exec(title.slice(from))?.[0].length ?? 0;
  }
  kept = (kept + title.slice(from)).replace(/\s+/g, " ").replace(LOOSE_ENDS, "");
  return /[\u3041-\u30ff\p{Script=Han}]/u.test(kept) ? kept : title;
}

/** For each offset of the title's NFKC form, the offset it comes from in the title; null when NFKC joins characters. */
function nfkcOrigins(title: string): number[] | null {
  const origins: number[] = [];
  let normalised = "";
  let offset = 0;
  for (const character of title) {
    const form = character.normalize("NFKC");
    for (let unit = 0; unit < form.length; unit++) origins.push(offset);
    normalised += form;
    offset += character.length;
  }
  origins.push(title.length);
  return normalised === title.normalize("NFKC") ? origins : null;
}
