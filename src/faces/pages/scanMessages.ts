import type { Lang } from "./messages";

/** One text in both languages; a function's parameters are typed once, by the Japanese version. */
const say = <T>(ja: T, en: T) => ({ ja, en });

/** The /scan page's texts (its own module, beside the settings pages' messages). */
const SCAN_TEXTS = {
  scanTitle: say("バーコードで探す", "Scan a barcode"),
  scanIntro: say(
    "箱のバーコード (JAN コード) をカメラで読むか、数字を入力すると、そのゲームを持っているかが分かります。",
    "Read the barcode (JAN code) on a box with your camera, or type its digits, to see whether you own the game.",
  ),
  startCamera: say("カメラで読み取る", "Scan with the camera"),
  stopCamera: say("カメラを止める", "Stop the camera"),
  cameraHelp: say("バーコードを枠の中に写してください。", "Hold the barcode inside the frame."),
  cameraUnavailable: say(
    "カメラを使えません。下の欄にバーコードの数字を入力してください。",
    "The camera cannot be used here. Type the barcode's digits below.",
  ),
  codeLabel: say("JAN コード (8 桁または 13 桁)", "JAN code (8 or 13 digits)"),
  lookUp: say("調べる", "Look up"),
  badCode: say("JAN コードは 8 桁か 13 桁の数字です。", "A JAN code is 8 or 13 digits."),
  resultsFor: (code: string) => say(`${code} のゲーム`, `Games with ${code}`),
  inLibrary: say("ライブラリにあります", "In your library"),
  notInLibrary: say("ライブラリにありません", "Not in your library"),
  onWishlist: say("ほしいものリストにあります", "On your wishlist"),
  notOnWishlist: say("ほしいものリストにありません", "Not on your wishlist"),
  copies: (count: string) => say(`所持品: ${count} 点`, `Physical copies: ${count}`),
  addToLibrary: say("ライブラリに追加", "Add to library"),
  addToWishlist: say("ほしいものリストに追加", "Add to wishlist"),
  addedToLibrary: say("ライブラリに追加しました。", "Added to your library."),
  addedToWishlist: say("ほしいものリストに追加しました。", "Added to your wishlist."),
  unknownCode: say(
    "このコードのゲームはまだカタログにありません。タイトルで探して、このコードをそのゲームのものとして提案できます。",
    "No game in the catalog has this code yet. Search by title and suggest the code for the game it belongs to.",
  ),
  titleLabel: say("タイトル", "Title"),
  searchTitle: say("タイトルで探す", "Search by title"),
  noTitleMatch: say("そのタイトルのゲームは見つかりませんでした。", "No game matches that title."),
  suggestCode: say("このゲームのコードとして提案", "Suggest the code for this game"),
  suggested: say(
    "提案しました。運営者の確認までは、あなたの検索だけがこのコードで見つけます。",
    "Suggested. Until the operator reviews it, only your own searches find the game by this code.",
  ),
  suggestionTerms: say(
    "提案したコードは、確認後にカタログの一部として全員に公開されます。",
    "A suggested code becomes part of the catalog, shown to everyone, once the operator approves it.",
  ),
  released: say("発売", "Released"),
};

export type ScanMessages = {
  [K in keyof typeof SCAN_TEXTS]: (typeof SCAN_TEXTS)[K] extends (...args: infer A) => { ja: string } ? (...args: A) => string : string;
};

const inLang = (lang: Lang) =>
  Object.fromEntries(
    Object.entries(SCAN_TEXTS).map(([name, text]) => [
      name,
      typeof text === "function" ? (...args: string[]) => (text as (...a: string[]) => Record<Lang, string>)(...args)[lang] : text[lang],
    ]),
  ) as ScanMessages;

const SCAN_MESSAGES: Record<Lang, ScanMessages> = { ja: inLang("ja"), en: inLang("en") };

export const scanMessagesOf = (lang: Lang): ScanMessages => SCAN_MESSAGES[lang];
