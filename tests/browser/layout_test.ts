/**
 * Layout at 800 px and in the dark theme (issue 18): table cells never break a word in the middle, the
 * Replication table fits without horizontal scrolling, the bucket's current section stands out in the dark
 * theme, and a filter that matches nothing says so instead of "There are no buckets yet.".
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { makeBucket, putBucketVersioning } from "../../server/lib/s3/mod.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { startStack } from "../helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";
import { contrast, wordsBrokenIn } from "./layout.ts";

const LONG_NAME = "quarterly-finance-reports-archive-2024";

/** Whether any table's scroll box (or the page) scrolls sideways. */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.querySelectorAll("[data-testid^='table-'] .overflow-auto"), document.scrollingElement!].some(
      (el) => el.scrollWidth > el.clientWidth + 1,
    )
  );
}

Deno.test("browser: 800 px wide and dark: tables fit without mid-word breaks, the current section shows", async (t) => {
  const stack = await startStack();
  const remote = await startEmbeddedStorage({
    dataDir: await Deno.makeTempDir({ prefix: "deck-remote-" }),
    hostname: "127.0.0.1",
    port: 0,
  });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await page.setViewportSize({ width: 800, height: 900 });
    await makeBucket(stack.admin, LONG_NAME);
    await makeBucket(stack.admin, "site");
    await putBucketVersioning(stack.admin, "site", { status: "Enabled" });
    const remoteAdmin = new S3Client({ endpoint: remote.url, credentials: remote.root });
    await makeBucket(remoteAdmin, "site-replica-in-another-region");
    await putBucketVersioning(remoteAdmin, "site-replica-in-another-region", { status: "Enabled" });
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    const res = await page.request.post(`${stack.consoleUrl}/api/v1/buckets-replication`, {
      data: {
        accessKey: remote.root.accessKey,
        secretKey: remote.root.secretKey,
        targetURL: remote.url,
        prefix: "invoices/2024/",
        tags: "department=finance",
        bucketsRelation: [{ originBucket: "site", destinationBucket: "site-replica-in-another-region" }],
      },
      headers: { origin: stack.consoleUrl },
    });
    assert.equal(res.status(), 200, await res.text());

    await t.step("the bucket list: names wrap between words", async () => {
      await page.goto("/buckets");
      await page.locator(`tr[data-row="${LONG_NAME}"]`).waitFor();
      assert.deepEqual(await wordsBrokenIn(page, "tbody td"), []);
      assert.equal(await scrollsSideways(page), false);
    });

    await t.step("the Replication table fits", async () => {
      await page.goto("/buckets/site/replication");
      await page.locator("tr[data-row]", { hasText: "site-replica-in-another-region" }).waitFor();
      assert.deepEqual(await wordsBrokenIn(page, "tbody td"), []);
      assert.equal(await scrollsSideways(page), false, "no horizontal scrolling at 800 px");
    });

    await t.step("the Lifecycle table fits too; its opaque rule IDs may break, words do not", async () => {
      const rule = await page.request.post(`${stack.consoleUrl}/api/v1/buckets/site/lifecycle`, {
        data: { prefix: "invoices/2024/", expiry_days: 30 },
        headers: { origin: stack.consoleUrl },
      });
      assert.equal(rule.status(), 201, await rule.text());
      await page.goto("/buckets/site/lifecycle");
      await page.locator("tr[data-row]", { hasText: "invoices/2024/" }).waitFor();
      assert.equal(await scrollsSideways(page), false, "no horizontal scrolling at 800 px");
    });

    await t.step("dark theme: the bucket's current section stands out from the menu", async () => {
      await page.context().addCookies([{ name: "theme", value: "dark", url: stack.consoleUrl }]);
      await page.goto("/buckets/site/summary");
      const menu = page.getByRole("list", { name: "Bucket sections" });
      const active = menu.getByRole("link", { name: "Summary" });
      assert.equal(await active.getAttribute("aria-current"), "page");
      const background = (el: Element) => getComputedStyle(el).backgroundColor;
      const [activeBg, menuBg] = [await active.evaluate(background), await menu.evaluate(background)];
      assert.ok(
        contrast(activeBg, menuBg) >= 3,
        `the active item (${activeBg}) is clearly set off from the menu (${menuBg})`,
      );
      await assertAccessible(page, "bucket summary, dark, 800 px");
    });

    await t.step("a filter that matches nothing says so", async () => {
      await page.goto("/buckets");
      await waitForIslands(page);
      await page.getByPlaceholder("Filter Buckets").fill("zzz");
      assert.equal(await page.getByTestId("empty-message").innerText(), "No buckets match your filter.");
      await page.goto("/users");
      await waitForIslands(page);
      await page.getByPlaceholder("Search Users").fill("zzz");
      assert.equal(await page.getByTestId("empty-message").innerText(), "No users match your filter.");
    });
  } finally {
    await browser.close();
    await remote.close();
    await stack.close();
  }
});
