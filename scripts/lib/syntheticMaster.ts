// Clearly synthetic but plausible master data for benchmarks and load tests: every name says
// 合成/Synthetic, model numbers start with "SYN-", and JAN codes use the in-store prefix "2", so
// nothing can be mistaken for (or collide with) a real product. Deterministic for a seed.
import type { CompanyRow, EditionRow, GameRow, GenreRow, PlatformRow } from "./masterRows";
import { createSeededRandom, type SeededRandom } from "./seededRandom";

const PLATFORM_COUNT = 12;
const COMPANY_COUNT = 300;
const ROOT_GENRE_COUNT = 10;
const CHILD_GENRES_PER_ROOT = 2;
const LAST_RELEASE_DATE = "2005-12-31";
const PLATFORM_LIFESPAN_YEARS = 8;

export interface SyntheticMaster {
  platforms: PlatformRow[];
  companies: CompanyRow[];
  genres: GenreRow[];
  /** Generated lazily, so a large count is never held in memory at once. */
  games: Iterable<GameRow>;
}

export function generateSyntheticMaster(options: { games: number; seed: number }): SyntheticMaster {
  const platforms = syntheticPlatforms();
  const companies = syntheticCompanies();
  const genres = syntheticGenres();
  const references = { platforms, companies, genres };
  return {
    platforms,
    companies,
    genres,
    games: { [Symbol.iterator]: () => syntheticGames(options.games, options.seed, references) },
  };
}

// ---------------------------------------------------------------------------------------------
// Reference data: fixed, no randomness needed.

const MAKERS = ["合成電機", "合成玩具", "合成工業"] as const;

function syntheticPlatforms(): PlatformRow[] {
  return Array.from({ length: PLATFORM_COUNT }, (_, index) => {
    const number = pad(index + 1, 2);
    const year = 1983 + Math.round((index * 17) / (PLATFORM_COUNT - 1)); // launches 1983..2000
    const month = ((index * 5) % 12) + 1;
    const day = ((index * 7) % 28) + 1;
    return {
      platformId: index + 1,
      name: `合成機 ${number}`,
      nameEn: `Synthetic Console ${number}`,
      shortName: `SC${number}`,
      maker: MAKERS[index % MAKERS.length] as string,
      releaseDate: `${year}-${pad(month, 2)}-${pad(day, 2)}`,
      custom: false,
    };
  });
}

function syntheticCompanies(): CompanyRow[] {
  return Array.from({ length: COMPANY_COUNT }, (_, index) => {
    const number = pad(index + 1, 3);
    return {
      companyId: index + 1,
      name: `合成ソフト ${number}`,
      nameKana: `ゴウセイソフト ${number}`,
      nameEn: `Synthetic Soft ${number}`,
      custom: false,
    };
  });
}

/** Roots get ids 1..10 (`g01`), their children the ids after (`g01.c01`). */
function syntheticGenres(): GenreRow[] {
  const roots = Array.from({ length: ROOT_GENRE_COUNT }, (_, index) => ({
    genreId: index + 1,
    name: `合成ジャンル ${pad(index + 1, 2)}`,
    parentId: null,
    taxonomyKey: `g${pad(index + 1, 2)}`,
  }));
  const children = roots.flatMap((root, rootIndex) =>
    Array.from({ length: CHILD_GENRES_PER_ROOT }, (_, childIndex) => ({
      genreId: ROOT_GENRE_COUNT + rootIndex * CHILD_GENRES_PER_ROOT + childIndex + 1,
      name: `${root.name}-${pad(childIndex + 1, 2)}`,
      parentId: root.genreId,
      taxonomyKey: `${root.taxonomyKey}.c${pad(childIndex + 1, 2)}`,
    })),
  );
  return [...roots, ...children];
}

// ---------------------------------------------------------------------------------------------
// Titles: built from parts that each carry their hiragana reading and English name.

interface Word {
  /** As written in the title, including a leading "・" where the part is joined with one. */
  text: string;
  reading: string;
  en: string;
}

