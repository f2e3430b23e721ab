/**
 * The catalogues agree: every English key exists in every other language (and no key exists only there), each
 * translation keeps the English text's placeholders, plural texts give the forms their language needs, and no
 * text is empty. A screen showing English in another language fails in Chromium (tests/browser/languages_test.ts).
 */
import assert from "node:assert/strict";
import { de } from "./de/mod.ts";
import { AREAS, en } from "./en/mod.ts";
import { negotiateLocale } from "./locales.ts";
import type { Message, Messages } from "./types.ts";
import { zhHans } from "./zh-Hans/mod.ts";

const OTHERS: [string, Record<string, Messages>][] = [["de", de], ["zh-Hans", zhHans]];

const forms = (message: Message): string[] =>
  typeof message === "string" ? [message] : Object.values(message);
const placeholders = (message: Message) =>
  [...new Set(forms(message).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();

Deno.test("every language has exactly the English keys, area by area", () => {
  for (const [locale, catalogue] of OTHERS) {
    for (const area of AREAS) {
      const english = Object.keys(en[area]).sort();
      const translated = Object.keys(catalogue[area]).sort();
      assert.deepEqual(
        translated.filter((key) => !english.includes(key)),
        [],
        `${locale}/${area}: keys English does not have`,
      );
      assert.deepEqual(
        english.filter((key) => !translated.includes(key)),
        [],
        `${locale}/${area}: English keys not translated`,
      );
    }
  }
});

Deno.test("keys are named after their area, and no text is empty", () => {
  for (const [locale, catalogue] of [["en", en as Record<string, Messages>], ...OTHERS] as const) {
    for (const area of AREAS) {
      for (const [key, message] of Object.entries(catalogue[area])) {
        assert.ok(key.startsWith(`${area}.`), `${locale}: ${key} is not in area ${area}`);
        for (const text of forms(message)) assert.ok(text.trim(), `${locale}: ${key} is empty`);
      }
    }
  }
});

Deno.test("translations keep the English placeholders and give their language's plural forms", () => {
  for (const [locale, catalogue] of OTHERS) {
    const rules = new Intl.PluralRules(locale);
    for (const area of AREAS) {
      for (const [key, english] of Object.entries(en[area] as Messages)) {
        const translated = catalogue[area][key];
        if (translated === undefined) continue; // reported by the key test
        assert.deepEqual(placeholders(translated), placeholders(english), `${locale}: ${key} placeholders`);
        assert.equal(typeof translated === "string", typeof english === "string", `${locale}: ${key} plural`);
        if (typeof translated !== "string") {
          for (const form of rules.resolvedOptions().pluralCategories) {
            if (form === "other" || form === "one") {
              assert.ok(translated[form] ?? translated.other, `${locale}: ${key} lacks the ${form} form`);
            }
          }
        }
      }
    }
  }
});

Deno.test("the language follows the cookie, then the browser's preference by weight, then English", () => {
  assert.equal(negotiateLocale("de", "zh-CN"), "de");
  assert.equal(negotiateLocale("xx", "zh-CN,zh;q=0.9"), "zh-Hans");
  assert.equal(negotiateLocale(undefined, "fr-FR,de;q=0.8,zh;q=0.9"), "zh-Hans");
  assert.equal(negotiateLocale(undefined, "zh-TW"), "zh-Hans");
  assert.equal(negotiateLocale(undefined, "de-AT, en;q=0.5"), "de");
  assert.equal(negotiateLocale(undefined, "fr, *;q=0.1"), "en");
  assert.equal(negotiateLocale(undefined, undefined), "en");
  assert.equal(negotiateLocale(undefined, "de;q=0"), "en");
});
