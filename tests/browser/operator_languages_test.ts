/**
 * Operator mode in German and Simplified Chinese (issue 29), in Chromium through the stand-in cluster: with the
 * `lang` cookie set, the tenants list and a tenant's Summary tab show their headings, buttons, column headers
 * and labels in that language, hydrate without a mismatch (a console error fails the test), and the note a
 * namespace-bound token is shown is written in it too; a pod's page shows no English.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startOperatorStack } from "../operator_helpers.ts";
import { openBrowser } from "./browser.ts";
import { assertInLanguage, type OtherLocale } from "./languages.ts";

const T = "/namespaces/tenant-lite/tenants/storage-lite";

async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.goto("/login");
  const jwt = page.getByLabel("JWT");
  await jwt.fill(token);
  // The sign-in form's own button (the language switch below the card is a form of buttons too).
  await page.locator("form", { has: jwt }).locator('button[type="submit"]').click();
  await page.waitForURL("**/tenants");
}

const TEXTS = {
  de: {
    tenants: "Mandanten",
    create: "Mandant erstellen",
    search: "Mandanten durchsuchen",
    capacity: "Kapazität",
    pools: "Anzahl Pools",
    summary: "Zusammenfassung",
    instances: "Instanzen",
    health: "Integrität",
    manage: "Mandanten verwalten",
    features: "Funktionen",
    header: /^Namespace: tenant-lite · Kapazität: 8 GiB$/,
    limited:
      /^Ihr Token darf Mandanten nicht in allen Namespaces auflisten, daher werden nur die im Namespace tenant-lite angezeigt\./,
  },
  "zh-Hans": {
    tenants: "租户",
    create: "创建租户",
    search: "搜索租户",
    capacity: "容量",
    pools: "池数量",
    summary: "概要",
    instances: "实例",
    health: "健康状况",
    manage: "管理租户",
    features: "功能",
    header: /^命名空间：tenant-lite · 容量：8 GiB$/,
    limited: /^您的令牌无法列出所有命名空间中的租户，因此仅显示命名空间 tenant-lite 中的租户。/,
  },
} as const;

Deno.test("browser: operator mode's tenants list and a tenant's summary in German and Chinese", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true });
  try {
    for (const [lang, text] of Object.entries(TEXTS)) {
      await t.step(`${lang}: the tenants list and the Summary tab`, async () => {
        const browser = await openBrowser(stack);
        const { page } = browser;
        try {
          await browser.context.addCookies([{ name: "lang", value: lang, url: stack.consoleUrl }]);
          await signInWithToken(page, stack.cluster.operatorToken);
          await page.getByRole("heading", { name: text.tenants, exact: true }).waitFor();
          assert.match(await page.title(), new RegExp(`^${text.tenants} \\|`));
          await page.getByRole("link", { name: text.create }).waitFor();
          await page.getByPlaceholder(text.search).waitFor();
          const headers = (await page.getByTestId("table-tenants").locator("thead th").allInnerTexts())
            .map((h) => h.toLowerCase());
          for (const header of [text.capacity, text.pools]) {
            assert.ok(headers.some((h) => h.includes(header.toLowerCase())), `${header} in ${headers}`);
          }
          await page.locator('tr[data-row="tenant-lite/storage-lite"]').waitFor();

          await page.goto(`${T}/summary`);
          await page.getByRole("heading", { name: "storage-lite" }).waitFor();
          assert.match(await page.getByTestId("tenant-header").innerText(), text.header);
          await page.getByRole("link", { name: text.summary, exact: true }).waitFor();
          const details = await page.getByTestId("tenant-details").innerText();
          assert.match(details, new RegExp(text.capacity, "i"));
          assert.match(details, new RegExp(text.instances, "i"));
          // The health dot names itself too: "Integrität: grün Integrität".
          await page.getByRole("heading", { name: new RegExp(` ${text.health}$`) }).waitFor();
          await page.getByRole("heading", { name: text.features }).waitFor();
          await page.getByRole("link", { name: text.manage }).waitFor();

          // A pod's page (outside the every-page sweep, its name known only once the stand-in runs).
          await stack.cluster.operator.settled();
          const pod = await page.evaluate(async (tenant) => {
            const res = await fetch(`/api/v1${tenant}/pods`);
            return ((await res.json()) as { name: string }[])[0]?.name ?? "";
          }, T);
          assert.ok(pod, "the seeded tenant has a pod");
          await page.goto(`${T}/pods/${pod}`);
          await assertInLanguage(page, lang as OtherLocale, "a pod's page");
        } finally {
          await browser.close();
        }
      });

      await t.step(
        `${lang}: a namespace-bound token is told in words why it sees one namespace`,
        async () => {
          const browser = await openBrowser(stack);
          const { page } = browser;
          try {
            await browser.context.addCookies([{ name: "lang", value: lang, url: stack.consoleUrl }]);
            await signInWithToken(page, stack.cluster.viewerToken);
            assert.match(await page.getByTestId("tenants-limited").innerText(), text.limited);
          } finally {
            await browser.close();
          }
        },
      );
    }
  } finally {
    await stack.close();
  }
});
