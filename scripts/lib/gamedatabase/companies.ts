// Publishers, deduplicated across spellings (`CAPCOM` = `Capcom` = `Capcom Co., Ltd.`) by a
// normalised key, named as Japanese boxes print them where that name (and its reading) is
// certain; otherwise the source's spelling with no reading.
import type { CompanyRow } from "../masterRows";

/** `Capcom Co., Ltd.` -> `capcom`: accents dropped, lower-case, letters and digits only, no corporate suffix. */
export function companyKey(spelling: string): string {
  const key = spelling
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[\s,]+(co\.?,?\s*ltd\.?|co\.?|ltd\.?|inc\.?|corp\.?|corporation|k\.?k\.?|limited)$/i, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
  return COMPANY_ALIASES[key] ?? key;
}

/**
 * Other spellings (and a few typos) of one company, as the keys they normalise to. Only merges
 * that are certain: NAMCOT was Namco's home-game brand, Nihon Bussan is Nichibutsu's name.
 */
const COMPANY_ALIASES: Record<string, string> = {
  namcot: "namco",
  nihonbussan: "nichibutsu",
  hacker: "hackerinternational",
  kyugo: "kyugoboueki",
  kadokawa: "kadokawashoten",
  outrigger: "outriggerkoubou",
  openbook: "openbook9003",
  sonyelectronic: "sonyelectronics",
  cononuts: "coconuts",
  pionner: "pioneer",
  kingrecods: "kingrecords",
  teichuku: "teichiku",
  techiku: "teichiku",
  towashiki: "towachiki",
};

/** Company names that contain a slash; any other "A/B" names two companies. */
const SLASHED_NAMES = new Set(["cbssony", "epicsony"]);

/** The publishing company of a `Publisher` cell: of "A/B" (co-publishers, or a label and its owner) the first. */
export function publisherOf(cell: string): string | null {
  const whole = cell.trim();
  const first = SLASHED_NAMES.has(companyKey(whole)) ? whole : (whole.split("/")[0] ?? "").trim();
  return first === "" ? null : first;
}

