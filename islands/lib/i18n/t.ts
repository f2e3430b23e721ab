/**
 * Looks up the texts a person sees. Every text comes from a catalogue (islands/lib/i18n/<locale>/<area>.ts):
 * English is the source, each other language has the same keys. The same `t` runs on the server and in the
 * browser:
 *
 * - on the server the console installs a source that answers with the request's language and the whole
 *   catalogue (server/console/render/i18n.ts keeps it per request), so routes, loaders and API errors use it;
 * - in the browser the page carries only its own language's texts for the areas its islands use, in the
 *   `#deck-i18n` data block the server rendered; nothing is fetched.
 *
 *   t("buckets.create.title")                      → "Create Bucket" / "Bucket erstellen" / "创建存储桶"
 *   t("objects.deleted", { count: 3 })              → plural form chosen by Intl.PluralRules for the language
 */
import type { MessageKey } from "./en/mod.ts";
import { DEFAULT_LOCALE, isLocale, type Locale } from "./locales.ts";
import type { Message, Messages, PluralMessage } from "./types.ts";

export type { MessageKey };

export type { Message, Messages, PluralMessage };

/** One language's texts in force for the code running now. */
export interface ActiveMessages {
  locale: Locale;
  messages: Messages;
}

export type MessageParams = Record<string, string | number>;

/** The data block a page carries its texts in. */
export const MESSAGES_ELEMENT_ID = "deck-i18n";

let source: () => ActiveMessages = fromPage;
let pageMessages: ActiveMessages | null = null;

/** The browser's texts: read once from the page's data block; none (keys shown) where no page is. */
function fromPage(): ActiveMessages {
  if (pageMessages) return pageMessages;
  const block = typeof document === "undefined" ? null : document.getElementById(MESSAGES_ELEMENT_ID);
  let parsed: Partial<ActiveMessages> = {};
  try {
    parsed = block?.textContent ? JSON.parse(block.textContent) : {};
  } catch {
    parsed = {};
  }
  pageMessages = {
    locale: isLocale(parsed.locale) ? parsed.locale : DEFAULT_LOCALE,
    messages: parsed.messages ?? {},
  };
  return pageMessages;
}

/** The server installs its per-request source once at start (server/console/render/i18n.ts). */
export function setMessageSource(next: () => ActiveMessages): void {
  source = next;
}

/** The language texts, numbers and dates are shown in now. */
export const currentLocale = (): Locale => source().locale;

const pluralRules = new Map<Locale, Intl.PluralRules>();

function pluralFor(locale: Locale, message: PluralMessage, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, rules = new Intl.PluralRules(locale));
  // "{count} objects" with count 0 reads "0 objects" in English and German: the exact-zero form is optional.
  if (count === 0 && message.zero !== undefined) return message.zero;
  return message[rules.select(count)] ?? message.other;
}

/** Replaces `{name}` with its parameter; numbers are written the language's way (1,234 / 1.234). */
export function interpolate(text: string, params: MessageParams | undefined, locale: Locale): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? value.toLocaleString(locale) : value;
  });
}

/** The raw message for a key in the language in force, its plural form chosen; the key itself when missing. */
export function messageText(key: MessageKey, params?: MessageParams): string {
  const { locale, messages } = source();
  const message = messages[key];
  if (message === undefined) return key;
  return typeof message === "string" ? message : pluralFor(locale, message, Number(params?.count ?? 0));
}

/** The text for a key in the language in force, with its parameters filled in. */
export function t(key: MessageKey, params?: MessageParams): string {
  return interpolate(messageText(key, params), params, currentLocale());
}