const PREFIXES: Word[] = [
  { text: "ネオ・", reading: "ねお", en: "Neo" },
  { text: "スーパー", reading: "すーぱー", en: "Super" },
  { text: "ハイパー", reading: "はいぱー", en: "Hyper" },
  { text: "新・", reading: "しん", en: "New" },
  { text: "真・", reading: "しん", en: "True" },
  { text: "超", reading: "ちょう", en: "Ultra" },
  { text: "メガ", reading: "めが", en: "Mega" },
  { text: "ミラクル・", reading: "みらくる", en: "Miracle" },
  { text: "ロイヤル・", reading: "ろいやる", en: "Royal" },
  { text: "ワンダー", reading: "わんだー", en: "Wonder" },
  { text: "マジカル・", reading: "まじかる", en: "Magical" },
  { text: "電撃", reading: "でんげき", en: "Blitz" },
];

const CORES: Word[] = [
  { text: "ドラゴン", reading: "どらごん", en: "Dragon" },
  { text: "スターブレイド", reading: "すたーぶれいど", en: "Starblade" },
  { text: "ファルコン", reading: "ふぁるこん", en: "Falcon" },
  { text: "サンダー", reading: "さんだー", en: "Thunder" },
  { text: "ギャラクシー", reading: "ぎゃらくしー", en: "Galaxy" },
  { text: "ナイト", reading: "ないと", en: "Knight" },
  { text: "ウィザード", reading: "うぃざーど", en: "Wizard" },
  { text: "ファントム", reading: "ふぁんとむ", en: "Phantom" },
  { text: "クリスタル", reading: "くりすたる", en: "Crystal" },
  { text: "シャドウ", reading: "しゃどう", en: "Shadow" },
  { text: "ブレイズ", reading: "ぶれいず", en: "Blaze" },
  { text: "ストーム", reading: "すとーむ", en: "Storm" },
  { text: "メタル", reading: "めたる", en: "Metal" },
  { text: "ルナ", reading: "るな", en: "Luna" },
  { text: "ソーサリー", reading: "そーさりー", en: "Sorcery" },
  { text: "エメラルド", reading: "えめらるど", en: "Emerald" },
  { text: "バーニング", reading: "ばーにんぐ", en: "Burning" },
  { text: "フロンティア", reading: "ふろんてぃあ", en: "Frontier" },
  { text: "ロボット", reading: "ろぼっと", en: "Robot" },
  { text: "ニンジャ", reading: "にんじゃ", en: "Ninja" },
  { text: "サムライ", reading: "さむらい", en: "Samurai" },
  { text: "パズル", reading: "ぱずる", en: "Puzzle" },
  { text: "レーサー", reading: "れーさー", en: "Racer" },
  { text: "ゴースト", reading: "ごーすと", en: "Ghost" },
  { text: "タイタン", reading: "たいたん", en: "Titan" },
  { text: "コスモ", reading: "こすも", en: "Cosmo" },
  { text: "ジャングル", reading: "じゃんぐる", en: "Jungle" },
  { text: "ピラミッド", reading: "ぴらみっど", en: "Pyramid" },
  { text: "ペンギン", reading: "ぺんぎん", en: "Penguin" },
  { text: "モンスター", reading: "もんすたー", en: "Monster" },
  { text: "サイバー", reading: "さいばー", en: "Cyber" },
  { text: "バンパイア", reading: "ばんぱいあ", en: "Vampire" },
  { text: "オーシャン", reading: "おーしゃん", en: "Ocean" },
  { text: "ハンター", reading: "はんたー", en: "Hunter" },
  { text: "キャッスル", reading: "きゃっする", en: "Castle" },
  { text: "魔界", reading: "まかい", en: "Netherworld" },
  { text: "銀河", reading: "ぎんが", en: "Milky Way" },
  { text: "武者", reading: "むしゃ", en: "Warrior" },
  { text: "風雲", reading: "ふううん", en: "Tempest" },
  { text: "天空", reading: "てんくう", en: "Sky" },
  { text: "雷神", reading: "らいじん", en: "Thunder God" },
  { text: "鋼鉄", reading: "こうてつ", en: "Steel" },
  { text: "夢幻", reading: "むげん", en: "Dreamland" },
  { text: "蒼穹", reading: "そうきゅう", en: "Azure" },
];