/** Key -> [name as printed on Japanese boxes, its reading in katakana]. */
export const COMPANY_NAMES_JA: Record<string, [name: string, kana: string | null]> = {
  altron: ["アルトロン", "アルトロン"],
  angel: ["エンジェル", "エンジェル"],
  aruze: ["アルゼ", "アルゼ"],
  ascii: ["アスキー", "アスキー"],
  askkodansha: ["アスク講談社", "アスクコウダンシャ"],
  asmik: ["アスミック", "アスミック"],
  asmikace: ["アスミック・エース", "アスミックエース"],
  athena: ["アテナ", "アテナ"],
  atlus: ["アトラス", "アトラス"],
  bandai: ["バンダイ", "バンダイ"],
  banpresto: ["バンプレスト", "バンプレスト"],
  bottomup: ["ボトムアップ", "ボトムアップ"],
  bps: ["ビーピーエス", "ビーピーエス"],
  capcom: ["カプコン", "カプコン"],
  chunsoft: ["チュンソフト", "チュンソフト"],
  compile: ["コンパイル", "コンパイル"],
  culturebrain: ["カルチャーブレーン", "カルチャーブレーン"],
  dataeast: ["データイースト", "データイースト"],
  datampolystar: ["データム・ポリスター", "データムポリスター"],
  electronicarts: ["エレクトロニック・アーツ", "エレクトロニックアーツ"],
  electronicartsvictor: ["エレクトロニック・アーツ・ビクター", "エレクトロニックアーツビクター"],
  enix: ["エニックス", "エニックス"],
  enterbrain: ["エンターブレイン", "エンターブレイン"],
  epoch: ["エポック社", "エポックシャ"],
  falcom: ["日本ファルコム", "ニホンファルコム"],
  gainax: ["ガイナックス", "ガイナックス"],
  gamearts: ["ゲームアーツ", "ゲームアーツ"],
  hallaboratory: ["ハル研究所", "ハルケンキュウジョ"],
  hotb: ["ホット・ビィ", "ホットビィ"],
  hudson: ["ハドソン", "ハドソン"],
  human: ["ヒューマン", "ヒューマン"],
  imagineer: ["イマジニア", "イマジニア"],
  imax: ["アイマックス", "アイマックス"],
  irem: ["アイレム", "アイレム"],
  jaleco: ["ジャレコ", "ジャレコ"],
  jorudan: ["ジョルダン", "ジョルダン"],
  kadokawashoten: ["角川書店", "カドカワショテン"],
  kaneko: ["カネコ", "カネコ"],
  kemco: ["ケムコ", "ケムコ"],
  kid: ["キッド", "キッド"],
  kingrecords: ["キングレコード", "キングレコード"],
  kodansha: ["講談社", "コウダンシャ"],
  koei: ["光栄", "コウエイ"],
  konami: ["コナミ", "コナミ"],
  masaya: ["メサイヤ", "メサイヤ"],
  mediafactory: ["メディアファクトリー", "メディアファクトリー"],
  mediaquest: ["メディアクエスト", "メディアクエスト"],
  mediarings: ["メディアリング", "メディアリング"],
  mediaworks: ["メディアワークス", "メディアワークス"],
  meldac: ["メルダック", "メルダック"],
  microcabin: ["マイクロキャビン", "マイクロキャビン"],
  micronet: ["マイクロネット", "マイクロネット"],
  namco: ["ナムコ", "ナムコ"],
  natsume: ["ナツメ", "ナツメ"],
  naxat: ["ナグザット", "ナグザット"],
  necavenue: ["NECアベニュー", "エヌイーシーアベニュー"],
  nechomeelectronics: ["NECホームエレクトロニクス", "エヌイーシーホームエレクトロニクス"],
  necinterchannel: ["NECインターチャネル", "エヌイーシーインターチャネル"],
  nichibutsu: ["日本物産", "ニホンブッサン"],
  nintendo: ["任天堂", "ニンテンドウ"],
  packinvideo: ["パック・イン・ビデオ", "パックインビデオ"],
  pioneer: ["パイオニア", "パイオニア"],
  ponycanyon: ["ポニーキャニオン", "ポニーキャニオン"],
  psikyo: ["彩京", "サイキョウ"],
  quest: ["クエスト", "クエスト"],
  rightstuff: ["ライトスタッフ", "ライトスタッフ"],
  riverhill: ["リバーヒルソフト", "リバーヒルソフト"],
  sammy: ["サミー", "サミー"],
  saurus: ["ザウルス", "ザウルス"],
  sega: ["セガ", "セガ"],
  seta: ["セタ", "セタ"],
  shogakukan: ["小学館", "ショウガクカン"],
  snk: ["SNK", "エスエヌケイ"],
  sofel: ["ソフエル", "ソフエル"],
  spike: ["スパイク", "スパイク"],
  square: ["スクウェア", "スクウェア"],
  squareenix: ["スクウェア・エニックス", "スクウェアエニックス"],
  starfish: ["スターフィッシュ", "スターフィッシュ"],
  success: ["サクセス", "サクセス"],
  sunsoft: ["サンソフト", "サンソフト"],
  takara: ["タカラ", "タカラ"],
  takarajimasha: ["宝島社", "タカラジマシャ"],
  taito: ["タイトー", "タイトー"],
  te: ["T&Eソフト", "ティーアンドイーソフト"],
  technos: ["テクノスジャパン", "テクノスジャパン"],
  technosoft: ["テクノソフト", "テクノソフト"],
  tecmo: ["テクモ", "テクモ"],
  teichiku: ["テイチク", "テイチク"],
  telenet: ["日本テレネット", "ニホンテレネット"],
  tengen: ["テンゲン", "テンゲン"],
  toaplan: ["東亜プラン", "トウアプラン"],
  toho: ["東宝", "トウホウ"],
  tokumashoten: ["徳間書店", "トクマショテン"],
  tokyoshoseki: ["東京書籍", "トウキョウショセキ"],
  tomy: ["トミー", "トミー"],
  tonkinhouse: ["トンキンハウス", "トンキンハウス"],
  towachiki: ["トーワチキ", "トーワチキ"],
  treasure: ["トレジャー", "トレジャー"],
  tsukudaoriginal: ["ツクダオリジナル", "ツクダオリジナル"],
  ubisoft: ["ユービーアイソフト", "ユービーアイソフト"],
  vap: ["バップ", "バップ"],
  varie: ["バリエ", "バリエ"],
  victokai: ["ビック東海", "ビックトウカイ"],
  videosystem: ["ビデオシステム", "ビデオシステム"],
  visco: ["ビスコ", "ビスコ"],
  wolfteam: ["ウルフ・チーム", "ウルフチーム"],
  yanoman: ["ヤノマン", "ヤノマン"],
  yutaka: ["ユタカ", "ユタカ"],
};

/**
 * One company row per key that some game names as publisher. `nameEn` is the spelling the
 * games use most (ties: the first in code-point order), and `name` too when the table has no
 * Japanese name.
 */
export function companyRows(spellingsByKey: Map<string, string[]>, idOf: (key: string) => number): CompanyRow[] {
  return [...spellingsByKey]
    .map(([key, spellings]) => {
      const nameEn = mostCommon(spellings);
      const [name, nameKana] = COMPANY_NAMES_JA[key] ?? [nameEn, null];
      return { companyId: idOf(key), name, nameKana, nameEn, custom: false as const };
    })
    .sort((a, b) => a.companyId - b.companyId);
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const [best] = [...counts].sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0));
  if (best === undefined) throw new Error("a company with no spelling");
  return best[0];
}
