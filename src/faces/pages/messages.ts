import type { accountEvents } from "../../db/schema";
import type { ErrorCode } from "../../platform/errors";
import type { RegisteredResource, Scope } from "../../platform/plans";

/** The pages' languages. */
export const LANGS = ["ja", "en"] as const;
export type Lang = (typeof LANGS)[number];

/** A browser that asks for neither language gets English, the one more of the world reads. */
const DEFAULT_LANG: Lang = "en";

const isLang = (value: string | undefined): value is Lang => (LANGS as readonly string[]).includes(value ?? "");

/** The q-value of one Accept-Language entry's parameters (absent: 1; unreadable: 0, not acceptable). */
function qualityOf(params: readonly string[]): number {
  const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
  if (!q) return 1;
  const value = Number(q.slice(2));
  return Number.isFinite(value) ? value : 0;
}

/** The best of our languages an Accept-Language header names (by q-value, then by order), if any. */
function acceptedLang(header: string): Lang | undefined {
  let best: { lang: Lang; q: number } | undefined;
  for (const entry of header.split(",")) {
    const [tag = "", ...params] = entry.split(";");
    const primary = tag.trim().toLowerCase().split("-")[0];
    const q = qualityOf(params);
    if (isLang(primary) && q > 0 && (!best || q > best.q)) best = { lang: primary, q };
  }
  return best?.lang;
}

/** `?lang=ja|en` wins (and is carried on the pages' links); else the browser's Accept-Language. */
export function chooseLang(query: string | undefined, acceptLanguage: string | undefined): { lang: Lang; chosen: boolean } {
  if (isLang(query)) return { lang: query, chosen: true };
  return { lang: acceptedLang(acceptLanguage ?? "") ?? DEFAULT_LANG, chosen: false };
}

/** One text in both languages; a function's parameters are typed once, by the Japanese version. */
const say = <T>(ja: T, en: T) => ({ ja, en });

const SCOPE_TEXTS: Record<Scope, { ja: string; en: string }> = {
  "library:read": say(
    "ライブラリ・ほしいもの・所持品・タグ・コレクション・属性の閲覧とエクスポート",
    "Read and export your library, wishlist, physical copies, tags, collections and attributes",
  ),
  "library:write": say(
    "ライブラリ・ほしいもの・所持品・タグ・コレクション・属性・独自ゲームの追加と変更、インポート",
    "Add and change library entries, wishlist, copies, tags, collections, attributes and custom games; import",
  ),
  "library:delete": say(
    "ライブラリ・ほしいもの・所持品・タグ・コレクション・属性・独自ゲームの削除",
    "Remove library entries, wishlist items, copies, tags, collections, attributes and custom games",
  ),
  "play:read": say(
    "プレイ記録・プレイログ・本体・メンテナンス記録の閲覧",
    "Read play records, play logs, consoles and their maintenance logs",
  ),
  "play:write": say(
    "プレイ記録・プレイログ・本体・メンテナンス記録の追加と変更",
    "Add and change play records, play logs, consoles and maintenance logs",
  ),
  "play:delete": say(
    "プレイ記録・プレイログ・本体・メンテナンス記録の削除",
    "Remove play records, play logs, consoles and maintenance logs",
  ),
  "games:read": say(
    "ゲームカタログ (機種・メーカー・ジャンル) の検索と閲覧、マスターデータのエクスポート",
    "Search and browse the game catalog (platforms, publishers, genres); export master data",
  ),
};

const scopeTextsIn = (lang: Lang) =>
  Object.fromEntries(Object.entries(SCOPE_TEXTS).map(([scope, text]) => [scope, text[lang]])) as Record<Scope, string>;

type EventKind = (typeof accountEvents.$inferSelect)["kind"];

