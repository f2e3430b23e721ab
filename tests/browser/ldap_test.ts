/**
 * Directory sign-in in Chromium against a real OpenLDAP: a directory user signs in through the login form and
 * sees only what the policy mapped to its group allows; a disabled account and one without a policy are refused
 * with words that say why; Settings › Identity's diagnostics show the failing step when the directory is down.
 * DECK_SCREENSHOTS=<dir> saves the screens (light and dark, wide and 800 px) for a look.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { CREDENTIALS_REFUSED } from "../../server/console/services/session_ldap.ts";
import { changeLdapPolicies } from "../../server/lib/s3/admin/ldap.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { startStack } from "../helpers.ts";
import { configureLdap, GROUP_DNS, startDirectory, USERS } from "../ldap_directory.ts";
import { freePort } from "../storage_process.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

async function screens(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DECK_SCREENSHOTS");
  if (!dir) return;
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [1280, 800]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${dir}/${name}-${scheme}-${width}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function refusedThroughForm(page: Page, username: string, password: string) {
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByPlaceholder("Enter Username").fill(username);
  await page.getByPlaceholder("Enter Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  const banner = page.getByRole("alert");
  await banner.waitFor();
  return banner;
}

Deno.test("browser: directory users sign in, refusals say why, diagnostics name the failing step", async (t) => {
  const directory = await startDirectory();
  const stack = await startStack({ env: { CONSOLE_TRUST_FORWARDED: "off" } });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await configureLdap(stack.admin, directory.settings);
    await makeBucket(stack.admin, "team");
    await changeLdapPolicies(stack.admin, "attach", { policies: ["readonly"], group: GROUP_DNS.readers });

    await t.step("a directory user signs in and sees only what its group's policy allows", async () => {
      await signInThroughForm(page, "alice", USERS.alice.password);
      const menu = page.getByRole("navigation", { name: "Main menu" });
      await menu.getByRole("link", { name: "Object Browser" }).waitFor();
      assert.equal(await menu.getByRole("link", { name: "Users", exact: true }).count(), 0);
      assert.equal(await menu.getByRole("link", { name: "Settings", exact: true }).count(), 0);
      await page.goto("/browser");
      await page.getByText("team", { exact: true }).first().waitFor();
      await screens(page, "ldap-browser");
    });

    await t.step("a disabled account is refused without saying whether the name exists", async () => {
      browser.expectConsoleError(/status of 401/);
      const banner = await refusedThroughForm(page, "dave", USERS.dave.password);
      await banner.getByText("Invalid Login").waitFor();
      assert.ok((await banner.textContent())?.includes(CREDENTIALS_REFUSED));
      await screens(page, "ldap-refused");
    });

    await t.step("an account without a policy is told which DN needs one", async () => {
      browser.expectConsoleError(/status of 403/);
      const banner = await refusedThroughForm(page, "erin", USERS.erin.password);
      await banner.getByText(/no policy is mapped to this directory user/i).waitFor();
      assert.match((await banner.textContent()) ?? "", /uid=erin,ou=staff,dc=deck,dc=test/);
    });

    await t.step(
      "an administrator maps a policy to the user on the Users page; then it signs in",
      async () => {
        await page.context().clearCookies();
        await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
        await page.goto("/users");
        const directory = page.getByRole("region", { name: "Directory users (LDAP)" });
        await directory.getByLabel("User DN or login name").fill("erin");
        await directory.getByRole("checkbox", { name: "readwrite" }).check();
        await directory.getByRole("button", { name: "Save policies" }).click();
        await directory.getByRole("cell", { name: USERS.erin.dn, exact: true }).waitFor();
        await assertAccessible(page, "Users with directory users");
        await screens(page, "ldap-users");
        await page.goto("/groups");
        const groups = page.getByRole("region", { name: "Directory groups (LDAP)" });
        await groups.getByRole("cell", { name: GROUP_DNS.readers, exact: true }).waitFor();
        await page.context().clearCookies();
        await signInThroughForm(page, "erin", USERS.erin.password);
      },
    );

    await t.step("the diagnostics panel shows the failing step when the directory is down", async () => {
      const closed = await freePort();
      await configureLdap(stack.admin, { ...directory.settings, server_addr: `127.0.0.1:${closed}` });
      await page.context().clearCookies();
      await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
      await page.goto("/settings?section=identity");
      await page.getByLabel("Test user (optional)").fill("alice");
      await page.getByRole("button", { name: "Run checks" }).click();
      const failed = page.locator('[data-testid="diagnostic-step"][data-passed="false"]');
      await failed.first().waitFor();
      assert.equal(await failed.count(), 1);
      const text = (await failed.textContent()) ?? "";
      assert.match(text, /Directory reachable/);
      assert.match(text, new RegExp(`127\\.0\\.0\\.1:${closed} \\(plain LDAP, no TLS\\) cannot be reached`));
      await assertAccessible(page, "Settings › Identity diagnostics");
      await screens(page, "ldap-diagnostics-down");
      await configureLdap(stack.admin, directory.settings);
      await page.getByRole("button", { name: "Run checks" }).click();
      await page.getByText("Mapped policies").waitFor();
      assert.equal(await failed.count(), 0);
      await screens(page, "ldap-diagnostics-ok");
    });
  } finally {
    await browser.close();
    await stack.close();
    await directory.stop();
  }
});
