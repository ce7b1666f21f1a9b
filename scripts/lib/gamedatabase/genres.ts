// Genres: PigSaint's `#genre` taxonomy (tags.yml) with the names a Japanese game magazine of the
// time would print. A root is `#genre:<root>`, a child `#genre:<root>><child>`; keys are the
// tags' own (`action`, `action.platformer`), so they stay put when PigSaint adds a genre.
import type { GenreRow } from "../masterRows";
import type { TagTaxonomy, TagValue, TaxonomyEntry } from "./tags";

/** Root key -> its Japanese name, and `root.child` -> the child's. */
export const GENRE_NAMES_JA: Record<string, string> = {
  action: "アクション",
  "action.platformer": "プラットフォーム",
  "action.maze": "迷路",
  "action.blockbreaker": "ブロック崩し",
  "action.runandgun": "ランアンドガン",
  "action.hackandslash": "ハック&スラッシュ",
  "action.metroidvania": "探索型アクション",
  "action.roguelite": "ローグライト",
  adventure: "アドベンチャー",
  "adventure.pointandclick": "ポイント&クリック",
  "adventure.visualnovel": "ビジュアルノベル",
  "adventure.survivalhorror": "サバイバルホラー",
  "adventure.text": "テキストアドベンチャー",
  board: "テーブルゲーム",
  "board.cards": "トランプ",
  "board.hanafuda": "花札",
  "board.chess": "チェス",
  "board.shougi": "将棋",
  "board.go": "囲碁",
  "board.mahjong": "麻雀",
  "board.reversi": "リバーシ",
  "board.othello": "オセロ",
  "board.backgammon": "バックギャモン",
  "board.party": "パーティーゲーム",
  "board.jankenpon": "じゃんけん",
  brawler: "ベルトスクロールアクション",
  fighting: "対戦格闘",
  "fighting.melee": "武器格闘",
  minigames: "ミニゲーム集",
  parlor: "パーラーゲーム",
  "parlor.pinball": "ピンボール",
  "parlor.jackpot": "スロット",
  "parlor.pachinko": "パチンコ",
  "parlor.darts": "ダーツ",
  "parlor.bowling": "ボウリング",
  "parlor.billiards": "ビリヤード",
  "parlor.mogurataiji": "もぐらたたき",
  "parlor.kiddieride": "キッズライド",
  "parlor.mechanical": "エレメカ",
  quiz: "クイズ",
  racing: "レース",
  "racing.combat": "バトルレース",
  rpg: "ロールプレイング",
  "rpg.a": "アクションRPG",
  "rpg.j": "コマンドRPG",
  "rpg.s": "シミュレーションRPG",
  "rpg.dungeoncrawler": "ダンジョンRPG",
  "rpg.mmo": "オンラインRPG",
  rhythm: "リズム",
  "rhythm.karaoke": "カラオケ",
  "rhythm.dance": "ダンス",
  shmup: "シューティング",
  "shmup.h": "横スクロールシューティング",
  "shmup.v": "縦スクロールシューティング",
  "shmup.i": "クォータービューシューティング",
  "shmup.danmaku": "弾幕シューティング",
  shooting: "ガンシューティング",
  "shooting.gallery": "射的",
  "shooting.rail": "レールシューティング",
  "shooting.fps": "FPS",
  "shooting.tps": "TPS",
  puzzle: "パズル",
  "puzzle.drop": "落ち物パズル",
  "puzzle.mind": "思考型パズル",
  sim: "シミュレーション",
  "sim.strategy": "戦略シミュレーション",
  "sim.cardgame": "カードゲーム",
  "sim.flight": "フライトシミュレーション",
  "sim.train": "電車運転",
  "sim.date": "恋愛シミュレーション",
  "sim.otome": "乙女ゲーム",
  "sim.life": "生活シミュレーション",
  "sim.farm": "牧場シミュレーション",
  "sim.pet": "育成シミュレーション",
  "sim.fishing": "釣り",
  "sim.driving": "ドライブ",
  "sim.god": "ゴッドゲーム",
  "sim.derby": "競馬",
  "sim.building": "経営シミュレーション",
  "sim.cooking": "料理",
  sports: "スポーツ",
  "sports.soccer": "サッカー",
  "sports.basketball": "バスケットボール",
  "sports.baseball": "野球",
  "sports.volleyball": "バレーボール",
  "sports.rugby": "ラグビー",
  "sports.football": "アメリカンフットボール",
  "sports.dodgeball": "ドッジボール",
  "sports.hockey": "アイスホッケー",
  "sports.skiing": "スキー",
  "sports.skateboarding": "スケートボード",
  "sports.snowboarding": "スノーボード",
  "sports.tennis": "テニス",
  "sports.pingpong": "卓球",
  "sports.paddle": "パドルテニス",
  "sports.squash": "スカッシュ",
  "sports.badminton": "バドミントン",
  "sports.flyingdisc": "フライングディスク",
  "sports.cycling": "自転車",
  "sports.formula1": "F1",
  "sports.rally": "ラリー",
  "sports.nascar": "NASCAR",
  "sports.motogp": "バイクレース",
  "sports.motocross": "モトクロス",
  "sports.karting": "カート",
  "sports.jetski": "ジェットスキー",
  "sports.golf": "ゴルフ",
  "sports.cricket": "クリケット",
  "sports.boxing": "ボクシング",
  "sports.kickboxing": "キックボクシング",
  "sports.wrestling": "プロレス",
  "sports.sumo": "相撲",
  "sports.karate": "空手",
  "sports.judo": "柔道",
  "sports.kendo": "剣道",
  "sports.taekwondo": "テコンドー",
  "sports.mma": "総合格闘技",
  "sports.decathlon": "陸上競技",
  "sports.running": "ランニング",
  "sports.archery": "アーチェリー",
  "sports.swimming": "水泳",
  "sports.rowing": "ボート",
  "sports.kayak": "カヌー",
  "sports.surf": "サーフィン",
  "sports.roller": "ローラースケート",
  notagame: "ゲーム以外",
  "notagame.educational": "学習",
  "notagame.drawing": "お絵かき",
  "notagame.popcorn": "ポップコーン",
  "notagame.purikura": "プリクラ",
  "notagame.redemption": "景品",
  "notagame.media": "映像・資料",
  "notagame.magazine": "雑誌",
  "notagame.application": "実用",
  "notagame.test": "テスト",
  "notagame.sdk": "開発キット",
  "notagame.slideshow": "画集",
  "notagame.sound": "サウンド",
};

