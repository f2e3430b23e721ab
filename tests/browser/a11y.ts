/**
 * Accessibility checks for browser tests: runs axe-core (pinned in deno.json, read from node_modules, never
 * fetched) on the page as it is and fails on any serious or critical violation, listing each with the
 * elements it found. Every screen's test calls it once per state worth checking (page, open dialog, theme).
 *
 *   await assertAccessible(page, "users list, dark");
 */
import type { Page } from "playwright-core";

const AXE_SOURCE = await Deno.readTextFile(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url),
);

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The serious and critical axe-core violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated rather than added as a <script>: the console's Content-Security-Policy (script-src 'self') rightly
  // blocks inline scripts, and a test must not loosen it. Evaluation through the debugging protocol is not page
  // script, so the policy stays as users get it.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE_SOURCE);
  // Colours are measured as shown: let short running transitions (a dialog fading in) finish first. Long or
  // endless ones (spinners, the banner's 10 s timer, paused ones) are left alone.
  await page.evaluate(() =>
    Promise.all(
      document.getAnimations()
        .filter((a) => a.playState === "running" && Number(a.effect?.getComputedTiming().endTime) <= 1_000)
        .map((a) => a.finished.catch(() => {})),
    )
  );
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    type Found = { id: string; impact: string; help: string; nodes: { target: string[] }[] };
    return (result.violations as Found[]).map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  }) as Violation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * Fails when axe-core finds a serious or critical violation; `where` names the screen in the message. axe-core
 * runs on the page's timers, so call it while Playwright's clock runs (not while paused).
 */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  const found = await seriousViolations(page);
  if (found.length === 0) return;
  const lines = found.map((v) =>
    `  ${v.impact} ${v.id}: ${v.help}\n    ${v.targets.slice(0, 5).join("\n    ")}`
  );
  throw new Error(`accessibility problems on ${where} (${page.url()}):\n${lines.join("\n")}`);
}

/** Runs the check on every item and reports all failures together, so one run shows everything to fix. */
export async function everyOne<T>(items: T[], check: (item: T) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  for (const item of items) {
    try {
      await check(item);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (failures.length) throw new Error(failures.join("\n"));
}
