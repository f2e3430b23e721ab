/**
 * Finds English on a page shown in another language: every visible text and every text a screen reader reads
 * (placeholder, title, aria-label, alt), outside content marked `translate="no"` (user data: names, keys,
 * values) and code. A text fails when it is
 * - a catalogue key (a text missing from the page's catalogue),
 * - an English catalogue text whose translation differs (a text not looked up in the page's language),
 * - a sentence with English function words ("the", "you", "could", …) or, in Chinese, two English words in a
 *   row: an English literal that never went through the catalogue.
 *
 *   await assertInLanguage(page, "de", "/buckets");
 */
import type { Page } from "playwright-core";
import { AREAS, en } from "../../islands/lib/i18n/en/mod.ts";
import { de } from "../../islands/lib/i18n/de/mod.ts";
import { zhHans } from "../../islands/lib/i18n/zh-Hans/mod.ts";
import type { Message, Messages } from "../../islands/lib/i18n/types.ts";

export type OtherLocale = "de" | "zh-Hans";

const forms = (message: Message): string[] =>
  typeof message === "string" ? [message] : Object.values(message);

/** English texts a page in `locale` must not show: those whose translation differs, and no text of its own. */
function englishOnly(locale: OtherLocale): string[] {
  const catalogue: Record<string, Messages> = locale === "de" ? de : zhHans;
  const own = new Set(AREAS.flatMap((area) => Object.values(catalogue[area]).flatMap(forms)));
  const found = new Set<string>();
  for (const area of AREAS) {
    for (const [key, message] of Object.entries(en[area] as Messages)) {
      const translated = catalogue[area][key];
      if (!translated) continue;
      for (const text of forms(message)) {
        // Texts with placeholders cannot be compared whole; their words are caught by the word rules.
        if (!text.includes("{") && !own.has(text) && !forms(translated).includes(text)) found.add(text);
      }
    }
  }
  return [...found];
}

/** Words that are English and not German: one of them in a text means an English sentence or phrase. */
const ENGLISH_WORDS = [
  "the",
  "of",
  "and",
  "to",
  "is",
  "are",
  "you",
  "your",
  "this",
  "that",
  "these",
  "with",
  "from",
  "by",
  "or",
  "not",
  "can",
  "cannot",
  "could",
  "would",
  "should",
  "must",
  "has",
  "have",
  "been",
  "were",
  "which",
  "there",
  "their",
  "for",
  "no",
  "yet",
  "please",
  "click",
  "select",
  "enter",
  "when",
  "what",
  "here",
  "each",
  "every",
  "any",
  "some",
  "other",
  "after",
  "before",
  "new",
  "more",
  "than",
  "then",
  "into",
  "about",
  "only",
  "its",
];

/** Product names every language writes in English: not a sentence that escaped the catalogue. */
const PRODUCT_NAMES =
  /Deck Operator|AWS Secrets Manager|GCP Secret Manager|Azure Key Vault|Gemalto KeySecure|Active Directory|Hashicorp Vault|Prometheus Sidecar|AppRole ID|Google Cloud|Object Storage/g;

const AREA_KEY = new RegExp(`^(${AREAS.join("|")})\\.[A-Za-z0-9_.]+$`);

export async function assertInLanguage(page: Page, locale: OtherLocale, where: string): Promise<void> {
  const lang = await page.evaluate(() => document.documentElement.lang);
  if (lang !== locale) throw new Error(`${where}: <html lang="${lang}">, expected ${locale}`);
  const texts = await page.evaluate(() => {
    const skipped = (el: Element | null) =>
      !el || !!el.closest('[translate="no"], script, style, code, pre, kbd, textarea, svg, [hidden]');
    const shown = (el: Element) => (el as HTMLElement).checkVisibility?.() ?? true;
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      const parent = node.parentElement;
      if (text && !skipped(parent) && shown(parent!)) found.push(text);
    }
    for (const el of document.body.querySelectorAll("[placeholder], [title], [aria-label], [alt]")) {
      if (skipped(el) || !shown(el)) continue;
      for (const name of ["placeholder", "title", "aria-label", "alt"]) {
        const value = el.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  });
  const english = new Set(englishOnly(locale));
  const words = new Set(ENGLISH_WORDS);
  const problems = new Set<string>();
  for (const text of texts) {
    if (AREA_KEY.test(text)) problems.add(`a key, not its text: ${text}`);
    else if (english.has(text)) problems.add(`English: ${text}`);
    else if (text.split(/[^A-Za-z']+/).some((word) => words.has(word.toLowerCase()))) {
      problems.add(`English words: ${text}`);
    } else if (
      locale === "zh-Hans" && /[A-Za-z]{2,}[ ][A-Za-z]{2,}/.test(text.replace(PRODUCT_NAMES, ""))
    ) {
      problems.add(`English phrase: ${text}`);
    }
  }
  if (problems.size > 0) {
    throw new Error(`${where} in ${locale} shows English:\n  ${[...problems].slice(0, 40).join("\n  ")}`);
  }
}
