/**
 * Accessibility, keyboard use and narrow layout (issue 18): axe-core finds no serious or critical violation on
 * any page or its main dialogs and slide-in forms, in the light theme at 1280 px and the dark theme at 800 px;
 * at 800 px no word breaks mid-word, the page never scrolls sideways, an in-page menu's current item stands
 * out and a filter that matches nothing says so (tests/browser/layout.ts); the sidebar shows keyboard focus
 * and the current page; Enter submits a dialog and focus returns to what opened it. The command palette and
 * the shortcuts help are checked open, as are the policy page's builder and Access Check tabs.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startStack } from "../helpers.ts";
import { assertAccessible, everyOne } from "./a11y.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";
import { CONSOLE_PAGES, SAMPLE_OBJECT, seedConsolePages } from "./every_page.ts";
import { assertNarrowLayout } from "./layout.ts";

const OBJECT = SAMPLE_OBJECT;

/** Dialogs opened from a page by a button, checked open. */
const DIALOGS: [page: string, button: string, dialog: string][] = [
  ["/users", "Create User", "Create User"],
  ["/groups", "Create Group", "Create Group"],
  ["/policies", "Create Policy", "Create Policy"],
  ["/account", "Create service account", "Create Service Account"],
  ["/buckets", "Create Bucket", "Create Bucket"],
  ["/buckets/photos/events", "Subscribe to Event", "Subscribe To Event"],
  ["/buckets/photos/replication", "Add Replication Rule", "Set Bucket Replication"],
  ["/buckets/photos/lifecycle", "Add Lifecycle Rule", "Add Lifecycle Rule"],
  ["/buckets/photos/prefix", "Add Access Rule", "Add Access Rule"],
  ["/object-browser/photos", "Create new path", "Choose or create a new path"],
  ["/object-browser/photos", "Rewind", "Rewind"],
  ["/object-browser/photos", "Shared Links", "Shared Links"],
  [`/object-browser/photos/${OBJECT}`, "Share", "Share File"],
  [`/object-browser/photos/${OBJECT}`, "Delete Object", "Delete Object"],
  [`/object-browser/photos/${OBJECT}`, "+ Add tag", "Add New Tag"],
  [`/object-browser/photos/${OBJECT}`, "Edit Legal Hold", "Set Legal Hold"],
  [`/object-browser/photos/${OBJECT}`, "Edit Retention", "Set Retention Policy"],
];

/** Overlays opened from the keyboard on any signed-in page, checked open. */
const KEYED: [page: string, keys: string, dialog: string][] = [
  ["/buckets", "Control+k", "Command palette"],
  ["/users", "?", "Keyboard shortcuts"],
];

/** Side tabs a page does not show first (the policy builder beside its JSON, the policy's Access Check). */
const TABS: [page: string, tab: string][] = [
  ["/policies/readwrite", "JSON"],
  ["/policies/readwrite", "Access Check"],
];

/** Forms that slide in over a page (Settings), checked open: each has a button back. */
const SLIDES: [page: string, button: string][] = [
  ["/settings", "edit region"],
  ["/settings?section=notifications", "Add Notification Target"],
  ["/settings?section=tiers", "Add Tier"],
  ["/webhook/logger", "Add Webhook Configuration"],
];

/** Sets the theme for the whole console: the cookie is set on the origin, so its path is "/" (set from a deep
 * page's address it would only reach the pages below that page's folder). */
async function setTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.context().addCookies([{ name: "theme", value: theme, url: new URL(page.url()).origin }]);
}

