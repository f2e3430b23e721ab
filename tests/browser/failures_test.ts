/**
 * Every built area shows an API failure's message on screen (issue 18): in a dialog's message bar, in the
 * error banner, or in an error snackbar when the dialog closes (spec 2 §8 access rules). Each failure is real:
 * something changed elsewhere, a name already taken, a value out of range.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import {
  addUser,
  removeCannedPolicy,
  removeUser,
  updateGroupMembers,
} from "../../server/lib/s3/admin/iam.ts";
import { addServiceAccount, deleteServiceAccount } from "../../server/lib/s3/admin/service_accounts.ts";
import { addCannedPolicy } from "../../server/lib/s3/admin/iam.ts";
import { deleteBucket, makeBucket, putBucketVersioning } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { type BrowserSession, openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";

const READ_ONLY = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::*"] }],
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForIslands(page);
}

/** The text of a dialog's message bar once it shows. */
async function dialogMessage(dialog: Locator): Promise<string> {
  const message = dialog.getByTestId("dialog-message");
  await message.waitFor();
  return await message.innerText();
}

async function bannerText(page: Page): Promise<string> {
  const banner = page.getByTestId("error-banner");
  await banner.waitFor();
  await assertAccessible(page, "a page with the error banner");
  const text = await banner.textContent() ?? ""; // with the folded Details

  await banner.getByRole("button", { name: "Close" }).click();
  return text;
}

