/**
 * Logs › Audit Logs in Chromium against the built-in log search fed by the embedded storage: the Response
 * Status filter finds what the table shows ("404 Not Found") by its code, a range of codes is refused with a
 * message, and clicking Timestamp flips the order on the first click.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import * as s3 from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { eventually } from "../eventually.ts";

/** The objects of the shown rows, top to bottom. */
const objects = (page: Page) =>
  page.getByRole("table", { name: "audit records" }).locator("tbody tr[data-row]").evaluateAll((rows) =>
    rows.map((row) => row.querySelectorAll("td")[3]?.textContent ?? "")
  );

Deno.test("browser: audit logs filter by a status code and sort both ways", async () => {
  const stack = await startStack({ logSearch: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await s3.makeBucket(stack.admin, "audited");
    await s3.putObject(stack.admin, "audited", "first one.txt", "1");
    await assert.rejects(s3.getObject(stack.admin, "audited", "missing ü.txt"), /does not exist/);
    await s3.putObject(stack.admin, "audited", "last 🙂.txt", "3");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/logs?tab=audit");
    await page.getByRole("button", { name: "Advanced Filters" }).click();
    await page.getByRole("textbox", { name: "Object", exact: true }).fill("*.txt");
    // Delivery to the log search is asynchronous: search again until all three requests are in, as a user would.
    await eventually("the three requests in the audit log", async () => {
      await page.getByRole("button", { name: "Get Information" }).click();
      await page.getByRole("status").filter({ hasText: /records$/ }).waitFor({ timeout: 300 }).catch(
        () => {},
      );
      return (await objects(page)).length >= 3;
    });
    assert.deepEqual(await objects(page), ["last 🙂.txt", "missing ü.txt", "first one.txt"], "newest first");

    await page.getByRole("button", { name: "Timestamp" }).click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    await page.waitForFunction(
      () => document.querySelector("tbody tr[data-row] td:nth-child(4)")?.textContent === "first one.txt",
    );
    assert.deepEqual(await objects(page), ["first one.txt", "missing ü.txt", "last 🙂.txt"], "oldest first");
    await page.getByRole("button", { name: "Timestamp" }).click();
    await page.locator('th[aria-sort="descending"]').waitFor();
    await page.waitForFunction(
      () => document.querySelector("tbody tr[data-row] td:nth-child(4)")?.textContent === "last 🙂.txt",
    );

    const status = page.getByRole("textbox", { name: "Response Status" });
    for (const typed of ["404", "404 Not Found", "Not Found"]) {
      await status.fill(typed);
      await page.getByRole("button", { name: "Get Information" }).click();
      await page.waitForFunction(() => document.querySelectorAll("tbody tr[data-row]").length === 1);
      assert.deepEqual(await objects(page), ["missing ü.txt"], typed);
      assert.match(await page.locator("tbody tr[data-row]").innerText(), /404 Not Found/);
    }

    await status.fill("4*");
    browser.expectConsoleError(/status of 400/);
    await page.getByRole("button", { name: "Get Information" }).click();
    assert.match(
      await page.getByTestId("audit-error").innerText(),
      /Response Status takes a code such as 404 or a text such as Not Found/,
    );
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