Deno.test("browser: every page and its main dialogs pass axe-core in both themes; keyboard use works", async (t) => {
  // Erasure-coded as far as the console knows, so Heal and Tiers show; with the audit log search.
  const stack = await startStack({ reportedBackend: "erasure", logSearch: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await seedConsolePages(stack);

    await page.goto("/login");
    for (const theme of ["light", "dark"] as const) {
      await t.step(`${theme}: sign-in page`, async () => {
        await setTheme(page, theme);
        await page.goto("/login");
        await assertAccessible(page, `login, ${theme}`);
      });
    }
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    for (const theme of ["light", "dark"] as const) {
      await setTheme(page, theme);
      // The dark pass runs in an 800 px window, where the layout rules are checked too.
      const narrow = theme === "dark";
      await page.setViewportSize(narrow ? { width: 800, height: 900 } : { width: 1280, height: 720 });
      await t.step(`${theme}: every page`, async () => {
        await everyOne(CONSOLE_PAGES, async (path) => {
          await page.goto(path);
          await waitForIslands(page);
          assert.equal(
            await page.evaluate(() => document.documentElement.dataset.theme),
            narrow ? "deck-dark" : "deck",
            `${path} in the ${theme} theme`,
          );
          await assertAccessible(page, `${path}, ${theme}`);
          if (narrow) await assertNarrowLayout(page, `${path}, ${theme}, 800 px`);
        });
      });
      await t.step(`${theme}: the main dialogs and slide-in forms`, async () => {
        await everyOne(DIALOGS, async ([path, button, name]) => {
          await page.goto(path);
          await waitForIslands(page);
          await page.getByRole("button", { name: button, exact: true }).click();
          await page.getByRole("dialog", { name }).waitFor();
          await assertAccessible(page, `${name} dialog, ${theme}`);
        });
        await everyOne(KEYED, async ([path, keys, name]) => {
          await page.goto(path);
          await page.keyboard.press(keys);
          await page.getByRole("dialog", { name }).waitFor();
          await assertAccessible(page, `${name} (${keys}) on ${path}, ${theme}`);
        });
        await everyOne(TABS, async ([path, tab]) => {
          await page.goto(path);
          await page.getByRole("tab", { name: tab }).click();
          await assertAccessible(page, `${tab} tab of ${path}, ${theme}`);
          if (narrow) await assertNarrowLayout(page, `${tab} tab of ${path}, ${theme}, 800 px`);
        });
        await everyOne(SLIDES, async ([path, button]) => {
          await page.goto(path);
          await waitForIslands(page);
          await page.getByRole("button", { name: button, exact: true }).click();
          await page.getByRole("button", { name: /^Back To / }).waitFor();
          await assertAccessible(page, `${button} on ${path}, ${theme}`);
          if (narrow) await assertNarrowLayout(page, `${button} on ${path}, ${theme}, 800 px`);
        });
      });
    }
    await page.setViewportSize({ width: 1280, height: 720 });

    await t.step("the sidebar shows keyboard focus and the current page", async () => {
      await page.goto("/users");
      const current = page.getByRole("navigation", { name: "Main menu" }).getByRole("link", {
        name: "Users",
      });
      assert.equal(await current.getAttribute("aria-current"), "page");
      const shade = (name: string) =>
        page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name }).evaluate((el) =>
          getComputedStyle(el).backgroundColor
        );
      assert.notEqual(await shade("Users"), await shade("Groups"), "the current page stands out");
      await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Groups" }).focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return {
          text: document.activeElement!.textContent,
          outline: style.outlineStyle,
          width: style.outlineWidth,
        };
      });
      assert.equal(ring.text, "Groups");
      assert.equal(ring.outline, "solid", "a visible focus ring");
      assert.notEqual(ring.width, "0px");
    });

    await t.step("Enter submits a dialog; focus returns to the button that opened it", async () => {
      await page.goto("/groups");
      await waitForIslands(page);
      const opener = page.getByRole("button", { name: "Create Group" });
      await opener.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Create Group" });
      await dialog.getByLabel("Group Name").fill("keyboard-made");
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await page.locator('tr[data-row="keyboard-made"]').waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Create Group");
      await page.getByRole("button", { name: "description keyboard-made" }).click();
      await page.getByRole("dialog", { name: "Group: keyboard-made" }).waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
        "description keyboard-made",
      );
    });

    await t.step(
      "the shared dialog serves the object browser too: Enter saves a tag, focus returns to its button",
      async () => {
        await page.goto(`/object-browser/photos/${OBJECT}`);
        await waitForIslands(page);
        const opener = page.getByRole("button", { name: "+ Add tag" });
        await opener.focus();
        await page.keyboard.press("Enter");
        const dialog = page.getByRole("dialog", { name: "Add New Tag" });
        await dialog.getByLabel("Tag Key").fill("team");
        await dialog.getByLabel("Tag Label").fill("finance");
        await page.keyboard.press("Enter");
        await dialog.waitFor({ state: "detached" });
        await page.getByTestId("tags").getByText("team : finance").waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), "+ Add tag");
      },
    );

    await t.step("the sign-in fields have labels", async () => {
      const login = await page.context().newPage();
      await page.context().clearCookies();
      await login.goto("/login");
      await login.getByLabel("Username").fill("someone");
      await login.getByLabel("Password").fill("something");
      await login.close();
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});
