/**
 * The widget dashboard in real Chromium against a real server with zero setup: charts with data right after
 * start-up and traffic, dragging a panel and keeping its place over a reload, Sync with a chosen range (and a
 * range refused), a corrupt saved layout discarded, /metrics without the sidebar, dark mode, the basic
 * view's trends, and a Prometheus that cannot be reached.
 */
import assert from "node:assert/strict";
import type { LayoutItem } from "../../server/lib/contract/dashboard.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { putObject } from "../../server/lib/s3/ops/objects.ts";
import { startStack } from "../helpers.ts";
import { freePort } from "../storage_process.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const panel = (id: number) => `[data-testid="widget-panel"][data-widget="${id}"]`;

Deno.test("browser: widget dashboard with zero setup", async (t) => {
  const stack = await startStack({ metricsIntervalMs: 1000 });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "charts");
    for (let i = 0; i < 3; i++) await putObject(stack.admin, "charts", `o${i}`, new Uint8Array(3000));

    await t.step("right after start-up the Summary panels show numbers and charts", async () => {
      await page.setViewportSize({ width: 1400, height: 1000 });
      await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
      assert.equal(new URL(page.url()).pathname, "/dashboard");
      assert.match(await page.getByTestId("metrics-source").innerText(), /Deck's on-box history/);
      for (const name of ["Summary", "Traffic", "Resources"]) await page.getByRole("tab", { name }).waitFor();
      await page.locator(`${panel(66)}[data-status="ready"]`).waitFor();
      assert.equal(await page.locator(`${panel(66)} [data-testid="panel-value"]`).innerText(), "1");
      assert.equal(await page.locator(`${panel(44)} [data-testid="panel-value"]`).innerText(), "3");
      await page.locator(`${panel(52)} [data-testid="bar-chart"] svg`).waitFor();
      await page.locator(`${panel(68)} [data-testid="line-chart"] svg .dataset-0`).waitFor({
        timeout: 30_000,
      });
      assert.equal(
        await page.locator(panel(60)).count(),
        0,
        "Traffic panels load only when their tab is shown",
      );
    });

    await t.step("chart axes carry their unit at the scale of the values", async () => {
      const labels = (id: number) =>
        page.locator(`${panel(id)} .y.axis text`).evaluateAll((texts) =>
          texts.map((t) => t.textContent ?? "")
        );
      // 9,000 bytes of objects: kibibytes, never frappe's bare "9K".
      const usage = await labels(68);
      assert.ok(usage.length > 1 && usage.every((l) => /^\d+(\.\d+)? KiB$/.test(l)), usage.join(" | "));
      await page.getByRole("tab", { name: "Resources" }).click();
      await page.locator(`${panel(76)} [data-testid="line-chart"] svg .dataset-0`).waitFor({
        timeout: 30_000,
      });
      const memory = await labels(76);
      assert.ok(
        memory.length > 1 && memory.every((l) => /^\d+(\.\d+)? (MiB|GiB)$/.test(l)),
        memory.join(" | "),
      );
      await page.getByRole("tab", { name: "Summary" }).click();
    });

    await t.step("traffic shows up on the Traffic tab's request rate, one line per API", async () => {
      for (let i = 3; i < 8; i++) await putObject(stack.admin, "charts", `o${i}`, new Uint8Array(100));
      await page.getByRole("tab", { name: "Traffic" }).click();
      await page.locator(`${panel(60)} [data-testid="line-chart"] svg`).waitFor();
      await page.locator(`${panel(60)}`).getByText("putobject").first().waitFor();
      await page.getByRole("tab", { name: "Summary" }).click();
      await page.locator(`${panel(66)}[data-status="ready"]`).waitFor();
    });

    await t.step("dragging a panel moves it; the layout is saved and survives a reload", async () => {
      const handle = page.locator(`${panel(68)} h3`);
      await handle.scrollIntoViewIfNeeded();
      const before = await page.locator('[data-panel="panel-15"]').boundingBox();
      const box = (await handle.boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + 5);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 20 + i * 50, box.y + 5 - i * 30);
      await page.mouse.up();
      const saved = await page.evaluate(() => JSON.parse(atob(localStorage.getItem("dashboardConfig")!)));
      const moved = (saved as LayoutItem[]).find((i) => i.i === "panel-15")!;
      assert.equal(saved.length, 28, "the whole layout is saved");
      assert.equal(moved.moved, true);
      assert.ok(moved.y < 10, `dragged up from row 10, now at ${moved.y}`);
      await page.reload();
      await page.locator(`${panel(68)}[data-status="ready"]`).waitFor();
      const after = (await page.locator('[data-panel="panel-15"]').boundingBox())!;
      assert.ok(after.y < before!.y - 50, "after the reload the panel is still higher up");
      assert.equal(
        await page.locator('[data-panel="panel-15"]').evaluate((el) =>
          (el as HTMLElement).style.getPropertyValue("--y")
        ),
        String(moved.y),
      );
    });

    await t.step("the keyboard moves a panel too", async () => {
      await page.locator(`${panel(1)} h3`).focus();
      const x = () =>
        page.locator('[data-panel="panel-0"]').evaluate((el) =>
          (el as HTMLElement).style.getPropertyValue("--x")
        );
      const start = Number(await x());
      await page.keyboard.press("ArrowRight");
      assert.equal(Number(await x()), start + 1);
    });

    await t.step("a corrupt saved layout is discarded for the default one", async () => {
      await page.evaluate(() => localStorage.setItem("dashboardConfig", "not base64 json"));
      await page.reload();
      await page.locator(`${panel(68)}[data-status="ready"]`).waitFor();
      assert.equal(
        await page.locator('[data-panel="panel-15"]').evaluate((el) =>
          (el as HTMLElement).style.getPropertyValue("--y")
        ),
        "10",
      );
      assert.equal(await page.evaluate(() => localStorage.getItem("dashboardConfig")), null);
    });

    await t.step(
      "Sync loads the panels again for the chosen range, with the step rule; a reversed range is refused",
      async () => {
        const pad = (n: number) => String(n).padStart(2, "0");
        const local = (d: Date) =>
          `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${
            pad(d.getMinutes())
          }`;
        const end = new Date(Date.now() + 60_000);
        const start = new Date(end.getTime() - 2 * 3600_000);
        await page.getByLabel("Start Time").fill(local(end));
        await page.getByLabel("End Time").fill(local(start));
        assert.match(
          await page.getByTestId("range-note").innerText(),
          /end time must be after the start time/,
        );
        assert.equal(await page.getByRole("button", { name: "Sync" }).isDisabled(), true);
        await page.getByLabel("Start Time").fill(local(start));
        await page.getByLabel("End Time").fill(local(end));
        const request = page.waitForRequest((r) =>
          r.url().includes("/admin/info/widgets/66/") && r.url().includes("start=")
        );
        await page.getByRole("button", { name: "Sync" }).click();
        const url = new URL((await request).url());
        assert.equal(url.searchParams.get("step"), "120", "two hours: a step of 120");
        assert.equal(Number(url.searchParams.get("end")) - Number(url.searchParams.get("start")), 7200);
        await page.locator(`${panel(66)}[data-status="ready"]`).waitFor();
        assert.equal(await page.locator(`${panel(66)} [data-testid="panel-value"]`).innerText(), "1");
      },
    );

    await t.step("/metrics shows the widgets full width, without the sidebar", async () => {
      await page.goto("/metrics");
      await page.locator(`${panel(66)}[data-status="ready"]`).waitFor();
      assert.equal(await page.locator(".deck-sidebar").count(), 0);
    });

    await t.step("dark mode: axis labels are drawn light on the dark background", async () => {
      await page.context().addCookies([{ name: "theme", value: "dark", url: stack.consoleUrl }]);
      await page.goto("/dashboard");
      const label = page.locator(`${panel(68)} .y.axis text`).first();
      await label.waitFor();
      const fill = await label.evaluate((el) => getComputedStyle(el).fill);
      // color-mix() resolves to oklab(L a b / alpha) (L from 0 to 1); older engines give rgb().
      const [first, ...rest] = fill.match(/[\d.]+/g)!.map(Number);
      const lightness = fill.startsWith("oklab")
        ? first
        : (0.2126 * first + 0.7152 * rest[0] + 0.0722 * rest[1]) / 255;
      assert.ok(lightness > 0.6, `axis text ${fill} is light`);
    });

    await t.step("the basic view adds request, traffic and usage trends, without script", async () => {
      await page.goto("/dashboard?view=basic");
      await page.getByTestId("requests-trend").locator("svg polyline").waitFor();
      assert.ok(await page.getByTestId("traffic-trend").isVisible());
      assert.ok(await page.getByTestId("usage-trend").isVisible());
      assert.equal(await page.locator("script[src]").count(), 0);
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: an unreachable Prometheus leaves each panel with the spec's message", async () => {
  const stack = await startStack({ env: { CONSOLE_PROMETHEUS_URL: `http://127.0.0.1:${await freePort()}` } });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    // Chromium logs each refused widget call (502) as a console error: 18 panels on the Summary tab.
    for (let i = 0; i < 18; i++) browser.expectConsoleError(/status of 502/);
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    assert.match(await page.getByTestId("metrics-source").innerText(), /Prometheus at http:\/\/127\.0\.0\.1/);
    await page.locator('[data-testid="widget-panel"][data-status="error"]').nth(17).waitFor();
    assert.equal(await page.getByTestId("panel-error").count(), 18);
    assert.equal(
      await page.getByTestId("panel-error").first().innerText(),
      "Widget information could not be retrieved at this time. Please try again",
    );
  } finally {
    await browser.close();
    await stack.close();
  }
});
