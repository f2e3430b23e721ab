/**
 * The Create Tenant wizard in German and Simplified Chinese (issue 29): with the `lang` cookie set, its first
 * step, its own validation messages and a message the server words for it (the cluster's nodes on the size
 * step) are shown in that language, with no hydration mismatch between the server's and the browser's texts.
 */
import type { Page } from "playwright-core";
import { startOperatorStack } from "../operator_helpers.ts";
import { openBrowser } from "./browser.ts";

/** Waits until the namespace check has filled the storage classes (the list is named in the page's language). */
const storageClassChosen = (page: Page, label: string) =>
  page.waitForFunction(
    (name) => (document.querySelector<HTMLSelectElement>(`select[aria-label="${name}"]`)?.value ?? "") !== "",
    label,
  );
/** The wizard's Next button, whatever its language. */
const next = (page: Page) => page.locator('.modal-action button[type="submit"]');

Deno.test("browser: the tenant wizard speaks German and Chinese", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true });
  const browser = await openBrowser(stack);
  const { page, context } = browser;
  const speak = (lang: string) => context.addCookies([{ name: "lang", value: lang, url: stack.consoleUrl }]);
  try {
    await page.goto("/login");
    await page.getByLabel("JWT").fill(stack.cluster.operatorToken);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/tenants");

    await t.step("German: first step, its checks, and the server's answer on the size step", async () => {
      await speak("de");
      await page.goto("/tenants/add");
      await page.getByRole("heading", { name: "Mandant benennen" }).waitFor();
      await page.getByText("Wie soll der neue Mandant heißen?").waitFor();
      await page.getByLabel("Erweiterter Modus").waitFor();
      await page.getByLabel("Name", { exact: true }).fill("Bad_Name");
      await page.getByText("Der Name darf nur Kleinbuchstaben, Ziffern und '-' enthalten").waitFor();
      await page.getByLabel("Namespace").fill("tenant-lite");
      await page.getByText("Pro Namespace kann nur ein Mandant erstellt werden").waitFor();

      await page.getByLabel("Name", { exact: true }).fill("wizard-de");
      await page.getByLabel("Namespace").fill("ns-a");
      await storageClassChosen(page, "Speicherklasse");
      await next(page).click();
      await page.getByRole("heading", { name: "Mandantengröße" }).waitFor();
      browser.expectConsoleError(/status of 507/);
      await page.getByLabel("Anzahl der Server").fill("9");
      await page.getByText("Der Cluster hat nicht genügend Knoten für diesen Mandanten").waitFor();
    });

    await t.step("Chinese: first step and its checks", async () => {
      await speak("zh-Hans");
      await page.goto("/tenants/add");
      await page.getByRole("heading", { name: "命名租户" }).waitFor();
      await page.getByText("您想为这个新租户取什么名称？").waitFor();
      await page.getByLabel("高级模式").waitFor();
      await page.getByLabel("名称", { exact: true }).fill("Bad_Name");
      await page.getByText("名称只能包含小写字母、数字和“-”，长度至少为 3 个字符").waitFor();
      await page.getByLabel("命名空间").fill("tenant-lite");
      await page.getByText("每个命名空间只能创建一个租户").waitFor();
    });
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
