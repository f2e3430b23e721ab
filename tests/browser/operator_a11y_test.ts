/**
 * axe-core over every operator-mode page (sign-in, tenants, the Create Tenant wizard, each tenant tab and a
 * pod, volumes, drives) in the light and the dark theme: no serious or critical violation.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startOperatorStack } from "../operator_helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, waitForIslands } from "./browser.ts";

const T = "/namespaces/tenant-lite/tenants/storage-lite";
const PAGES = ["/tenants", "/tenants/add", `${T}/summary`, `${T}/metrics`, `${T}/security`, `${T}/pools`, `${T}/pods`, `${T}/license`, "/storage/volumes", "/storage/drives"];

async function checkAll(page: Page, paths: string[], theme: string): Promise<void> {
  const failures: string[] = [];
  for (const path of paths) {
    try {
      await page.goto(path);
      await waitForIslands(page);
      await assertAccessible(page, `${path}, ${theme}`);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (failures.length) throw new Error(failures.join("\n"));
}

Deno.test("browser: every operator page passes axe-core in both themes", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await page.goto("/login");
    await page.getByRole("heading", { name: "Operator Login" }).waitFor();
    await t.step("the operator sign-in page", () => assertAccessible(page, "operator login"));
    await page.getByLabel("JWT").fill(stack.cluster.operatorToken);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/tenants");
    await stack.cluster.operator.settled();
    const pod = await page.evaluate(async (tenant) => {
      const res = await fetch(`/api/v1${tenant}/pods`);
      return ((await res.json()) as { name: string }[])[0]?.name ?? "";
    }, T);
    assert.ok(pod, "the seeded tenant has a pod to show");
    for (const theme of ["light", "dark"] as const) {
      await page.context().addCookies([{ name: "theme", value: theme, url: stack.consoleUrl }]);
      await t.step(`${theme}: every page`, () => checkAll(page, [...PAGES, `${T}/pods/${pod}`], theme));
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});