const SUFFIXES: Word[] = [
  { text: "戦記", reading: "せんき", en: "Chronicles" },
  { text: "伝説", reading: "でんせつ", en: "Legend" },
  { text: "物語", reading: "ものがたり", en: "Story" },
  { text: "大作戦", reading: "だいさくせん", en: "Operation" },
  { text: "外伝", reading: "がいでん", en: "Side Story" },
  { text: "帝国", reading: "ていこく", en: "Empire" },
  { text: "迷宮", reading: "めいきゅう", en: "Labyrinth" },
  { text: "英雄伝", reading: "えいゆうでん", en: "Heroes" },
  { text: "大冒険", reading: "だいぼうけん", en: "Great Adventure" },
  { text: "・クロニクル", reading: "くろにくる", en: "Chronicle" },
  { text: "・サーガ", reading: "さーが", en: "Saga" },
  { text: "・クエスト", reading: "くえすと", en: "Quest" },
  { text: "・ウォーズ", reading: "うぉーず", en: "Wars" },
  { text: "・レジェンド", reading: "れじぇんど", en: "Legends" },
  { text: "・アドベンチャー", reading: "あどべんちゃー", en: "Adventure" },
  { text: "・ファイター", reading: "ふぁいたー", en: "Fighter" },
  { text: "・スタジアム", reading: "すたじあむ", en: "Stadium" },
  { text: "・パニック", reading: "ぱにっく", en: "Panic" },
  { text: "・ゾーン", reading: "ぞーん", en: "Zone" },
  { text: "・ランド", reading: "らんど", en: "Land" },
  { text: "・フォース", reading: "ふぉーす", en: "Force" },
  { text: "・タクティクス", reading: "たくてぃくす", en: "Tactics" },
];

/** Series numbers; the reading is the number in digits, which a reading may contain. */
const SERIES_NUMBERS: Word[] = [
  { text: "2", reading: "2", en: "2" },
  { text: "3", reading: "3", en: "3" },
  { text: "4", reading: "4", en: "4" },
  { text: "II", reading: "2", en: "II" },
  { text: "III", reading: "3", en: "III" },
  { text: "IV", reading: "4", en: "IV" },
  { text: "V", reading: "5", en: "V" },
];

interface EditionKind {
  label: string;
  /** Days after the game's release: special editions ship with it, budget reprints come later. */
  releasedAfterDays: [min: number, max: number];
  /** Yen, within the 2800..11800 range of all prices. */
  price: [min: number, max: number];
}

const EDITION_KINDS: EditionKind[] = [
  { label: "限定版", releasedAfterDays: [0, 0], price: [6800, 11800] },
  { label: "初回生産版", releasedAfterDays: [0, 0], price: [4800, 9800] },
  { label: "廉価版", releasedAfterDays: [180, 1095], price: [2800, 4800] },
  { label: "ベスト版", releasedAfterDays: [365, 1460], price: [2800, 3800] },
];

interface SyntheticTitle {
  title: string;
  titleReading: string;
  titleEn: string;
  /** A fan abbreviation such as "ネオドラ3"; null for a one-word title, which has nothing to shorten. */
  abbreviation: string | null;
}

