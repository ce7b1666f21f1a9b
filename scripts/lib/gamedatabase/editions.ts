// The products of one game: PigSaint lists a game (platform, ID) as many rows (one per dump),
// and several rows can be one product a collector owns. Rows of a product are merged: `#alt`
// dumps and `#set` (arcade ROM sets) of the same product, and the discs (`#disc:N>k`) of one box.
// What tells products apart: the revision (`#rev:1`), the box (`#reboxed`, `#reboxed:satakore`),
// and otherwise the release date and the title on the box (the Saturn's premium packs, the
// Satellaview's weekly episodes, an arcade board's dated versions). One product is the game
// itself (baseProduct), the others are its editions.
import type { SourceRow } from "./csv";
import { compareCodePoints } from "./idLedger";
import { hasTag, tagsNamed } from "./tags";

export interface Product {
  /** What sets the product apart within its game; the edition's ledger key is `<game key>#<identity>`. */
  identity: string;
  rev: string | null;
  /** The `#reboxed` subtag, "" for a bare `#reboxed`, null when not reboxed. */
  reboxed: string | null;
  /** Its rows in file order: discs, alternative dumps. */
  rows: SourceRow[];
}

/**
 * The game's rows grouped into products, in the order of their first row. An overseas game's
 * products are also told apart by region (a USA and a European release of one game).
 */
export function groupProducts(rows: SourceRow[], overseas: boolean): Product[] {
  const products = new Map<string, Product>();
  for (const row of rows) {
    const rev = firstSubtag(row, "rev");
    const reboxed = hasTag(row.tags, "reboxed") ? (firstSubtag(row, "reboxed") ?? "") : null;
    const identity = productIdentity(row, rev, reboxed, overseas);
    const product = products.get(identity);
    if (product) product.rows.push(row);
    else products.set(identity, { identity, rev, reboxed, rows: [row] });
  }
  return [...products.values()];
}

function firstSubtag(row: SourceRow, name: string): string | null {
  return tagsNamed(row.tags, name)[0]?.values[0]?.value ?? null;
}

/**
 * `rev:1`; `reboxed | 1996-10-04 | アンジェリーク Special (プレミアム Box)`; `1995-08-11 | Brandish 2
 * ブランディッシュ The Planet Buster`; `reboxed:satakore | 1997-06-20` (two discs: a disc's title
 * names the disc, not the box, so it is left out); overseas `rev:1 | USA`. A revision is one
 * product whatever its rows' dates.
 */
function productIdentity(row: SourceRow, rev: string | null, reboxed: string | null, overseas: boolean): string {
  const tags = [reboxed === null ? null : reboxed === "" ? "reboxed" : `reboxed:${reboxed}`, rev === null ? null : `rev:${rev}`];
  const revisionOnly = rev !== null && reboxed === null;
  const isDisc = hasTag(row.tags, "disc");
  const parts = [
    tags.filter((tag) => tag !== null).join("+"),
    revisionOnly ? "" : row.releaseDate,
    revisionOnly || isDisc ? "" : row.titleExact,
    overseas ? row.region : "",
  ];
  return parts
    .filter((part) => part !== "")
    .join(" | ")
    .replace(/\s+/g, " ");
}

/**
 * The product that is the game itself: an original release before a revision before a reboxed
 * one, then the earliest dated, then the first listed. A partial date counts as the end of its
 * year or month (all it says is "by then"), an undated product comes last.
 */
export function baseProduct(products: Product[]): Product {
  const rank = (product: Product) => (product.reboxed !== null ? 2 : product.rev !== null ? 1 : 0);
  const date = (product: Product) => {
    const releaseDate = product.rows[0]?.releaseDate ?? "";
    return releaseDate === "" ? "\uffff" : `${releaseDate}-99-99`.slice(0, 10);
  };
  const [base] = products
    .map((product, order) => ({ product, order }))
    .sort((a, b) => rank(a.product) - rank(b.product) || compareCodePoints(date(a.product), date(b.product)) || a.order - b.order);
  if (base === undefined) throw new Error("a game without products");
  return base.product;
}

/** The product's titles: its rows' common title (a box of discs titled "… (Disc 1)", "… (Disc 2)"). */
export function productTitles(product: Product): { exact: string; romanised: string; screen: string } {
  return {
    exact: commonTitle(product.rows.map((row) => row.titleExact)),
    romanised: commonTitle(product.rows.map((row) => row.title)),
    screen: commonTitle(product.rows.map((row) => row.titleScreen)),
  };
}

/** The titles' longest common beginning, not ending inside a Latin word nor on a dangling "(" or ":". */
export function commonTitle(titles: string[]): string {
  const [first = "", ...others] = titles;
  let length = first.length;
  for (const title of others) {
    let same = 0;
    while (same < length && title[same] === first[same]) same += 1;
    length = same;
  }
  if (length === first.length) return first;
  const cut = first.slice(0, length);
  const insideWord = /[A-Za-z0-9]$/.test(cut) && /^[A-Za-z0-9]/.test(first.slice(length));
  return (insideWord ? cut.replace(/[A-Za-z0-9]+$/, "") : cut).replace(/[\s(（/:：-]+$/, "") || first;
}

/** The name a reboxed product's series has in tags.yml: its Japanese part when it has one ("Genteiban / 限定版" -> 限定版). */
function reboxedLabel(description: string): string {
  const japanese = description.split(" / ").filter((part) => /[\u3040-\u30ff\u3400-\u9fff]/.test(part));
  return japanese.at(-1) ?? description;
}

/**
 * An edition's title: its own box title when that differs from the game's, else the game's
 * title with the reboxed series' name ("… (サタコレ)"); a revision adds " (Rev 1)".
 */
export function editionTitle(product: Product, gameTitle: string, reboxedLabels: Map<string, string>): string {
  const own = productTitles(product).exact;
  const series = product.reboxed ? reboxedLabels.get(product.reboxed) : undefined;
  const boxTitle = own !== gameTitle ? own : series === undefined ? gameTitle : `${gameTitle} (${reboxedLabel(series)})`;
  return product.rev === null ? boxTitle : `${boxTitle} (Rev ${product.rev.toUpperCase()})`;
}
