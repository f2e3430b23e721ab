/**
 * The dashboard and the trace page in German and in Simplified Chinese (the `lang` cookie): the page's
 * headings, tabs, panel titles and buttons are in that language as the server renders them, and stay so once
 * the islands take over (a text that differs between server and browser would be a hydration error, which
 * fails the test), including texts the islands make only in the browser (a panel's value, a started trace).
 */
import assert from "node:assert/strict";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const LANGUAGES = [
  {
    lang: "de",
    dashboard: "Übersicht",
    tabs: ["Zusammenfassung", "Datenverkehr", "Ressourcen"],
    buckets: "Anzahl der Buckets",
    sync: "Aktualisieren",
    serversStatus: "Status der Server",
    widgetView: "Widget-Ansicht",
    trace: "Ablaufverfolgung",
    internal: "Intern",
    onlyErrors: "Nur Fehler anzeigen",
    start: "Starten",
    stop: "Stoppen",
    idle: "Die Ablaufverfolgung wurde noch nicht gestartet",
    running: "Noch keine Aufrufe empfangen",
  },
  {
    lang: "zh-Hans",
    dashboard: "仪表板",
    tabs: ["概览", "流量", "资源"],
    buckets: "存储桶数量",
    sync: "同步",
    serversStatus: "服务器状态",
    widgetView: "组件视图",
    trace: "跟踪",
    internal: "内部",
    onlyErrors: "仅显示错误",
    start: "开始",
    stop: "停止",
    idle: "跟踪尚未开始",
    running: "尚未收到跟踪记录",
  },
];

Deno.test("browser: the dashboard and the trace page in German and Chinese", async (t) => {
  const stack = await startStack({ metricsIntervalMs: 1000 });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "sprachen");
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    for (const text of LANGUAGES) {
      await page.context().addCookies([{ name: "lang", value: text.lang, url: stack.consoleUrl }]);

      await t.step(`${text.lang}: the widget dashboard`, async () => {
        await page.goto("/dashboard");
        await page.getByRole("heading", { name: text.dashboard, exact: true }).waitFor();
        for (const name of text.tabs) await page.getByRole("tab", { name }).waitFor();
        await page.getByRole("button", { name: text.sync }).waitFor();
        const buckets = '[data-testid="widget-panel"][data-widget="66"]';
        assert.equal(await page.locator(`${buckets} h3`).textContent(), text.buckets);
        await page.locator(`${buckets}[data-status="ready"]`).waitFor();
        assert.equal(await page.locator(`${buckets} [data-testid="panel-value"]`).innerText(), "1");
        const shown = await page.locator("main").innerText();
        for (const english of ["Number of Buckets", "Summary", "Sync", "Uptime"]) {
          assert.ok(!shown.includes(english), `"${english}" is not left in English`);
        }
      });

      await t.step(`${text.lang}: the basic dashboard`, async () => {
        await page.goto("/dashboard?view=basic");
        await page.getByRole("heading", { name: text.serversStatus }).waitFor();
        await page.getByRole("link", { name: text.widgetView }).waitFor();
        assert.ok(!(await page.locator("main").innerText()).includes("Drives Status"));
      });

      await t.step(`${text.lang}: the trace page, before and after it starts`, async () => {
        await page.goto("/trace");
        await page.getByRole("heading", { name: text.trace, exact: true }).waitFor();
        await page.getByRole("checkbox", { name: text.internal }).waitFor();
        await page.getByRole("checkbox", { name: text.onlyErrors }).waitFor();
        await page.getByText(text.idle).waitFor();
        await page.getByRole("button", { name: text.start, exact: true }).click();
        await page.getByText(text.running).waitFor();
        await page.getByRole("button", { name: text.stop, exact: true }).click();
      });
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});