const TEXTS = {
  siteName: say("レトロゲームコレクション", "Retro Game Collection"),
  otherLanguage: say("English", "日本語"),
  // sign-in, sign-up, invites
  signInTitle: say("サインイン", "Sign in"),
  signInIntro: say(
    "この端末やスマートフォンに保存したパスキーでサインインします。パスワードはありません。",
    "Sign in with a passkey saved on this device or your phone. There are no passwords.",
  ),
  signInButton: say("パスキーでサインイン", "Sign in with a passkey"),
  signInToConnect: say(
    "アシスタントを接続するには、まずパスキーでサインインしてください。サインインのあと、許可する内容を確認できます。",
    "To connect an assistant, first sign in with your passkey. You then see what it asks for before anything is allowed.",
  ),
  signUpTitle: say("アカウントを作る", "Create an account"),
  signUpIntro: say(
    "はじめての方は、パスキーで無料 (FREE) アカウントを作れます。",
    "New here? Create a free (FREE plan) account with a passkey.",
  ),
  signUpButton: say("パスキーでアカウントを作成", "Create an account with a passkey"),
  inviteOnly: say(
    "アカウントは招待制です。運営者に招待リンクを依頼してください。",
    "Accounts are by invitation: ask the operator for an invite link.",
  ),
  inviteTitle: say("パスキーの登録", "Register your passkey"),
  inviteFor: say(
    (name: string) => `${name} さんのアカウントにパスキーを登録します。`,
    (name) => `Register a passkey for ${name}'s account.`,
  ),
  inviteForUnnamed: say("あなたのアカウントにパスキーを登録します。", "Register a passkey for your account."),
  inviteOnce: say(
    (expiry: string) => `このリンクは 1 回だけ使え、${expiry} に期限が切れます。`,
    (expiry) => `This link works once and expires at ${expiry}.`,
  ),
  inviteUsed: say(
    "この招待リンクは使用済みです。新しいリンクを運営者に依頼してください。",
    "This invite link was already used. Ask the operator for a new one.",
  ),
  inviteExpired: say(
    "この招待リンクは期限切れです。新しいリンクを運営者に依頼してください。",
    "This invite link has expired. Ask the operator for a new one.",
  ),
  registerButton: say("パスキーを登録", "Register a passkey"),
  passkeyNameLabel: say("このパスキーの名前 (任意、例: 仕事用ノート PC)", "A name for this passkey (optional, e.g. work laptop)"),
  needsScript: say("パスキーの操作には JavaScript が必要です。", "Passkeys need JavaScript turned on for this page."),
  ceremonyWorking: say("パスキーの操作を待っています…", "Waiting for your passkey…"),
  ceremonyFailed: say("うまくいきませんでした:", "That did not work:"),
  ceremonyUnsupported: say("このブラウザはパスキーに対応していません。", "This browser does not support passkeys."),
  signedOut: say("サインアウトしました。", "You are signed out."),
  // settings: plan and usage
  settingsTitle: say("設定", "Settings"),
  planAndUsage: say("プランと利用状況", "Plan and usage"),
  plan: say("プラン", "Plan"),
  usageToday: say("本日の利用", "Today's usage"),
  usedOf: say(
    (used: string, limit: string) => `${limit} 回中 ${used} 回`,
    (used, limit) => `${used} of ${limit} calls`,
  ),
  resetsAt: say(
    (at: string) => `${at} にリセット`,
    (at) => `resets at ${at}`,
  ),
  burstLimit: say("バースト上限", "Burst limit"),
  burstPerKey: say(
    (calls: string, seconds: string) => `キーごとに ${seconds} 秒あたり ${calls} 回`,
    (calls, seconds) => `${calls} calls per key per ${seconds} seconds`,
  ),
  timeZoneTitle: say("タイムゾーン", "Time zone"),
  timeZoneHelp: say(
    (today: string) =>
      `記録の既定の日付 (「今日」) と期限切れの判定に使います。この設定での今日: ${today}。利用回数の上限は UTC の日で数えます。`,
    (today) =>
      `It decides "today" for the dates your records get by default and for overdue filters. Today there: ${today}. The daily quota counts UTC days.`,
  ),
  timeZoneLabel: say("IANA タイムゾーン名 (例: Asia/Tokyo)", "IANA time zone name (e.g. Asia/Tokyo)"),
  timeZoneSave: say("タイムゾーンを保存", "Save time zone"),
  timeZoneSaved: say("タイムゾーンを保存しました。", "The time zone was saved."),
  registered: say("登録数", "Registered"),
  resource: say("種類", "Kind"),
  count: say("件数", "Count"),
  limit: say("上限", "Limit"),
  noLimit: say("上限なし", "no limit"),
  resourceName: say<Record<RegisteredResource, string>>(
    {
      apiKeys: "API キー",
      attributes: "属性",
      customGames: "独自ゲーム",
      customPlatforms: "独自機種",
      customPublishers: "独自メーカー",
      library: "ライブラリ",
      wishlist: "ほしいもの",
      consoles: "本体",
      tags: "タグ",
      collections: "コレクション",
    },
    {
      apiKeys: "API keys",
      attributes: "attributes",
      customGames: "custom games",
      customPlatforms: "custom platforms",
      customPublishers: "custom publishers",
      library: "library entries",
      wishlist: "wishlist entries",
      consoles: "consoles",
      tags: "tags",
      collections: "collections",
    },
  ),
  notInPlan: say("このプランでは使えません", "not in this plan"),
  // the chart
  chartTitle: say("過去 30 日の呼び出し回数 (UTC の日ごと)", "Calls per day over the last 30 days (UTC days)"),
  chartSummary: say(
    (total: string, peak: string, quota: string) => `30 日の合計 ${total} 回、最多の日 ${peak} 回、1 日の上限 ${quota} 回。`,
    (total, peak, quota) => `${total} calls in 30 days; busiest day ${peak}; daily quota ${quota}.`,
  ),
  chartQuota: say(
    (quota: string) => `1 日の上限 ${quota}`,
    (quota) => `daily quota ${quota}`,
  ),
  chartQuotaAbove: say(
    (quota: string) => `1 日の上限 ${quota} (この目盛りのはるか上)`,
    (quota) => `daily quota ${quota}, far above this scale`,
  ),
  chartCalls: say("回数", "calls"),
  chartDate: say("日付 (UTC)", "date (UTC)"),
  chartNumbers: say("日ごとの数値", "The numbers by day"),
  // keys
  keysTitle: say("API キー", "API keys"),
  yourKeys: say("作成したキー", "Your keys"),
  keyName: say("名前", "Name"),
  keyPrefix: say("キー", "Key"),
  keyScopes: say("権限", "Scopes"),
  created: say("作成", "Created"),
  lastUsed: say("最終使用", "Last used"),
  expires: say("有効期限", "Expires"),
  state: say("状態", "State"),
  stateActive: say("有効", "active"),
  stateRevoked: say("失効済み", "revoked"),
  stateExpired: say("期限切れ", "expired"),
  endedReason: say(
    {
      code_reused: "接続の認可コードが二度使われたため、接続を終了しました",
      refresh_token_reused: "更新トークンが二度使われた (盗まれた可能性がある) ため、接続を終了しました",
    },
    {
      code_reused: "ended: its authorization code was used twice",
      refresh_token_reused: "ended: its refresh token was used twice (it may have been stolen)",
    },
  ),
  never: say("なし", "never"),
  notYet: say("未使用", "not yet"),
  unnamed: say("(名前なし)", "(no name)"),
  noKeys: say("キーはまだありません。", "No keys yet."),
  revoke: say("失効させる", "Revoke"),
  createKeyTitle: say("キーを作成", "Create a key"),
  presetLegend: say("権限の選び方", "Permissions"),
  presetViewOnly: say("閲覧のみ", "View only"),
  presetViewOnlyHelp: say("読み取りだけ。何も変更できません。", "Reading only: it can change nothing."),
  presetStandard: say("標準", "Standard"),
  presetStandardHelp: say("読み取りと追加・変更。削除はできません。", "Reading, adding and changing; no removing."),
  presetIndividual: say("個別設定", "Individual settings"),
  presetIndividualHelp: say(
    "下の権限を 1 つずつ選びます。削除の権限を付けられるのはここだけです。",
    "Choose each permission below: the only way to allow removing.",
  ),
  scopesLegend: say("権限 (個別設定のときに使われます)", "Permissions (used with individual settings)"),
  scopesDisagree: say(
    (preset: string, scopes: string) =>
      `scopes: 選んだ権限が「${preset}」(${scopes}) と一致しません。「個別設定」を選ぶか、チェックを外してください。`,
    (preset, scopes) =>
      `scopes: the permissions ticked do not match "${preset}" (${scopes}); choose "Individual settings", or untick them.`,
  ),
  expiryNone: say("なし", "none"),
  expiryDays: say(
    (days: number) => `${days} 日`,
    (days) => `${days} days`,
  ),
  createKeyButton: say("キーを作成", "Create key"),
  newKeyTitle: say("新しいキー", "Your new key"),
  newKeyWarning: say(
    "今すぐコピーして安全な場所に保管してください。このキーが表示されるのはこの一度だけで、二度と表示できません。",
    "Copy it now and keep it somewhere safe: it is shown only this once and can never be shown again.",
  ),
  copy: say("コピー", "Copy"),
  copied: say("コピーしました", "Copied"),
  revokeTitle: say("このキーを失効させますか?", "Revoke this key?"),
  revokeExplain: say(
    (name: string | null, prefix: string) =>
      `キー${name ? `「${name}」` : ""}(${prefix}…)を使うプログラムは、すぐに 401 を受け取るようになります。元に戻せません。`,
    (name, prefix) => `Programs using the key ${name ? `"${name}" ` : ""}(${prefix}…) get 401 at once. This cannot be undone.`,
  ),
  confirmRevoke: say("キーを失効させる", "Revoke the key"),
  cancel: say("やめる", "Cancel"),
  keyRevoked: say("キーを失効させました。", "The key was revoked."),
  // connected assistants (OAuth)
  assistantsTitle: say("接続したアシスタント", "Connected assistants"),
  assistantsIntro: say(
    "OAuth で接続したアシスタント (Claude や ChatGPT など) です。それぞれが API キーの 1 つとして数えられ、失効させるとすぐに使えなくなります。",
    "Assistants connected with OAuth (Claude, ChatGPT and others). Each one is one of your API keys: it counts against your plan's key limit, and revoking it cuts it off at once.",
  ),
  noAssistants: say("接続したアシスタントはありません。", "No assistant is connected."),
  assistantName: say("アシスタント", "Assistant"),
  connectedTo: say("接続先", "Sends access to"),
  revokeAssistantTitle: say("このアシスタントの接続を解除しますか?", "Disconnect this assistant?"),
  revokeAssistantExplain: say(
    (name: string | null, host: string) =>
      `「${name ?? host}」(${host}) は、すぐにこのサービスを使えなくなります。もう一度使うには接続し直します。`,
    (name, host) => `“${name ?? host}” (${host}) can no longer use this service, at once. To use it again, connect it again.`,
  ),
  confirmRevokeAssistant: say("接続を解除", "Disconnect"),
  assistantRevoked: say("アシスタントの接続を解除しました。", "The assistant was disconnected."),
  consentTitle: say("アシスタントの接続", "Connect an assistant"),
  consentIntro: say(
    (name: string) => `「${name}」がこのアカウントへのアクセスを求めています。許可するまで何も渡されません。`,
    (name) => `“${name}” asks to use this account. Nothing is shared until you allow it.`,
  ),
  consentClient: say("アプリ", "Application"),
  consentPublisher: say("発行元", "Published by"),
  consentSelfRegistered: say("自己登録 (名前は確認されていません)", "self-registered (its name is not verified)"),
  consentRedirect: say("アクセスの送り先", "Access is sent to"),
  consentLoopback: say(
    "アクセスはこのコンピューター上のアプリに送られます。そのアプリから今サインインを始めた場合にだけ続けてください。",
    "Access is sent to an app on this computer. Continue only if you just started connecting from it.",
  ),
  consentKeyNote: say(
    "許可すると、この権限の API キーが 1 つ作られ、設定の「接続したアシスタント」に表示されます。いつでもそこで解除できます。",
    "Allowing makes one API key with these permissions, listed under “Connected assistants” in your settings, where you can disconnect it at any time.",
  ),
  consentAsked: say(
    (scopes: string) => `アプリが求めた権限 (${scopes}) を選んであります。変えてもかまいません。`,
    (scopes) => `The permissions the application asked for (${scopes}) are chosen below; you may change them.`,
  ),
  consentAskedNone: say(
    "アプリは権限を指定していません。最も狭い「閲覧のみ」を選んであります。",
    "The application named no permissions: the narrowest, view only, is chosen below.",
  ),
  consentIgnored: say(
    (names: string) => `このサービスにない権限は無視しました: ${names}`,
    (names) => `Permissions this service does not have were ignored: ${names}`,
  ),
  consentAllow: say("許可する", "Allow"),
  consentDeny: say("拒否する", "Deny"),
  // passkeys
  passkeysTitle: say("パスキー", "Passkeys"),
  added: say("登録", "Added"),
  remove: say("削除", "Remove"),
  addPasskeyButton: say("パスキーを追加", "Add a passkey"),
  removePasskeyTitle: say("このパスキーを削除しますか?", "Remove this passkey?"),
  removePasskeyExplain: say(
    (name: string) => `「${name}」ではサインインできなくなります。`,
    (name) => `You will no longer sign in with “${name}”.`,
  ),
  confirmRemovePasskey: say("パスキーを削除", "Remove the passkey"),
  passkeyRemoved: say("パスキーを削除しました。", "The passkey was removed."),
  passkeyAdded: say("パスキーを追加しました。", "The passkey was added."),
  // activity
  activityTitle: say("アクティビティ", "Activity"),
  allActivity: say("すべてのアクティビティ", "All activity"),
  noActivity: say("まだ何もありません。", "Nothing yet."),
  when: say("日時", "When"),
  what: say("内容", "What"),
  event: say<Record<EventKind, string>>(
    {
      keyCreated: "キーを作成",
      keyRevoked: "キーを失効",
      passkeyAdded: "パスキーを追加",
      passkeyRemoved: "パスキーを削除",
      signedIn: "サインイン",
      signedOutEverywhere: "すべての端末からサインアウト",
    },
    {
      keyCreated: "Key created",
      keyRevoked: "Key revoked",
      passkeyAdded: "Passkey added",
      passkeyRemoved: "Passkey removed",
      signedIn: "Signed in",
      signedOutEverywhere: "Signed out everywhere",
    },
  ),
  // paging, sign-out, navigation
  previous: say("前へ", "Previous"),
  next: say("次へ", "Next"),
  pageOf: say(
    (page: number, pages: number) => `${pages} ページ中 ${page} ページ目`,
    (page, pages) => `Page ${page} of ${pages}`,
  ),
  signOut: say("サインアウト", "Sign out"),
  signOutEverywhere: say("すべての端末からサインアウト", "Sign out everywhere"),
  backToSettings: say("設定に戻る", "Back to settings"),
  goToSignIn: say("サインインへ", "Go to sign-in"),
  upgrade: say("プランを変更", "Change plan"),
  // errors
  errorTitle: say<Partial<Record<ErrorCode, string>>>(
    {
      unauthorized: "もう一度サインインしてください",
      not_found: "見つかりません",
      link_expired: "このリンクは使えなくなりました",
      invalid_input: "入力内容を確認してください",
      plan_required: "プランの上限です",
      rate_limited: "試行が多すぎます。少し待ってからやり直してください",
      payload_too_large: "送信された内容が大きすぎます",
      internal_error: "サーバー側で問題が起きました",
    },
    {
      unauthorized: "Please sign in again",
      not_found: "Not found",
      link_expired: "This link no longer works",
      invalid_input: "Please check what you entered",
      plan_required: "Your plan's limit",
      rate_limited: "Too many attempts: wait a moment and try again",
      payload_too_large: "What was sent is too large",
      internal_error: "Something went wrong on our side",
    },
  ),
  errorFallback: say("リクエストを完了できませんでした", "The request could not be completed"),
  errorStatus: say(
    (status: number) => `HTTP ステータス ${status}`,
    (status) => `HTTP status ${status}`,
  ),
  requestId: say("問い合わせ番号", "Request id"),
  scope: say(scopeTextsIn("ja"), scopeTextsIn("en")),
};

/** Every text of the pages in one language. */
export type Messages = { [K in keyof typeof TEXTS]: (typeof TEXTS)[K]["ja"] };

const inLang = (lang: Lang) => Object.fromEntries(Object.entries(TEXTS).map(([name, text]) => [name, text[lang]])) as Messages;

const MESSAGES: Record<Lang, Messages> = { ja: inLang("ja"), en: inLang("en") };

export const messagesOf = (lang: Lang): Messages => MESSAGES[lang];

/** An instant as the pages show it, in UTC for every reader (the quota's days are UTC days too). */
export const formatInstant = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** A count with thousands separators, as both languages write it. */
export const formatCount = (n: number) => n.toLocaleString("en-US");
