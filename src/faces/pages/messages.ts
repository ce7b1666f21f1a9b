import { en } from "./messagesEn";
import { ja, type Messages } from "./messagesJa";

export type { Messages };

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

/**
 * `?lang=ja|en` wins (and is carried on the pages' links); else the language remembered in the
 * `rgc_lang` cookie (the last one chosen with `?lang=`); else the browser's Accept-Language.
 */
export function chooseLang(
  query: string | undefined,
  remembered: string | undefined,
  acceptLanguage: string | undefined,
): { lang: Lang; chosen: boolean } {
  if (isLang(query)) return { lang: query, chosen: true };
  if (isLang(remembered)) return { lang: remembered, chosen: false };
  return { lang: acceptedLang(acceptLanguage ?? "") ?? DEFAULT_LANG, chosen: false };
}

const MESSAGES: Record<Lang, Messages> = { ja, en };

export const messagesOf = (lang: Lang): Messages => MESSAGES[lang];

/** An instant in UTC, as the pages show it on hover (and the quota's days are UTC days). */
export const formatUtc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** A count with thousands separators, as both languages write it. */
export const formatCount = (n: number) => n.toLocaleString("en-US");
