/**
 * The User detail and Policy detail screens have one data path each: a help-desk user who may read users and
 * policies but not groups' details or service accounts sees those parts say "Access denied" when the page
 * renders, and the same after Refresh or a saved change, which bring the rest up to date without a banner for
 * what the page already said.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { addCannedPolicy } from "../../server/lib/s3/mod.ts";
import { createUser, signInAsRoot, startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const USER = "Zoë Ångström/ops + 50% #1?";
const POLICY = "read-reports-读取";
const EXTRA_POLICY = "write-inbox";
const GROUP = "analysts 📊 team";
const statement = (action: string, resource: string) => ({
  Effect: "Allow",
  Action: [action],
  Resource: [resource],
});
const document = (...statements: unknown[]) =>
  JSON.stringify({ Version: "2012-10-17", Statement: statements });

/**
 * What the Users and Policies pages need (api-index §13.4) and the group list; not describing a group nor
 * seeing service accounts.
 */
const HELPDESK_POLICY = {
  name: "helpdesk",
  document: {
    Version: "2012-10-17",
    Statement: [{
      Effect: "Allow",
      Action: [
        "admin:ListUsers",
        "admin:CreateUser",
        "admin:DeleteUser",
        "admin:GetUser",
        "admin:EnableUser",
        "admin:DisableUser",
        "admin:GetPolicy",
        "admin:DeletePolicy",
        "admin:CreatePolicy",
        "admin:AttachUserOrGroupPolicy",
        "admin:ListUserPolicies",
        "admin:ListGroups",
      ],
      Resource: ["arn:aws:s3:::*"],
    }],
  },
};

const bannersShown = (page: Page) => page.locator("[data-testid='error-banner']:visible");

/** Closes the banners in view, as a user does, so a banner seen afterwards is a new one. */
async function dismissBanners(page: Page) {
  for (const banner of await bannersShown(page).all()) await banner.getByLabel("Close").click();
  await bannersShown(page).first().waitFor({ state: "detached" });
}

Deno.test("browser: user and policy detail read the same rendered and refreshed for a help-desk user", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    const root = await signInAsRoot(stack);
    await root.json("POST", "/api/v1/policies", {
      name: POLICY,
      policy: document(statement("s3:GetObject", "arn:aws:s3:::reports/*")),
    }, 201);
    await root.json("POST", "/api/v1/policies", {
      name: EXTRA_POLICY,
      policy: document(statement("s3:PutObject", "arn:aws:s3:::inbox/*")),
    }, 201);
    await root.json("POST", "/api/v1/users", {
      accessKey: USER,
      secretKey: "zoe-secret-key-1",
      groups: [],
      policies: [POLICY],
    }, 201);
    await root.json("POST", "/api/v1/users", { accessKey: "carol", secretKey: "carol-secret-1" }, 201);
    await root.json("POST", "/api/v1/groups", { group: GROUP, members: ["carol"] }, 201);
    await root.request("PUT", `/api/v1/set-policy/${encodeURIComponent(POLICY)}`, {
      entityName: GROUP,
      entityType: "group",
    });
    await createUser(stack, "helpdesk", "helpdesk-secret-1", [HELPDESK_POLICY]);
    await signInThroughForm(page, "helpdesk", "helpdesk-secret-1");
    const banner = bannersShown(page);

    await t.step("policy detail: Refresh shows the changed document; its groups stay denied", async () => {
      await page.goto(`/policies/${encodeURIComponent(POLICY)}`);
      assert.match(await banner.innerText(), /^Error\nAccess denied: Groups\n/);
      await dismissBanners(page);
      await page.getByRole("tab", { name: "Groups" }).click();
      assert.equal(await page.getByTestId("empty-message").innerText(), "Access denied");

      await addCannedPolicy(
        stack.admin,
        POLICY,
        document(
          statement("s3:GetObject", "arn:aws:s3:::reports/*"),
          statement("s3:ListBucket", "arn:aws:s3:::reports"),
        ),
      );
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.getByRole("tab", { name: "Summary" }).click();
      await page.getByTestId("policy-summary").getByText("s3:ListBucket").waitFor();
      assert.equal(await banner.count(), 0, "the denied tab said so already: no news");
      await page.getByRole("tab", { name: "Groups" }).click();
      assert.equal(await page.getByTestId("empty-message").innerText(), "Access denied");
      await page.getByRole("tab", { name: "Users" }).click();
      await page.locator(`tr[data-row="${USER}"]`).waitFor();
      await page.getByRole("tab", { name: "JSON" }).click();
      assert.match(await page.getByLabel("Policy JSON").inputValue(), /s3:ListBucket/);
    });

    await t.step(
      "user detail: a saved change shows; the denied service accounts raise no banner",
      async () => {
        await page.goto(`/users/${encodeURIComponent(USER)}`);
        assert.match(await banner.innerText(), /^Error\nAccess denied: Service Accounts\n/);
        await dismissBanners(page);
        await page.getByRole("tab", { name: "Service Accounts" }).click();
        assert.equal(await page.getByTestId("empty-message").innerText(), "Access denied");

        await page.getByRole("tab", { name: "Policies" }).click();
        await page.getByRole("button", { name: "Assign Policies" }).click();
        const dialog = page.getByRole("dialog", { name: "Set Policies" });
        await dialog.getByRole("checkbox", { name: EXTRA_POLICY }).check();
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.waitFor({ state: "detached" });
        await page.locator(`tr[data-row="${EXTRA_POLICY}"]`).waitFor();
        assert.equal(await banner.count(), 0, "the denied tab said so already: no news");
        await page.getByRole("tab", { name: "Service Accounts" }).click();
        assert.equal(await page.getByTestId("empty-message").innerText(), "Access denied");

        await page.reload();
        await page.getByRole("tab", { name: "Policies" }).click();
        await page.locator(`tr[data-row="${EXTRA_POLICY}"]`).waitFor();
      },
    );
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
