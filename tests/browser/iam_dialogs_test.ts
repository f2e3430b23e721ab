/**
 * IAM dialogs a person reaches from the lists (spec 1 Users, spec 2 IAM Policies): a user's row opens Edit
 * User with what the server holds, and a policy's row opens Info Policy with its JSON, read-only.
 */
import assert from "node:assert/strict";
import { addCannedPolicy, addUser, updateGroupMembers } from "../../server/lib/s3/admin/iam.ts";
import { signIn, startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

// A space would do for the dialog, but SigV4 cannot carry one in an access key (MinIO strips spaces from the header).
const USER = "maría+1#ops";
const POLICY = "reports read #2";
const READ_REPORTS = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::reports/*"] }],
});

Deno.test("browser: Edit User and Info Policy open from their rows", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await addUser(stack.admin, USER, "first-secret-1");
    await updateGroupMembers(stack.admin, { group: "équipe 🙂", members: [USER], isRemove: false });
    await addCannedPolicy(stack.admin, POLICY, READ_REPORTS);
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step("Edit User: the row's edit action, the stored groups ticked, saved back", async () => {
      await page.goto("/users");
      await page.getByRole("button", { name: `edit ${USER}` }).click();
      const dialog = page.getByRole("dialog", { name: "Edit User" });
      const accessKey = dialog.getByLabel("Access Key");
      assert.equal(await accessKey.inputValue(), USER);
      assert.equal(await accessKey.getAttribute("readonly"), "", "the access key is read-only when editing");
      assert.equal(await dialog.getByRole("checkbox", { name: "équipe 🙂" }).isChecked(), true);
      await dialog.getByRole("checkbox", { name: POLICY }).check();
      await dialog.getByRole("checkbox", { name: "Enabled" }).uncheck();
      await dialog.getByLabel("Secret Key").fill("second-secret-2");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      const row = page.locator("tr[data-row]", { hasText: USER });
      await row.filter({ hasText: POLICY }).waitFor();
      assert.match((await row.innerText()).replace(/\s+/g, " "), /Disabled équipe 🙂 reports read #2/);
    });

    await t.step("the new secret is the one that works once the user is enabled again", async () => {
      await page.getByRole("button", { name: `edit ${USER}` }).click();
      const dialog = page.getByRole("dialog", { name: "Edit User" });
      assert.equal(await dialog.getByRole("checkbox", { name: "Disabled" }).isChecked(), false);
      await dialog.getByRole("checkbox", { name: "Disabled" }).check();
      await dialog.getByLabel("Secret Key").fill("third-secret-3");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.locator("tr[data-row]", { hasText: USER }).filter({ hasText: "Enabled" }).waitFor();
      await signIn(stack, USER, "third-secret-3");
    });

    await t.step("Info Policy: the row's description action shows the policy, read-only", async () => {
      await page.goto("/policies");
      await page.getByRole("button", { name: `description ${POLICY}` }).click();
      const dialog = page.getByRole("dialog", { name: `Policy: ${POLICY}` });
      const text = dialog.getByRole("textbox", { name: "Policy" });
      assert.match(await text.inputValue(), /"arn:aws:s3:::reports\/\*"/);
      assert.equal(await text.getAttribute("readonly"), "");
      await dialog.getByRole("button", { name: "Close" }).first().click();
      await dialog.waitFor({ state: "detached" });
    });
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
