/**
 * Browser test of the object browser in German and Chinese: with the `lang` cookie set, a folder's column
 * headers, its Upload button and an empty folder's message are in that language, both as the server rendered
 * them and after the island moved to another folder in place, while object names in several scripts stay
 * exactly as they are. Hydration with the language's texts logs no mismatch (close fails on any error).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { WORLD_NAMES } from "../names.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";

const LANGUAGES = [
  {
    lang: "de",
    columns: ["Name", "Zuletzt geändert", "Größe"],
    upload: "Dateien hochladen",
    empty: "Dieser Ordner ist leer.",
    allBuckets: "Alle Buckets",
  },
  {
    lang: "zh-Hans",
    columns: ["名称", "最后修改时间", "大小"],
    upload: "上传文件",
    empty: "此文件夹为空。",
    allBuckets: "所有存储桶",
  },
] as const;

const row = (page: Page, key: string) => page.locator(`tr[data-row=${JSON.stringify(key)}]`);

async function assertFolderView(page: Page, language: (typeof LANGUAGES)[number]) {
  const view = page.getByTestId("folder-view");
  for (const column of language.columns) {
    await view.getByRole("columnheader", { name: column }).first().waitFor();
  }
  await view.getByRole("button", { name: language.upload, exact: true }).waitFor();
  assert.equal(await view.getByRole("button", { name: "Upload Files", exact: true }).count(), 0);
}

Deno.test("browser: the object browser's folder view in German and Chinese", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page, context } = browser;
  try {
    await makeBucket(stack.admin, "welt");
    await makeBucket(stack.admin, "leer");
    for (const name of WORLD_NAMES) await putObject(stack.admin, "welt", name, name);
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    for (const language of LANGUAGES) {
      await t.step(`${language.lang}: headers, Upload and names as the server rendered them`, async () => {
        await context.addCookies([{ name: "lang", value: language.lang, url: stack.consoleUrl }]);
        await page.goto("/object-browser/welt/");
        assert.equal(await page.locator("html").getAttribute("lang"), language.lang);
        await assertFolderView(page, language);
        for (const name of WORLD_NAMES) {
          assert.equal((await row(page, name).getByRole("link").innerText()).trim(), name);
        }
      });

      await t.step(
        `${language.lang}: an empty folder says so, also after moving there in place`,
        async () => {
          await page.goto("/object-browser/leer/");
          await page.getByText(language.empty, { exact: true }).waitFor();
          await assertFolderView(page, language);
          // The island's own texts: back to all buckets by the breadcrumb, then into the empty bucket.
          await page.getByRole("link", { name: language.allBuckets, exact: true }).click();
          await page.getByRole("heading", { name: language.allBuckets, exact: true }).waitFor();
          await page.locator('tr[data-row="leer"]').getByRole("link", { name: "leer", exact: true }).click();
          await page.getByText(language.empty, { exact: true }).waitFor();
          await assertFolderView(page, language);
          await waitForIslands(page);
        },
      );
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});