Deno.test("browser: a failed call shows its message in every area", async (t) => {
  const stack = await startStack();
  const browser: BrowserSession = await openBrowser(stack);
  const { page } = browser;
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step("users: toggling the status of a user deleted elsewhere", async () => {
      await addUser(stack.admin, "gone", "gone-secret-1");
      await open(page, "/users/gone");
      await removeUser(stack.admin, "gone");
      browser.expectConsoleError(/status of 404/);
      await page.getByRole("button", { name: "Disable" }).click();
      assert.match(await bannerText(page), /Not found[\s\S]*The specified user does not exist/);
    });

    await t.step("groups: editing a group deleted elsewhere", async () => {
      await addUser(stack.admin, "member", "member-secret-1");
      await updateGroupMembers(stack.admin, { group: "short-lived", members: ["member"], isRemove: false });
      await open(page, "/groups");
      await updateGroupMembers(stack.admin, { group: "short-lived", members: ["member"], isRemove: true });
      await updateGroupMembers(stack.admin, { group: "short-lived", members: [], isRemove: true });
      browser.expectConsoleError(/status of 404/);
      await page.getByRole("button", { name: "edit short-lived" }).click();
      assert.match(await bannerText(page), /Not found[\s\S]*group does not exist/);
    });

    await t.step("policies: deleting a policy deleted elsewhere", async () => {
      await addCannedPolicy(stack.admin, "temporary", READ_ONLY);
      await open(page, "/policies");
      await removeCannedPolicy(stack.admin, "temporary");
      await page.getByRole("button", { name: "delete temporary" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete Policy" });
      browser.expectConsoleError(/status of 404/);
      await dialog.getByRole("button", { name: "Delete" }).click();
      assert.equal(await dialogMessage(dialog), "The canned policy temporary does not exist.");
    });

    await t.step("account: deleting a service account deleted elsewhere", async () => {
      const key = await addServiceAccount(stack.admin, {
        accessKey: "old-app-key",
        secretKey: "old-app-secret-1",
      });
      await open(page, "/account");
      await deleteServiceAccount(stack.admin, key.accessKey);
      await page.getByRole("button", { name: "delete old-app-key" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete Service Account" });
      browser.expectConsoleError(/status of 404/);
      await dialog.getByRole("button", { name: "Delete" }).click();
      assert.equal(await dialogMessage(dialog), "The specified service account is not found");
    });

    await t.step("buckets: creating a bucket whose name is taken", async () => {
      await makeBucket(stack.admin, "taken");
      await open(page, "/buckets");
      await page.getByRole("button", { name: "Create Bucket" }).click();
      const dialog = page.getByRole("dialog", { name: "Create Bucket" });
      await dialog.getByLabel("Bucket Name").fill("taken");
      browser.expectConsoleError(/status of 409/);
      await dialog.getByRole("button", { name: "Save" }).click();
      assert.equal(await dialogMessage(dialog), "A bucket named taken already exists.");
    });

    await t.step("bucket summary: changing the access policy of a bucket deleted elsewhere", async () => {
      await makeBucket(stack.admin, "vanishing");
      await open(page, "/buckets/vanishing/summary");
      await deleteBucket(stack.admin, "vanishing");
      await page.getByTestId("summary-access").getByRole("button", { name: "Private" }).click();
      const dialog = page.getByRole("dialog", { name: "Change Access Policy" });
      await dialog.getByLabel("Access Policy").selectOption("PUBLIC");
      browser.expectConsoleError(/status of 404/);
      await dialog.getByRole("button", { name: "Save" }).click();
      assert.match(await dialogMessage(dialog), /bucket does not exist/i);
    });

    await t.step("a bucket that does not exist says so (404), without a banner", async () => {
      browser.expectConsoleError(/status of 404/);
      const res = await page.goto("/buckets/no-such-bucket/summary");
      assert.equal(res?.status(), 404);
      await page.getByText("Bucket no-such-bucket does not exist.").waitFor();
      assert.equal(await page.getByTestId("error-banner").count(), 0);
    });

    await makeBucket(stack.admin, "site");
    await t.step("bucket events: subscribing twice to the same event", async () => {
      const res = await page.request.put(`${stack.consoleUrl}/api/v1/configs/notify_webhook`, {
        data: {
          key_values: [{ key: "enable", value: "on" }, {
            key: "endpoint",
            value: `http://127.0.0.1:${(hook.addr as Deno.NetAddr).port}/`,
          }, { key: "queue_dir", value: `${stack.dataDir}/events-queue` }],
          arn_resource_id: "msg",
        },
        headers: { origin: stack.consoleUrl },
      });
      assert.equal(res.status(), 200);
      assert.equal(
        (await page.request.post(`${stack.consoleUrl}/api/v1/service/restart`, {
          data: {},
          headers: { origin: stack.consoleUrl },
        })).status(),
        204,
      );
      await open(page, "/buckets/site/events");
      for (const attempt of [1, 2]) {
        await page.getByRole("button", { name: "Subscribe to Event" }).click();
        const dialog = page.getByRole("dialog", { name: "Subscribe To Event" });
        await dialog.getByLabel("PUT - Object Uploaded").check();
        if (attempt === 2) browser.expectConsoleError(/status of 409/);
        await dialog.getByRole("button", { name: "Save" }).click();
        if (attempt === 1) await dialog.waitFor({ state: "detached" });
        else assert.match(await dialogMessage(dialog), /already/i);
      }
    });

    await t.step("bucket replication: a remote target that cannot be reached", async () => {
      await putBucketVersioning(stack.admin, "site", { status: "Enabled" });
      await open(page, "/buckets/site/replication");
      await page.getByRole("button", { name: "Add Replication Rule" }).click();
      const dialog = page.getByRole("dialog", { name: "Set Bucket Replication" });
      await dialog.getByLabel("Target URL").fill(`127.0.0.1:${await closedPort()}`);
      await dialog.getByLabel("Use TLS").uncheck();
      await dialog.getByLabel("Access Key").fill("remote-key");
      await dialog.getByLabel("Secret Key").fill("remote-secret");
      await dialog.getByLabel("Target Bucket").fill("copy");
      await dialog.getByRole("button", { name: "Save" }).click();
      assert.match(await dialogMessage(dialog), /not available/);
    });

    await t.step("bucket lifecycle: a rule that repeats an existing one", async () => {
      await open(page, "/buckets/site/lifecycle");
      for (const attempt of [1, 2]) {
        await page.getByRole("button", { name: "Add Lifecycle Rule" }).click();
        const dialog = page.getByRole("dialog", { name: "Add Lifecycle Rule" });
        await dialog.getByLabel("Expiry Days").fill("30");
        if (attempt === 2) browser.expectConsoleError(/status of 4\d\d/);
        await dialog.getByRole("button", { name: "Save" }).click();
        if (attempt === 1) await dialog.waitFor({ state: "detached" });
        else assert.match(await dialogMessage(dialog), /already has this action for the same prefix/);
      }
    });

    await t.step(
      "bucket access rules: a prefix over 1,024 characters (the dialog closes, the error stays)",
      async () => {
        await open(page, "/buckets/site/prefix");
        await page.getByRole("button", { name: "Add Access Rule" }).click();
        const dialog = page.getByRole("dialog", { name: "Add Access Rule" });
        await dialog.getByLabel("Prefix").fill("p".repeat(1_100));
        browser.expectConsoleError(/status of 400/);
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.waitFor({ state: "detached" });
        const snackbar = page.getByTestId("snackbar");
        await snackbar.waitFor();
        assert.match(await snackbar.innerText(), /Prefix.*1024 characters/);
        await assertAccessible(page, "a page with an error snackbar");
      },
    );
  } finally {
    await browser.close();
    await hook.shutdown();
    await stack.close();
  }
});
