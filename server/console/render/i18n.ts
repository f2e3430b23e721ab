/**
 * The console's side of the message catalogue (islands/lib/i18n): every request runs in its language (the
 * `lang` cookie, else Accept-Language), kept per request across awaits, so a route, a loader, an API error and
 * the islands rendered on the server all call the same `t` and get the visitor's language. A page then carries
 * the texts of the areas its islands use, in that language only (`pageMessages`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { type Area, en } from "../../../islands/lib/i18n/en/mod.ts";
import { de } from "../../../islands/lib/i18n/de/mod.ts";
import { zhHans } from "../../../islands/lib/i18n/zh-Hans/mod.ts";
import { type Locale, LOCALE_COOKIE, negotiateLocale } from "../../../islands/lib/i18n/locales.ts";
import { type ActiveMessages, setMessageSource } from "../../../islands/lib/i18n/t.ts";
import type { Messages } from "../../../islands/lib/i18n/types.ts";

const CATALOGUES: Record<Locale, Record<Area, Messages>> = { en, de, "zh-Hans": zhHans };

const whole = (locale: Locale): ActiveMessages => ({
  locale,
  messages: Object.assign({}, ...Object.values(CATALOGUES[locale])),
});

/** Each language's whole catalogue, flattened once: the server may show any text. */
const ACTIVE: Record<Locale, ActiveMessages> = {
  en: whole("en"),
  de: whole("de"),
  "zh-Hans": whole("zh-Hans"),
};

const perRequest = new AsyncLocalStorage<ActiveMessages>();

// Outside a request (start-up, background jobs, tests calling a route's parts) texts are English.
setMessageSource(() => perRequest.getStore() ?? ACTIVE.en);

/** Runs `work` (and everything it awaits) in one language. */
export function inLocale<T>(locale: Locale, work: () => T): T {
  return perRequest.run(ACTIVE[locale], work);
}

/** Puts each request in its visitor's language; first in the chain, so error pages and messages follow it. */
export function requestLocale(): MiddlewareHandler {
  return (c, next) =>
    inLocale(negotiateLocale(getCookie(c, LOCALE_COOKIE), c.req.header("accept-language")), next);
}

/** What a page carries for its islands: the language's texts of the areas named, "common" always. */
export function pageMessages(locale: Locale, areas: Iterable<Area>): ActiveMessages {
  const messages: Messages = {};
  for (const area of new Set<Area>(["common", ...areas])) Object.assign(messages, CATALOGUES[locale][area]);
  return { locale, messages };
}