/** Syllables for invented proper nouns: katakana, its hiragana reading, romaji. */
const SYLLABLES = (
  "ア:あ:a イ:い:i ウ:う:u エ:え:e オ:お:o カ:か:ka キ:き:ki ク:く:ku ケ:け:ke コ:こ:ko サ:さ:sa シ:し:shi " +
  "ス:す:su セ:せ:se ソ:そ:so タ:た:ta チ:ち:chi ツ:つ:tsu テ:て:te ト:と:to ナ:な:na ニ:に:ni ヌ:ぬ:nu ネ:ね:ne " +
  "ノ:の:no ハ:は:ha ヒ:ひ:hi フ:ふ:fu ヘ:へ:he ホ:ほ:ho マ:ま:ma ミ:み:mi ム:む:mu メ:め:me モ:も:mo ヤ:や:ya " +
  "ユ:ゆ:yu ヨ:よ:yo ラ:ら:ra リ:り:ri ル:る:ru レ:れ:re ロ:ろ:ro ワ:わ:wa ガ:が:ga ギ:ぎ:gi グ:ぐ:gu ゲ:げ:ge " +
  "ゴ:ご:go ザ:ざ:za ジ:じ:ji ズ:ず:zu ゼ:ぜ:ze ゾ:ぞ:zo ダ:だ:da デ:で:de ド:ど:do バ:ば:ba ビ:び:bi ブ:ぶ:bu " +
  "ベ:べ:be ボ:ぼ:bo パ:ぱ:pa ピ:ぴ:pi プ:ぷ:pu ペ:ぺ:pe ポ:ぽ:po ン:ん:n"
)
  .split(" ")
  .map((entry) => entry.split(":") as [string, string, string]);

/**
 * An invented name (ザルキア, Zarukia), as real catalogues are full of proper nouns: without them
 * a few dozen common words would make every fragment match thousands of titles.
 */
function inventedName(random: SeededRandom): Word {
  const syllables = Array.from({ length: random.int(2, 4) }, () => random.pick(SYLLABLES));
  const romaji = syllables.map(([, , r]) => r).join("");
  return {
    text: syllables.map(([k]) => k).join(""),
    reading: syllables.map(([, h]) => h).join(""),
    en: romaji.charAt(0).toUpperCase() + romaji.slice(1),
  };
}

