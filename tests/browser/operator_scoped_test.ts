/**
 * Operator mode with tokens bound to one namespace (the stand-in's viewer) or to nothing, in Chromium
 * through the stand-in Kubernetes API server: the tenants list shows what the token may see and says in
 * words what it may not, instead of "Forbidden" over "There are no tenants yet.".
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startOperatorStack } from "../operator_helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser } from "./browser.ts";

async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("JWT").fill(token);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL("**/tenants");
}

Deno.test("browser: operator mode with namespace-scoped tokens", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true });
  try {
    await t.step("a token bound to tenant-lite sees its tenant, told why only that one", async () => {
      const browser = await openBrowser(stack);
      const { page } = browser;
      try {
        await signInWithToken(page, stack.cluster.viewerToken);
        const row = page.locator('tr[data-row="tenant-lite/storage-lite"]');
        await row.waitFor();
        assert.equal(await page.getByTestId("error-banner").count(), 0, "no 'Forbidden'");
        const note = page.getByTestId("tenants-limited");
        assert.match(
          await note.innerText(),
          /^Your token may not list tenants in every namespace, so only those in namespace tenant-lite are shown\.\n+Kubernetes: tenants is forbidden: User "system:serviceaccount:tenant-lite:viewer" cannot list resource "tenants" in API group "minio\.min\.io" at the cluster scope$/,
        );
        await assertAccessible(page, "tenants of one namespace, with the note saying why");
        await page.getByRole("button", { name: "Refresh" }).click();
        await row.waitFor();
        await note.waitFor();
        await row.getByRole("link", { name: /^view/ }).click();
        await page.waitForURL("**/namespaces/tenant-lite/tenants/storage-lite/summary");
        await page.getByRole("heading", { name: "storage-lite" }).waitFor();
      } finally {
        await browser.close();
      }
    });

    await t.step("a token that may list no tenants is told so in place of the rows", async () => {
      const browser = await openBrowser(stack);
      const { page } = browser;
      try {
        await signInWithToken(page, stack.cluster.nobodyToken);
        assert.equal(
          await page.getByTestId("empty-message").innerText(),
          "You do not have permission to list tenants.",
        );
        assert.match(await page.getByTestId("error-banner").innerText(), /Forbidden/);
      } finally {
        await browser.close();
      }
    });
  } finally {
    await stack.close();
  }
});
