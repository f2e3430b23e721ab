/**
 * One date format on every page (docs/notes.md, Messages): a bucket's creation date, an object's last
 * modification, an audit record, a watched event and an Error Logs line all read `YYYY-MM-DD HH:MM:SS UTC`,
 * the same on the server-rendered page and once the browser has taken it over.
 */
import assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import * as s3 from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { eventually } from "../eventually.ts";

const FORMAT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const today = () => new Date().toISOString().slice(0, 10);

/** The text of the `column`th cell (1-based) of the first row. */
const cell = (rows: Locator, column: number) => rows.first().locator(`td:nth-child(${column})`).innerText();

Deno.test("browser: every page shows instants in one format", async (t) => {
  const stack = await startStack({ logSearch: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await s3.makeBucket(stack.admin, "dated");
    await s3.putObject(stack.admin, "dated", "notes #1 é.txt", "hello");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step("buckets: Creation Date", async () => {
      await page.goto("/buckets");
      const created = await cell(page.locator("tr[data-row=dated]"), 3);
      assert.match(created, FORMAT);
      assert.ok(created.startsWith(today()));
    });

    await t.step("object browser: Last Modified", async () => {
      await page.goto("/object-browser/dated");
      assert.match(await cell(page.locator('tr[data-row="notes #1 é.txt"]'), 3), FORMAT);
    });

    await t.step("audit logs: Timestamp", async () => {
      await page.goto("/logs?tab=audit");
      const rows = page.getByRole("table", { name: "audit records" }).locator("tbody tr[data-row]");
      // Delivery to the log search is asynchronous: ask again, as a user would, until records show.
      await eventually("records in the audit log", async () => {
        await page.getByRole("button", { name: "Get Information" }).click();
        return await rows.first().waitFor({ timeout: 300 }).then(() => true, () => false);
      });
      assert.match(await cell(rows, 1), FORMAT);
    });

    await t.step("watch: Time", async () => {
      await page.goto("/watch");
      await page.getByLabel("Bucket").selectOption("dated");
      await page.getByRole("button", { name: "Start" }).click();
      await page.getByRole("button", { name: "Stop" }).waitFor();
      await eventually("the watch to subscribe", () => stack.storage.streams.events.subscriberCount > 0);
      await s3.putObject(stack.admin, "dated", "watched.txt", "12345");
      const row = page.locator("tr", { hasText: "dated/watched.txt" });
      await row.waitFor();
      assert.match(await cell(row, 1), FORMAT);
      await page.getByRole("button", { name: "Stop" }).click();
    });

    await t.step("error logs: each line starts with its time", async () => {
      await page.goto("/logs");
      const first = page.getByTestId("error-logs").locator("div[data-level=INFO]").first();
      await first.waitFor();
      assert.match(await first.innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {2}API: http/);
    });
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
