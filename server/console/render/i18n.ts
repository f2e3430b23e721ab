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
import { type Locale, LOCALE_COOKIE, negotiateLocale } from "../../../islands/lib/i18n/locales.ts";
import { type ActiveMessages, setMessageSource } from "../../../islands/lib/i18n/t.ts";
import type { Messages } from "../../../islands/lib/i18n/types.ts";

type Catalogue = Record<Area, Messages>;

/**
 * The other languages load with the first request in them: a console whose visitors read English never
 * holds them (about 1.5 MB of heap and 10 ms of start-up).
 */
const LOADERS: Record<Exclude<Locale, "en">, () => Promise<Catalogue>> = {
  de: async () => (await import("../../../islands/lib/i18n/de/mod.ts")).de,
  "zh-Hans": async () => (await import("../../../islands/lib/i18n/zh-Hans/mod.ts")).zhHans,
};

/** Each loaded language's catalogue, by area (for pages) and flattened once (the server may show any text). */
const LOADED = new Map<Locale, { byArea: Catalogue; active: ActiveMessages }>();
const loading = new Map<Locale, Promise<void>>();

function keep(locale: Locale, byArea: Catalogue): void {
  LOADED.set(locale, { byArea, active: { locale, messages: Object.assign({}, ...Object.values(byArea)) } });
}
keep("en", en);

/** Loads a language's catalogue once; requestLocale does it for every request. */
export function loadLocale(locale: Locale): Promise<void> {
  if (locale === "en" || LOADED.has(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = LOADERS[locale]().then((byArea) => keep(locale, byArea));
    pending.catch(() => loading.delete(locale)); // the next request tries again
    loading.set(locale, pending);
  }
  return pending;
}

function loaded(locale: Locale) {
  const catalogue = LOADED.get(locale);
  if (!catalogue) throw new Error(`the ${locale} texts are not loaded: await loadLocale("${locale}") first`);
  return catalogue;
}

const perRequest = new AsyncLocalStorage<ActiveMessages>();

// Outside a request (start-up, background jobs, tests calling a route's parts) texts are English.
setMessageSource(() => perRequest.getStore() ?? loaded("en").active);

/** Runs `work` (and everything it awaits) in one language, loaded by loadLocale. */
export function inLocale<T>(locale: Locale, work: () => T): T {
  return perRequest.run(loaded(locale).active, work);
}

/** Puts each request in its visitor's language; first in the chain, so error pages and messages follow it. */
export function requestLocale(): MiddlewareHandler {
  return async (c, next) => {
    const locale = negotiateLocale(getCookie(c, LOCALE_COOKIE), c.req.header("accept-language"));
    await loadLocale(locale);
    return await inLocale(locale, next);
  };
}

/** What a page carries for its islands: the language's texts of the areas named, "common" always. */
export function pageMessages(locale: Locale, areas: Iterable<Area>): ActiveMessages {
  const messages: Messages = {};
  const { byArea } = loaded(locale);
  for (const area of new Set<Area>(["common", ...areas])) Object.assign(messages, byArea[area]);
  return { locale, messages };
}
