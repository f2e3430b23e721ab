/**
 * The Buckets area in German and Simplified Chinese (issue 29): with the `lang` cookie set, the list, its
 * Create Bucket dialog and the dialog's name check speak the chosen language, rendered on the server and
 * hydrated without a mismatch (a console error fails the test).
 */
import assert from "node:assert/strict";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const LANGUAGES = [
  {
    lang: "de",
    filter: "Buckets filtern",
    create: "Bucket erstellen",
    creationDate: "Erstellungsdatum",
    name: "Bucket-Name",
    save: "Speichern",
    invalid: "Der Bucket-Name enthält ungültige Zeichen.",
    tooShort: "Der Bucket-Name muss 3 bis 63 Zeichen lang sein.",
  },
  {
    lang: "zh-Hans",
    filter: "筛选存储桶",
    create: "创建存储桶",
    creationDate: "创建时间",
    name: "存储桶名称",
    save: "保存",
    invalid: "存储桶名称包含无效字符",
    tooShort: "存储桶名称长度必须为 3 到 63 个字符",
  },
] as const;

Deno.test("browser: the buckets list and Create Bucket speak German and Chinese", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page, context } = browser;
  try {
    await makeBucket(stack.admin, "photos");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    for (const text of LANGUAGES) {
      await t.step(`${text.lang}: list, dialog and the name's message`, async () => {
        await context.addCookies([{ name: "lang", value: text.lang, url: stack.consoleUrl }]);
        await page.goto("/buckets");
        assert.equal(await page.locator("html").getAttribute("lang"), text.lang);
        await page.getByPlaceholder(text.filter).waitFor();
        await page.getByRole("columnheader", { name: text.creationDate }).waitFor();
        await page.locator('tr[data-row="photos"]').waitFor();
        assert.equal(await page.getByText("Create Bucket").count(), 0, "no English button left");

        await page.getByRole("button", { name: text.create }).click();
        const dialog = page.getByRole("dialog", { name: text.create });
        const save = dialog.getByRole("button", { name: text.save });
        await dialog.getByLabel(text.name).fill("Bad_Name");
        assert.equal(await save.isDisabled(), true);
        await dialog.getByText(text.invalid, { exact: true }).waitFor();
        await dialog.getByLabel(text.name).fill("ab");
        await dialog.getByText(text.tooShort, { exact: true }).waitFor();
        await dialog.press("Escape");
        await dialog.waitFor({ state: "detached" });
      });
    }
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
