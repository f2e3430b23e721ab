/**
 * The languages Deck speaks and how a request picks one: the `lang` cookie the sidebar's switch sets, else the
 * browser's Accept-Language, else English. Shared by the server (negotiation, `<html lang>`) and the islands
 * (the switch's labels).
 */

export const LOCALES = ["en", "de", "zh-Hans"] as const;
export type Locale = typeof LOCALES[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Each language named in itself, as a language switch shows it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", de: "Deutsch", "zh-Hans": "简体中文" };

/** The cookie that keeps a chosen language, like the theme's. */
export const LOCALE_COOKIE = "lang";

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/**
 * The supported language closest to one BCP 47 tag: "de-AT" → de, any Chinese → zh-Hans (the only Chinese
 * catalogue: a reader of Traditional script reads it more easily than English), "en-GB" → en.
 */
function supportedFor(tag: string): Locale | null {
  const primary = tag.trim().toLowerCase().split("-")[0];
  if (primary === "zh") return "zh-Hans";
  if (primary === "de") return "de";
  if (primary === "en") return "en";
  return null;
}

/** The language for a request: a valid cookie wins, then the Accept-Language entries by weight, then English. */
export function negotiateLocale(cookie: string | undefined, acceptLanguage: string | undefined): Locale {
  if (isLocale(cookie)) return cookie;
  const ranked = (acceptLanguage ?? "").split(",").map((part, index) => {
    const [tag, ...params] = part.split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
  }).filter((entry) => entry.tag && entry.tag !== "*" && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = supportedFor(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
