/**
 * The shell's messages in Debian's Chromium (spec 1 §2, §8): the red error banner, the snackbar and the loading
 * bar, timed with Playwright's clock instead of sleeps.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { addUser, removeUser } from "../../server/lib/s3/admin/iam.ts";
import { deleteBucket, makeBucket } from "../../server/lib/s3/mod.ts";
import { createUser, startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";

/** Whether an element's background is a red (the error colour in either theme). */
async function isRed(locator: Locator): Promise<boolean> {
  const color = await locator.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return r > 150 && r > 2 * g && r > 2 * b;
}

/** Stops the page's clock now, so timers advance only with runFor. */
async function pauseClock(page: Page): Promise<void> {
  await page.clock.pauseAt(await page.evaluate(() => Date.now()) + 1_000);
}

Deno.test("browser: the error banner, the snackbar and the loading bar", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await page.clock.install();
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step(
      "banner: red, titled Error, hides after 10 s, and the timer pauses while hovered",
      async () => {
        await addUser(stack.admin, "bob", "bob-secret-1");
        await page.goto("/users/bob");
        await waitForIslands(page);
        await pauseClock(page);
        await removeUser(stack.admin, "bob"); // deleted elsewhere while the page is open
        browser.expectConsoleError(/status of 404/);
        await page.getByRole("button", { name: "Disable" }).click();
        const banner = page.getByTestId("error-banner");
        await banner.waitFor();
        assert.equal(
          await page.getByTestId("user-status").innerText(),
          "Status: Enabled",
          "the refused change is undone",
        );
        assert.ok(await isRed(banner), "the banner is red");
        assert.match(await banner.innerText(), /^Error\s+Not found/);
        await page.clock.runFor(9_000);
        assert.ok(await banner.isVisible(), "still shown after 9 s");
        await banner.hover();
        await page.clock.runFor(20_000);
        assert.ok(await banner.isVisible(), "the timer pauses while the pointer is over it");
        await page.mouse.move(1, 1);
        await page.clock.runFor(900);
        assert.ok(await banner.isVisible(), "10 s in all have not run yet");
        await page.clock.runFor(200);
        await banner.waitFor({ state: "detached" });
      },
    );

    await t.step(
      "banner: Details expand to the server's detailed message; the close button closes it",
      async () => {
        browser.expectConsoleError(/status of 404/);
        await page.getByRole("button", { name: "Disable" }).click();
        const banner = page.getByTestId("error-banner");
        await banner.waitFor();
        const detail = banner.getByText("The specified user does not exist.");
        assert.equal(await detail.isVisible(), false, "details start folded");
        await banner.getByText("Details").click();
        assert.equal(await detail.isVisible(), true);
        await page.clock.runFor(30_000);
        assert.ok(await banner.isVisible(), "reading the details (focus inside) keeps it");
        await banner.getByRole("button", { name: "Close" }).click();
        await banner.waitFor({ state: "detached" });
      },
    );

    await t.step("loading bar: shows while a request runs, goes when it returns", async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/v1/user?name=bob", async (route) => (await held, await route.continue()));
      browser.expectConsoleError(/status of 404/);
      await page.getByRole("button", { name: "Disable" }).click();
      const bar = page.getByRole("progressbar", { name: "Loading" });
      await bar.waitFor();
      release();
      await bar.waitFor({ state: "detached" });
      await page.unroute("**/api/v1/user?name=bob");
      await page.getByRole("button", { name: "Close" }).click();
    });

    await t.step("snackbar: a success message hides after 5 s", async () => {
      await addUser(stack.admin, "carol", "carol-secret-1");
      await page.goto("/users");
      await waitForIslands(page);
      await pauseClock(page);
      await page.getByRole("button", { name: "delete carol" }).click();
      await page.getByRole("dialog", { name: "Delete User" }).getByRole("button", { name: "Delete" }).click();
      const snackbar = page.getByTestId("snackbar");
      await snackbar.waitFor();
      assert.equal(await snackbar.innerText(), "User carol deleted");
      await page.clock.runFor(4_900);
      assert.ok(await snackbar.isVisible());
      await page.clock.runFor(200);
      await snackbar.waitFor({ state: "detached" });
    });

    await t.step(
      "snackbar: an error stays 10 s, capitalised, with a detail that differs from the message",
      async () => {
        await makeBucket(stack.admin, "doomed");
        await page.goto("/buckets/doomed/prefix");
        await waitForIslands(page);
        await pauseClock(page);
        await deleteBucket(stack.admin, "doomed"); // deleted elsewhere while the page is open
        await page.getByRole("button", { name: "Add Access Rule" }).click();
        const dialog = page.getByRole("dialog", { name: "Add Access Rule" });
        await dialog.getByLabel("Prefix").fill("pub");
        browser.expectConsoleError(/status of 404/);
        browser.expectConsoleError(/status of 404/); // the list's reload after the dialog closes fails too
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.waitFor({ state: "detached" });
        const snackbar = page.getByTestId("snackbar");
        await snackbar.waitFor();
        // The server says "not found"; the user reads it capitalised, with the storage's own words beside it.
        assert.equal(await snackbar.innerText(), "Not found — The specified bucket does not exist");
        assert.ok(await isRed(snackbar), "errors are red");
        assert.equal(await snackbar.getAttribute("role"), "alert");
        await page.clock.runFor(9_900);
        assert.ok(await snackbar.isVisible(), "errors stay 10 s");
        await page.clock.runFor(200);
        await snackbar.waitFor({ state: "detached" });
      },
    );

    await t.step("snackbar: a detail that only repeats the message is dropped", async () => {
      await makeBucket(stack.admin, "site");
      // A user who may read the bucket's policy but not change it: the storage answers "Access Denied.".
      await createUser(stack, "viewer", "viewer-secret-1", [{
        name: "site-no-policy-writes",
        document: {
          Version: "2012-10-17",
          Statement: [
            { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::site", "arn:aws:s3:::site/*"] },
            { Effect: "Deny", Action: ["s3:PutBucketPolicy"], Resource: ["arn:aws:s3:::site"] },
          ],
        },
      }]);
      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL("**/login");
      await signInThroughForm(page, "viewer", "viewer-secret-1");
      await page.goto("/buckets/site/prefix");
      await waitForIslands(page);
      await page.getByRole("button", { name: "Add Access Rule" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Access Rule" });
      await dialog.getByLabel("Prefix").fill("pub");
      browser.expectConsoleError(/status of 403/);
      await dialog.getByRole("button", { name: "Save" }).click();
      const snackbar = page.getByTestId("snackbar");
      await snackbar.waitFor();
      assert.equal(await snackbar.innerText(), "Access denied");
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});
