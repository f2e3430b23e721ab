/**
 * Languages (issue 29): every page of the console and of operator mode, and both sign-in pages, shown in German
 * and in Simplified Chinese carry no English a person would read (tests/browser/languages.ts), with the
 * `<html lang>` of the chosen language. The language is chosen as a visitor's browser does (Accept-Language) for
 * the sign-in pages and by the `lang` cookie the sidebar's switch sets for the rest.
 */
import { startStack } from "../helpers.ts";
import { startOperatorStack } from "../operator_helpers.ts";
import { everyOne } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { CONSOLE_PAGES, OPERATOR_PAGES, seedConsolePages } from "./every_page.ts";
import { assertInLanguage, type OtherLocale } from "./languages.ts";

const LANGUAGES: OtherLocale[] = ["de", "zh-Hans"];

Deno.test("browser: every console page in German and Chinese shows no English", async (t) => {
  const stack = await startStack({ reportedBackend: "erasure", logSearch: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await seedConsolePages(stack);
    for (const locale of LANGUAGES) {
      await t.step(`${locale}: the sign-in page, as the browser asks for it`, async () => {
        await page.setExtraHTTPHeaders({
          "accept-language": locale === "de" ? "de-DE,de;q=0.9" : "zh-CN,zh;q=0.9",
        });
        await page.goto("/login");
        await assertInLanguage(page, locale, "/login");
      });
    }
    await page.setExtraHTTPHeaders({});
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    for (const locale of LANGUAGES) {
      await page.context().addCookies([{ name: "lang", value: locale, url: stack.consoleUrl }]);
      await t.step(`${locale}: every page`, () =>
        everyOne(CONSOLE_PAGES, async (path) => {
          await page.goto(path);
          await assertInLanguage(page, locale, path);
        }));
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: every operator page in German and Chinese shows no English", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    for (const locale of LANGUAGES) {
      await page.context().addCookies([{ name: "lang", value: locale, url: stack.consoleUrl }]);
      await t.step(`${locale}: the operator sign-in page`, async () => {
        await page.goto("/login");
        await assertInLanguage(page, locale, "/login (operator)");
      });
    }
    await page.context().addCookies([{ name: "lang", value: "en", url: stack.consoleUrl }]);
    await page.goto("/login");
    await page.getByLabel("JWT").fill(stack.cluster.operatorToken);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/tenants");
    await stack.cluster.operator.settled();
    for (const locale of LANGUAGES) {
      await page.context().addCookies([{ name: "lang", value: locale, url: stack.consoleUrl }]);
      await t.step(`${locale}: every page`, () =>
        everyOne(OPERATOR_PAGES, async (path) => {
          await page.goto(path);
          await assertInLanguage(page, locale, path);
        }));
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});
