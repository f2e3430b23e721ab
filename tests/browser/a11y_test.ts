/**
 * Accessibility, keyboard use and narrow layout (issue 18): axe-core finds no serious or critical violation on
 * any page or its main dialogs and slide-in forms, in the light theme at 1280 px and the dark theme at 800 px;
 * at 800 px no word breaks mid-word, the page never scrolls sideways, an in-page menu's current item stands
 * out and a filter that matches nothing says so (tests/browser/layout.ts); the sidebar shows keyboard focus
 * and the current page; Enter submits a dialog and focus returns to what opened it.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { addUser, setPolicy, updateGroupMembers } from "../../server/lib/s3/admin/iam.ts";
import { makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { assertAccessible, everyOne } from "./a11y.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";
import { assertNarrowLayout } from "./layout.ts";

/** An object whose name wraps only at its hyphens at 800 px. */
const OBJECT = "reports/quarterly-finance-summary-2026-final-version.txt";

/** Every page of the console; a new screen adds its own here. */
const PAGES = [
  "/dashboard",
  "/metrics",
  "/license",
  "/account",
  "/users",
  "/users/alice",
  "/groups",
  "/policies",
  "/policies/readwrite",
  "/buckets",
  "/buckets/photos/summary",
  "/buckets/photos/events",
  "/buckets/photos/replication",
  "/buckets/photos/lifecycle",
  "/buckets/photos/access",
  "/buckets/photos/prefix",
  "/object-browser",
  "/object-browser/photos",
  "/object-browser/photos/reports/",
  `/object-browser/photos/${OBJECT}`,
  "/settings",
  "/settings?section=notifications",
  "/settings?section=tiers",
  "/webhook/logger",
  "/webhook/audit",
  "/trace",
  "/logs",
  "/logs?tab=audit",
  "/watch",
  "/heal",
  "/health-info",
];

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
    await makeBucket(stack.admin, "photos");
    await putBucketVersioning(stack.admin, "photos", { status: "Enabled" });
    await putObject(stack.admin, "photos", OBJECT, "numbers", { contentType: "text/plain" });
    await addUser(stack.admin, "alice", "alice-secret-1");
    await updateGroupMembers(stack.admin, { group: "devs", members: ["alice"], isRemove: false });
    await setPolicy(stack.admin, ["readwrite"], "alice", false);

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
        await everyOne(PAGES, async (path) => {
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
