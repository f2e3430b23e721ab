/**
 * Layout checks shared by the browser tests (issue 18): at 800 px no table cell, heading or detail value splits
 * a word that would fit on a line, the page itself never scrolls sideways (wide tables scroll in their own
 * box), the current item of a menu inside the page stands out from the menu, and every list filter that
 * matches nothing says so rather than "There are no … yet".
 */
import type { Page } from "playwright-core";

/** Words (runs between spaces, hyphens and slashes, where lines may break) that an element split over lines. */
export function wordsBrokenIn(page: Page, selector = "tbody td, h1, h2, dd"): Promise<string[]> {
  return page.evaluate((selector) => {
    const broken: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      if (!(element as HTMLElement).offsetParent) continue;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? "").matchAll(/[^\s\-/]+[-/]?/g)) {
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }, selector);
}

/** Whether the page itself scrolls sideways. */
export function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    document.scrollingElement!.scrollWidth > document.scrollingElement!.clientWidth + 1
  );
}

/** WCAG contrast ratio of two computed rgb() colours. */
export function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255).map((
      c,
    ) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

/** Background colours of each in-page menu's current item and of its menu. */
function currentMenuItems(page: Page): Promise<{ label: string; item: string; menu: string }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("main .menu [aria-current='page']")].map((el) => ({
      label: el.textContent ?? "",
      item: getComputedStyle(el).backgroundColor,
      menu: getComputedStyle(el.closest(".menu")!).backgroundColor,
    }))
  );
}

/** Search boxes that filter a list (not the log viewers' line highlighters). */
const FILTER_BOXES = "main input[type=search]:not([placeholder='Highlight Line'])";

/** Types what matches nothing into each list filter and reads what the list then says. */
async function filtersWithoutMatchMessage(page: Page): Promise<string[]> {
  const wrong: string[] = [];
  const boxes = page.locator(FILTER_BOXES);
  for (let i = 0; i < await boxes.count(); i++) {
    const box = boxes.nth(i);
    if (!(await box.isVisible())) continue;
    await box.fill("zzz-matches-nothing");
    // "No … match your filter." (or a spec's own neutral wording, as the tenant Pools tab's "No Pools found").
    const empty = page.getByTestId("empty-message").filter({ hasText: /match your filter|^No \w+ found$/ });
    try {
      await empty.first().waitFor({ timeout: 10_000 });
    } catch {
      const said = await page.getByTestId("empty-message").allInnerTexts();
      wrong.push(
        `filter "${await box.getAttribute("placeholder")}" with no match says ${JSON.stringify(said)}`,
      );
    }
    await box.fill("");
  }
  return wrong;
}

/**
 * Every layout rule above on the page as it is; throws listing each problem. Call it at 800 px (and in the dark
 * theme for the menu rule to matter); `where` names the screen in the message.
 */
export async function assertNarrowLayout(page: Page, where: string): Promise<void> {
  const problems: string[] = [];
  const broken = await wordsBrokenIn(page);
  if (broken.length) problems.push(`words broken mid-word: ${JSON.stringify(broken.slice(0, 5))}`);
  if (await pageScrollsSideways(page)) problems.push("the page scrolls sideways");
  for (const { label, item, menu } of await currentMenuItems(page)) {
    if (contrast(item, menu) < 3) {
      problems.push(`the current menu item "${label}" (${item}) hardly stands out from its menu (${menu})`);
    }
  }
  problems.push(...await filtersWithoutMatchMessage(page));
  if (problems.length) {
    throw new Error(`layout problems on ${where} (${page.url()}):\n  ${problems.join("\n  ")}`);
  }
}