function syntheticTitle(random: SeededRandom): SyntheticTitle {
  const parts = [
    random.chance(0.35) ? random.pick(PREFIXES) : undefined,
    random.chance(0.6) ? inventedName(random) : random.pick(CORES),
    random.chance(0.7) ? random.pick(SUFFIXES) : undefined,
  ].filter((part): part is Word => part !== undefined);
  const number = random.chance(0.3) ? random.pick(SERIES_NUMBERS) : undefined;
  const name = parts.map((part) => part.text).join("");
  const abbreviated = parts.slice(0, 2).map((part) => part.text.replaceAll("・", "").slice(0, 2));
  return {
    title: number ? `${name} ${number.text}` : name,
    titleReading: [...parts, ...(number ? [number] : [])].map((part) => part.reading).join(""),
    titleEn: [...parts, ...(number ? [number] : [])].map((part) => part.en).join(" "),
    abbreviation: parts.length > 1 ? abbreviated.join("") + (number?.reading ?? "") : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Games

interface References {
  platforms: PlatformRow[];
  companies: CompanyRow[];
  genres: GenreRow[];
}

function* syntheticGames(count: number, seed: number, references: References): Generator<GameRow> {
  const random = createSeededRandom(seed);
  const roots = references.genres.filter((genre) => genre.parentId === null);
  const nextModelNumber = modelNumberSequence(random, references.platforms);
  let nextEditionId = 1;
  for (let gameId = 1; gameId <= count; gameId += 1) {
    const platform = random.pick(references.platforms);
    const publisher = random.pick(references.companies);
    const genre = random.pick(roots);
    const children = references.genres.filter((candidate) => candidate.parentId === genre.genreId);
    const genreSub = random.chance(0.5) ? random.pick(children) : null;
    const title = syntheticTitle(random);
    const releaseDate = dateInPlatformLifetime(random, platform);
    const janCode = random.chance(0.4) ? syntheticJanCode(random, "game", gameId) : null;
    const modelNumber = random.chance(0.6) ? [nextModelNumber(platform.platformId)] : [];
    const editionCount = random.chance(0.1) ? random.int(1, 2) : 0;
    const editions = shuffled(random, EDITION_KINDS)
      .slice(0, editionCount)
      .map((kind) => {
        const gameEditionId = nextEditionId;
        nextEditionId += 1;
        return syntheticEdition(random, kind, {
          gameEditionId,
          title: `${title.title} ${kind.label}`,
          modelNumber: nextModelNumber(platform.platformId),
          gameReleaseDate: releaseDate,
        });
      });
    yield {
      gameId,
      title: title.title,
      titleReading: title.titleReading,
      titleEn: [title.titleEn],
      // About 80% of titles have several words; a quarter of those get an alias: ~20% overall.
      aliases: title.abbreviation !== null && random.chance(0.25) ? [title.abbreviation] : [],
      platformId: platform.platformId,
      platformName: platform.name,
      publisherId: publisher.companyId,
      publisherName: publisher.name,
      genreId: genre.genreId,
      genreName: genre.name,
      genreSubId: genreSub?.genreId ?? null,
      genreKey: (genreSub ?? genre).taxonomyKey,
      releaseDate,
      janCode,
      modelNumber,
      price: syntheticPrice(random),
      mediaId: null,
      gpsId: null,
      dbId: null,
      dbSlug: null,
      dbCoverId: null,
      editions,
    };
  }
}

interface EditionBasics {
  gameEditionId: number;
  title: string;
  modelNumber: string;
  gameReleaseDate: string;
}

function syntheticEdition(random: SeededRandom, kind: EditionKind, basics: EditionBasics): EditionRow {
  const { gameEditionId, title, modelNumber, gameReleaseDate } = basics;
  const releaseDay = epochDay(gameReleaseDate) + random.int(...kind.releasedAfterDays);
  return {
    gameEditionId,
    title,
    modelNumber: [modelNumber],
    releaseDate: isoDate(Math.min(releaseDay, epochDay(LAST_RELEASE_DATE))),
    price: syntheticPrice(random, kind.price),
    janCode: syntheticJanCode(random, "edition", gameEditionId),
  };
}

function shuffled<T>(random: SeededRandom, items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = random.int(0, index);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** Yen in steps of 100; 2800..11800 unless narrowed. */
function syntheticPrice(random: SeededRandom, [min, max]: [number, number] = [2800, 11800]): number {
  return min + 100 * random.int(0, (max - min) / 100);
}

/** "SYN-" + the platform's letter + a per-platform number that only grows, so model numbers never repeat. */
function modelNumberSequence(random: SeededRandom, platforms: PlatformRow[]): (platformId: number) => string {
  const lastNumber = new Map(platforms.map((platform) => [platform.platformId, 1000]));
  return (platformId) => {
    const number = (lastNumber.get(platformId) ?? 1000) + random.int(1, 3);
    lastNumber.set(platformId, number);
    const letter = String.fromCharCode("A".charCodeAt(0) + ((platformId - 1) % 26));
    return `SYN-${letter}${number}`;
  };
}

/**
 * "2" (the in-store prefix, never assigned to a real product) + a digit telling games (0-4) from
 * editions (5-9) + a random digit + the 9-digit id, then the EAN-13 check digit: unique per row.
 */
function syntheticJanCode(random: SeededRandom, kind: "game" | "edition", id: number): string {
  const kindDigit = kind === "game" ? random.int(0, 4) : random.int(5, 9);
  const body = `2${kindDigit}${random.int(0, 9)}${pad(id, 9)}`;
  return `${body}${eanCheckDigit(body)}`;
}

/** The EAN-13 check digit for the first 12 digits: weights 1,3,1,3... from the left. */
function eanCheckDigit(first12: string): number {
  const sum = [...first12].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10;
}

// ---------------------------------------------------------------------------------------------
// Dates, as whole UTC days so every result is a valid calendar date.

const DAY_MS = 86_400_000;

function epochDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function dateInPlatformLifetime(random: SeededRandom, platform: PlatformRow): string {
  const first = epochDay(platform.releaseDate ?? LAST_RELEASE_DATE);
  const last = Math.min(first + Math.round(PLATFORM_LIFESPAN_YEARS * 365.25), epochDay(LAST_RELEASE_DATE));
  return isoDate(random.int(first, last));
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}
