/**
 * A bucket's Add Lifecycle Rule (spec 2 §9): the days switch reads 'Default (7 Days)', so an expiry saved as
 * it opens expires after seven days.
 */
import assert from "node:assert/strict";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { getBucketLifecycle } from "../../server/lib/s3/ops/lifecycle.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

Deno.test("browser: a lifecycle rule saved with the default switch expires after 7 days", async () => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "weekly-reports");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/buckets/weekly-reports/lifecycle");
    await page.getByRole("button", { name: "Add Lifecycle Rule" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Lifecycle Rule" });
    assert.equal(await dialog.getByRole("checkbox", { name: "Default (7 Days)" }).isChecked(), false);
    assert.equal(await dialog.getByLabel("Expiry Days", { exact: true }).inputValue(), "7");
    await dialog.getByLabel("Prefix").fill("drafts #1/");
    await dialog.getByRole("button", { name: "Save" }).click();
    const row = page.locator("tr[data-row]", { hasText: "drafts #1/" });
    await row.waitFor();
    assert.match(await row.innerText(), /drafts #1\/\s+Enabled\s+7 days/);
    const [rule] = await getBucketLifecycle(stack.admin, "weekly-reports");
    assert.equal(rule.expiration?.days, 7, "stored on the server as 7 days");
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
