/**
 * Settings and the License page in German and Simplified Chinese (issue 29), in Chromium with the `lang`
 * cookie the sidebar's switch sets: the Settings menu, one configuration's form with its labels, help texts and
 * a problem its check reports, the same problem as the console server words it, and the licence page with its
 * plan table. Any hydration mismatch (a text the island would draw otherwise) fails as a console error.
 */
import assert from "node:assert/strict";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { assertInLanguage, type OtherLocale } from "./languages.ts";

/** The pages of the area, each as the sweep of every page reads it (tests/browser/languages.ts). */
const PAGES = [
  "/settings",
  "/settings?section=notifications",
  "/settings?section=tiers",
  "/settings?section=identity",
  "/webhook/logger",
  "/webhook/audit",
  "/license",
];

const EXPECTED = {
  de: {
    heading: "Einstellungen",
    section: "Lambda-Benachrichtigungen",
    edit: "Bearbeiten: region",
    back: "Zurück zu den Konfigurationen",
    title: "Region",
    label: "Serverstandort",
    help: 'Name des Standorts des Servers, z. B. "us-west-rack2"',
    commentPlaceholder: "Eigene Notizen eingeben (optional)",
    problem:
      "Beginnen Sie mit einem Buchstaben und verwenden Sie nur Buchstaben, Ziffern, Bindestriche und Unterstriche",
    save: "Speichern",
    license: "Lizenz",
    readFull: "Vollständige Lizenz lesen",
    plans: "Tarife",
    price: "10 $ pro TB und Monat",
    addTarget: "Benachrichtigungsziel hinzufügen",
    backToServices: "Zurück zu den unterstützten Diensten",
    addTier: "Speicherstufe hinzufügen",
    runChecks: "Prüfungen ausführen",
  },
  "zh-Hans": {
    heading: "设置",
    section: "Lambda 通知",
    edit: "编辑 region",
    back: "返回配置列表",
    title: "区域",
    label: "服务器位置",
    help: "服务器所在位置的名称，例如“us-west-rack2”",
    commentPlaceholder: "输入自定义备注（如有）",
    problem: "请以字母开头，且只使用字母、数字、短划线和下划线",
    save: "保存",
    license: "许可证",
    readFull: "阅读许可证全文",
    plans: "计划",
    price: "每 TB 每月 10 美元",
    addTarget: "添加通知目标",
    backToServices: "返回支持的服务",
    addTier: "添加存储层",
    runChecks: "运行检查",
  },
} as const;

Deno.test("browser: Settings and the License page in German and Chinese", async (t) => {
  // An erasure-coded setup, so the Tiers section is there too.
  const stack = await startStack({ reportedBackend: "erasure" });
  const browser = await openBrowser(stack);
  const { page, context } = browser;
  try {
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    for (const [lang, text] of Object.entries(EXPECTED)) {
      await context.addCookies([{ name: "lang", value: lang, url: stack.consoleUrl }]);

      await t.step(`${lang}: a configuration's form, its help and its problems`, async () => {
        await page.goto("/settings");
        assert.equal(
          await page.title().then((title) => title.startsWith(text.heading)),
          true,
          await page.title(),
        );
        await page.getByRole("heading", { name: text.heading, exact: true }).waitFor();
        await page.getByRole("link", { name: text.section, exact: true }).waitFor();
        await page.getByRole("button", { name: text.edit, exact: true }).click();
        await page.getByRole("button", { name: text.back }).waitFor();
        await page.getByRole("heading", { name: text.title, exact: true }).waitFor();
        const field = page.getByLabel(text.label, { exact: true });
        await page.getByText(text.help, { exact: true }).waitFor();
        assert.equal(
          await page.getByRole("textbox").last().getAttribute("placeholder"),
          text.commentPlaceholder,
        );
        await field.fill("1-rack");
        await field.blur();
        await page.getByRole("alert").filter({ hasText: text.problem }).waitFor();
        assert.equal(await page.getByRole("button", { name: text.save, exact: true }).count(), 1);

        // The console server checks again and words the same problem in the request's language.
        const answer = await page.request.put("/api/v1/configs/region", {
          data: { key_values: [{ key: "name", value: "1-rack" }] },
        });
        assert.equal(answer.status(), 400);
        assert.equal((await answer.json()).fields?.name, text.problem);
      });

      await t.step(`${lang}: every page of Settings and its forms show no English`, async () => {
        const locale = lang as OtherLocale;
        for (const path of PAGES) {
          await page.goto(path);
          await assertInLanguage(page, locale, path);
        }
        await page.goto("/settings");
        await page.getByRole("button", { name: text.edit, exact: true }).click();
        await page.getByRole("button", { name: text.back }).waitFor();
        await assertInLanguage(page, locale, "/settings › region");
        await page.goto("/settings?section=notifications");
        await page.getByRole("button", { name: text.addTarget }).click();
        await page.getByRole("listitem").filter({ hasText: "Postgres SQL" }).click();
        await page.getByRole("button", { name: text.backToServices }).waitFor();
        await assertInLanguage(page, locale, "/settings › Postgres SQL");
        await page.goto("/settings?section=tiers");
        await page.getByRole("button", { name: text.addTier }).click();
        await page.getByRole("button", { name: "S3", exact: true }).click();
        await assertInLanguage(page, locale, "/settings › S3 tier");
        await page.goto("/settings?section=identity");
        await page.getByRole("button", { name: text.runChecks }).click();
        await page.getByRole("status").waitFor();
        await assertInLanguage(page, locale, "/settings › identity checks");
      });

      await t.step(`${lang}: the licence page and its plans`, async () => {
        await page.goto("/license");
        await page.getByRole("heading", { name: text.license, exact: true }).first().waitFor();
        await page.getByRole("button", { name: text.readFull }).waitFor();
        await page.getByRole("heading", { name: text.plans, exact: true }).waitFor();
        assert.match(
          await page.getByTestId("plan-Standard").innerText(),
          new RegExp(text.price.replace("$", "\\$")),
        );
        // The AGPL's own text stays in English: only that text is the licence.
        assert.match(
          await page.getByTestId("agpl-text").textContent() ?? "",
          /GNU AFFERO GENERAL PUBLIC LICENSE/,
        );
      });
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});
