/**
 * The folder filter in a folder larger than what is loaded, in Chromium: it says how many entries it filters
 * and offers the whole-bucket search (which finds what is further down), and it shows its matches when typed
 * after scrolling down the table.
 */
import assert from "node:assert/strict";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const KEYS = Array.from({ length: 1300 }, (_, i) => `logs/día ${String(i).padStart(4, "0")} #✓.log`);

Deno.test("browser: the folder filter says what it filters and offers the whole search", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "big");
    const queue = [...KEYS];
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (queue.length) await putObject(stack.admin, "big", queue.shift()!, "x");
    }));
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    const table = page.getByTestId("table-objects");
    const filter = page.getByLabel("Search Objects");

    await t.step(
      "a match beyond the loaded entries: the filter says so and the search finds it",
      async () => {
        await page.goto("/object-browser/big/logs/");
        await filter.fill("1234");
        assert.equal(await page.getByTestId("empty-message").innerText(), "No objects match your filter.");
        assert.match(await table.innerText(), /Filtering the first 250 loaded entries\./);
        await table.getByRole("button", { name: "Search the whole bucket for “1234”" }).click();
        const search = page.getByTestId("bucket-search");
        await search.getByRole("button", { name: "logs/día 1234 #✓.log" }).waitFor();
        assert.match(
          await search.getByTestId("search-status").innerText(),
          /^Done: 1,300 keys scanned, 1 found/,
        );
      },
    );

    await t.step("typed after scrolling down, the filter shows its matches", async () => {
      await page.goto("/object-browser/big/logs/");
      const scroller = table.locator(".overflow-auto");
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForFunction(() =>
        document.querySelector('table[aria-label="objects"]')?.getAttribute("aria-rowcount") === "1251"
      );
      await filter.fill("000");
      // Rows 0000-0009 and 1000, drawn as the filter is typed: not after the table has scrolled itself back
      // up frame by frame (the old spacer kept the height of the rows scrolled past), nor never.
      assert.equal(await page.locator("tr[data-row]").count(), 11);
      assert.ok(await table.getByText("día 0000 #✓.log").isVisible());
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});