/** A genre of the taxonomy, before it has an id. */
export interface GenreSpec {
  key: string;
  /** The parent's key; null for a root. */
  parent: string | null;
  name: string;
  /** False when the name is tags.yml's English description: no Japanese name in GENRE_NAMES_JA yet. */
  translated: boolean;
}

/** Every root and child of tags.yml's `#genre`, roots before their children, in the file's order. */
export function genreSpecs(taxonomy: TagTaxonomy): GenreSpec[] {
  return taxonomy.genres.flatMap((root) => [
    genreSpec(root.key, null, root.description),
    ...root.children.map((child) => genreSpec(`${root.key}.${child.key}`, root.key, child.description)),
  ]);
}

function genreSpec(key: string, parent: string | null, description: string): GenreSpec {
  const name = GENRE_NAMES_JA[key];
  return { key, parent, name: name ?? description, translated: name !== undefined };
}

export function genreRows(specs: GenreSpec[], idOf: (key: string) => number): GenreRow[] {
  return specs
    .map((spec) => ({
      genreId: idOf(spec.key),
      name: spec.name,
      parentId: spec.parent === null ? null : idOf(spec.parent),
      taxonomyKey: spec.key,
    }))
    .sort((a, b) => a.genreId - b.genreId);
}

/** A game's genres as keys: `main` and `sub` are roots, `key` the first genre's full key. */
export interface GameGenres {
  main: string | null;
  sub: string | null;
  key: string | null;
  /** Values naming no genre of the taxonomy (a typo such as `platfomer`, a non-root `runandgun`): left out. */
  unknown: string[];
}

/**
 * From a row's `#genre` values, in order: the main genre is the first value's root and `key`
 * its full key (with its first known child); the support genre is the first later value with
 * another root.
 */
export function gameGenres(values: TagValue[], taxonomy: TagTaxonomy): GameGenres {
  const unknown: string[] = [];
  const known = values.flatMap((value) => {
    const root = taxonomy.genres.find((entry) => entry.key === value.value);
    if (root === undefined) {
      unknown.push(value.value);
      return [];
    }
    const children = value.children.filter((child) => isChildOf(root, child));
    unknown.push(...value.children.filter((child) => !isChildOf(root, child)).map((child) => `${root.key}>${child}`));
    return [{ root: root.key, key: children[0] === undefined ? root.key : `${root.key}.${children[0]}` }];
  });
  const main = known[0];
  return {
    main: main?.root ?? null,
    sub: known.find((genre) => genre.root !== main?.root)?.root ?? null,
    key: main?.key ?? null,
    unknown,
  };
}

function isChildOf(root: TaxonomyEntry, child: string): boolean {
  return root.children.some((entry) => entry.key === child);
}
