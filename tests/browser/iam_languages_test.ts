/**
 * The IAM screens in another language (issue 29): the users list and the policy builder show their headings,
 * buttons and fields in German and in Simplified Chinese when the `lang` cookie asks for them.
 */
import assert from "node:assert/strict";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const LANGUAGES = [
  {
    lang: "de",
    users: {
      heading: "Benutzer",
      create: "Benutzer erstellen",
      search: "Benutzer suchen",
      column: "Zugriffsschlüssel",
    },
    policies: {
      create: "Richtlinie erstellen",
      builder: "Visueller Editor",
      statement: "Anweisung 1",
      add: "Anweisung hinzufügen",
    },
    searchActions: "Aktionen suchen",
    group: "S3: Objekte",
  },
  {
    lang: "zh-Hans",
    users: { heading: "用户", create: "创建用户", search: "搜索用户", column: "访问密钥" },
    policies: { create: "创建策略", builder: "可视化编辑器", statement: "语句 1", add: "添加语句" },
    searchActions: "搜索操作",
    group: "S3：对象",
  },
];

Deno.test("browser: the users list and the policy builder in German and Chinese", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page, context } = browser;
  try {
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    for (const language of LANGUAGES) {
      await context.addCookies([{ name: "lang", value: language.lang, url: stack.consoleUrl }]);

      await t.step(`${language.lang}: the users list`, async () => {
        await page.goto("/users");
        assert.equal(await page.locator("html").getAttribute("lang"), language.lang);
        await page.getByRole("heading", { name: language.users.heading, exact: true }).waitFor();
        await page.getByRole("button", { name: language.users.create, exact: true }).waitFor();
        await page.getByPlaceholder(language.users.search).waitFor();
        await page.getByRole("columnheader", { name: language.users.column }).waitFor();
        // The dialog the island opens speaks the same language: its texts came with the page.
        await page.getByRole("button", { name: language.users.create, exact: true }).click();
        await page.getByRole("dialog", { name: language.users.create }).waitFor();
        await page.keyboard.press("Escape");
      });

      await t.step(`${language.lang}: the policy builder`, async () => {
        await page.goto("/policies");
        await page.getByRole("button", { name: language.policies.create, exact: true }).click();
        const dialog = page.getByRole("dialog", { name: language.policies.create });
        const builder = dialog.getByTestId("policy-builder");
        await builder.getByRole("heading", { name: language.policies.builder }).waitFor();
        const statement = builder.getByRole("region", { name: language.policies.statement, exact: true });
        await statement.getByLabel(language.searchActions).fill("getobject");
        await statement.getByText(language.group, { exact: true }).waitFor();
        await builder.getByRole("button", { name: language.policies.add }).waitFor();
        await page.keyboard.press("Escape");
      });
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});
