/**
 * Operator mode's accessibility and layout (issue 18): axe-core over every page (sign-in, tenants, the licence,
 * each tenant tab and a pod, volumes, drives), the main dialogs and every step of the Create Tenant wizard in
 * advanced mode, in the light theme at 1280 px and the dark theme at 800 px, where the layout rules of
 * tests/browser/layout.ts are checked too (no mid-word breaks, no sideways page scroll, a visible current item,
 * no-match filter messages).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startOperatorStack } from "../operator_helpers.ts";
import { assertAccessible, everyOne } from "./a11y.ts";
import { openBrowser, waitForIslands } from "./browser.ts";
import { OPERATOR_PAGES, OPERATOR_TENANT } from "./every_page.ts";
import { assertNarrowLayout } from "./layout.ts";

const T = OPERATOR_TENANT;

/** Dialogs opened from a page by a button (the first of that name), checked open. */
const DIALOGS: [page: string, button: string, dialog: string][] = [
  [`${T}/summary`, "Edit YAML", "Edit YAML"],
  [`${T}/summary`, "Delete", "Delete Tenant"],
  [`${T}/summary`, "minio/minio:RELEASE.2021-08-17T20-53-08Z", "Update MinIO Version"],
  [`${T}/pools`, "Expand Tenant", "Add Pool"],
  [`${T}/pods`, "delete storage-lite-pool-0-0", "Delete Pod"],
  ["/license", "Activate", "Activate SUBNET License"],
];

Deno.test("browser: every operator page, dialog and wizard step passes axe-core in both themes and fits 800 px", async (t) => {
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
      const narrow = theme === "dark";
      await page.setViewportSize(narrow ? { width: 800, height: 900 } : { width: 1280, height: 720 });
      const check = async (where: string) => {
        assert.equal(
          await page.evaluate(() => document.documentElement.dataset.theme),
          narrow ? "deck-dark" : "deck",
          `${where} in the ${theme} theme`,
        );
        await assertAccessible(page, `${where}, ${theme}`);
        if (narrow) await assertNarrowLayout(page, `${where}, ${theme}, 800 px`);
      };
      await t.step(
        `${theme}: every page`,
        () =>
          everyOne([...OPERATOR_PAGES, `${T}/pods/${pod}`], async (path) => {
            await page.goto(path);
            await waitForIslands(page);
            await check(path);
          }),
      );
      await t.step(`${theme}: the main dialogs`, async () => {
        await everyOne(DIALOGS, async ([path, button, name]) => {
          await page.goto(path);
          await waitForIslands(page);
          await page.getByRole("button", { name: button, exact: true }).first().click();
          await page.getByRole("dialog", { name }).waitFor();
          await assertAccessible(page, `${name} dialog, ${theme}`);
        });
        await page.goto(`${T}/summary`);
        const opener = page.getByRole("button", { name: "Edit YAML" });
        await opener.focus();
        await page.keyboard.press("Enter");
        await page.getByRole("dialog", { name: "Edit YAML" }).waitFor();
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });
        assert.equal(
          await page.evaluate(() => document.activeElement?.textContent),
          "Edit YAML",
          "focus returns to the opener",
        );
        await page.goto("/storage/drives");
        await page.getByLabel("Select node-1:/dev/sdb").check();
        await page.getByRole("button", { name: "Format Selected Drives" }).click();
        await page.getByRole("dialog", { name: "Format Drives" }).waitFor();
        await assertAccessible(page, `Format Drives dialog, ${theme}`);
      });
      await t.step(`${theme}: every step of the wizard in advanced mode`, async () => {
        await page.goto("/tenants/add");
        await page.getByLabel("Advanced Mode").check();
        await page.getByLabel("Name", { exact: true }).fill("checked-tenant");
        // A namespace that does not exist: the quota lookup fails and the wizard offers to create it.
        browser.expectConsoleError(/status of 404/);
        await page.getByLabel("Namespace").fill(`fresh-${theme}`);
        await page.getByRole("button", { name: "Create namespace" }).click();
        const create = page.getByRole("dialog", { name: "Create namespace" });
        await create.waitFor();
        await assertAccessible(page, `Create namespace dialog, ${theme}`);
        await create.getByRole("button", { name: "Create" }).click();
        await page.waitForFunction(() =>
          (document.querySelector<HTMLSelectElement>('select[aria-label="Storage Class"]')?.value ?? "") !==
            ""
        );
        const steps = await page.getByRole("list", { name: "Steps" }).getByRole("listitem").allInnerTexts();
        assert.equal(steps.length, 8);
        await everyOne(steps, async (title) => {
          const current = page.getByRole("list", { name: "Steps" }).locator('[aria-current="step"]');
          assert.equal((await current.innerText()).trim(), title.trim());
          await check(`wizard step ${title.trim()}`);
          const next = page.getByRole("button", { name: "Next" });
          if (await next.count()) await nextStep(page, next);
        });
      });
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});

/** Moves the wizard on and waits until the step after has replaced the current one. */
async function nextStep(page: Page, next: ReturnType<Page["getByRole"]>): Promise<void> {
  const current = page.getByRole("list", { name: "Steps" }).locator('[aria-current="step"]');
  const before = await current.innerText();
  await next.click();
  await page.waitForFunction(
    (before) =>
      document.querySelector('ul[aria-label="Steps"] [aria-current="step"]')?.textContent !== before,
    before,
  );
}
