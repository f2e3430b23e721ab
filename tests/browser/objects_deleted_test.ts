/**
 * Recovering a deleted object in a versioned bucket, in Chromium, as a person does it: delete it from the
 * folder, find it again with 'Show deleted objects', open it, restore the older version from its Versions,
 * and see it back in the normal listing. Also: the deleted key's own URL opens (not "Not found"), and
 * rewind links each entry to the version it was then, with its row actions.
 */
import assert from "node:assert/strict";
import { getObject, makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const KEY = "plans/Plan été #1 + 50% ? 🚀.txt";
const LEAF = "Plan été #1 + 50% ? 🚀.txt";

Deno.test("browser: a deleted object is found, opened and restored", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "history");
    await putBucketVersioning(stack.admin, "history", { status: "Enabled" });
    await putObject(stack.admin, "history", KEY, "first draft", { contentType: "text/plain" });
    await putObject(stack.admin, "history", KEY, "second draft", { contentType: "text/plain" });
    await putObject(stack.admin, "history", "plans/keep.txt", "stays");
    const beforeDelete = new Date();
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    const row = page.locator(`tr[data-row="${KEY}"]`);

    await t.step("delete it from the folder: it leaves the listing", async () => {
      await page.goto("/object-browser/history/plans/");
      await row.getByRole("button", { name: `delete ${KEY}` }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await row.waitFor({ state: "detached" });
      await page.locator('tr[data-row="plans/keep.txt"]').waitFor();
    });

    await t.step(
      "'Show deleted objects' lists it, marked deleted, and it opens on its versions",
      async () => {
        await page.getByLabel("Show deleted objects").check();
        await row.waitFor();
        assert.match(await row.innerText(), /Yes/, "the Deleted column says so");
        assert.equal(await row.getByRole("button", { name: `download ${KEY}` }).isDisabled(), true);
        assert.match(await page.locator('tr[data-row="plans/keep.txt"]').innerText(), /No/);
        await assertAccessible(page, "a folder with its deleted objects shown");
        await row.getByRole("link", { name: LEAF }).click();
        await page.getByTestId("delete-marker").getByText(/This object is deleted/).waitFor();
        const versions = page.getByRole("table", { name: "versions" });
        await versions.locator("tr[data-row]").nth(2).waitFor();
        assert.deepEqual(
          (await versions.locator("tr[data-row]").allInnerTexts()).map((text) => /Yes|No/.exec(text)?.[0]),
          ["Yes", "No", "No"],
          "the delete marker on top of the two drafts",
        );
      },
    );

    await t.step("restore the second draft: the object is back in the normal listing", async () => {
      const versions = page.getByRole("table", { name: "versions" });
      const second = versions.locator("tr[data-row]").nth(1);
      assert.equal(
        await versions.locator("tr[data-row]").first().getByRole("button", { name: /^restore/ }).isDisabled(),
        true,
        "a delete marker cannot be restored",
      );
      await second.getByRole("button", { name: /^restore/ }).click();
      const dialog = page.getByRole("dialog", { name: "Restore Version" });
      await assertAccessible(page, "a deleted object's versions with the Restore Version dialog");
      await dialog.getByRole("button", { name: "Restore" }).click();
      await page.getByText(/Version v2 of '.*' restored\./).waitFor();
      await page.getByRole("table", { name: "Object Metadata" }).or(page.getByText("No user metadata."))
        .waitFor();
      assert.equal(await page.getByTestId("delete-marker").count(), 0);
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "plans" }).click();
      await row.waitFor();
      assert.equal(await page.getByLabel("Show deleted objects").isChecked(), false);
      const body = await (await getObject(stack.admin, "history", KEY)).text();
      assert.equal(body, "second draft");
    });

    await t.step("the deleted key's own URL opens its page, not 'Not found'", async () => {
      await page.goto("/object-browser/history/plans/");
      await page.locator('tr[data-row="plans/keep.txt"]').getByRole("button", { name: /^delete/ }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.locator('tr[data-row="plans/keep.txt"]').waitFor({ state: "detached" });
      await page.goto("/object-browser/history/plans/keep.txt");
      await page.getByTestId("delete-marker").getByText(/This object is deleted/).waitFor();
      assert.equal(await page.getByTestId("error-banner").count(), 0);
      assert.equal(await page.getByRole("button", { name: "Download", exact: true }).isDisabled(), true);
    });

    await t.step("rewind links each entry to its version then, with its row actions", async () => {
      await page.goto("/object-browser/history/plans/");
      await page.getByRole("button", { name: "Rewind" }).click();
      const dialog = page.getByRole("dialog", { name: "Rewind" });
      const local = new Date(beforeDelete.getTime() - beforeDelete.getTimezoneOffset() * 60_000);
      await dialog.getByLabel("Rewind to").fill(local.toISOString().slice(0, 23));
      await dialog.getByRole("button", { name: "Rewind" }).click();
      const kept = page.locator('tr[data-row="plans/keep.txt"]');
      await kept.waitFor();
      assert.match(
        (await kept.getByRole("link").getAttribute("href")) ?? "",
        /\/object-browser\/history\/plans\/keep\.txt\?version_id=[0-9a-f-]{36}$/,
      );
      const download = page.waitForEvent("download");
      await kept.getByRole("button", { name: "download plans/keep.txt" }).click();
      assert.equal(await Deno.readTextFile(await (await download).path()), "stays");
      await kept.getByRole("link").click();
      await page.getByText(/^Version [0-9a-f-]{36}$/).waitFor();
      assert.equal(await page.getByRole("button", { name: "Download", exact: true }).isDisabled(), false);
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});
