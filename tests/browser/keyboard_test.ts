/**
 * Keyboard-first use (issue 29) in Chromium, with the keyboard only once signed in: the command palette
 * (Ctrl+K) finds pages, buckets, users, groups and policies and runs the main actions; `?` shows the
 * shortcuts; `/` focuses the page's filter; `g` then a letter goes to a section; arrows, Enter, Space and
 * Delete work in tables; no shortcut takes a key typed in a field; a restricted account is offered only what
 * it may open; the palette loads on first use, not with the page.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page, Route } from "playwright-core";
import { addUser, updateGroupMembers } from "../../server/lib/s3/admin/iam.ts";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { assetBytes } from "../../build/bench/assets.ts";
import { createUser, startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";

const BUCKET = "photos-2026";
const GROUP = "équipe photo 📷";
const USERS = ["alice", "bob", "zoë-ünïcode"];

const path = (page: Page) => decodeURIComponent(new URL(page.url()).pathname);

/** Opens the palette with the keyboard, types, and waits for `label` among the results. */
async function palette(page: Page, typed: string, label: string | RegExp) {
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: /Command palette|Upload files to which bucket\?/ });
  await dialog.getByRole("combobox").waitFor();
  await page.keyboard.type(typed);
  await dialog.getByRole("option", { name: label }).first().waitFor();
  return dialog;
}

Deno.test("browser: keyboard-first use — palette, shortcuts, sections and tables", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, BUCKET);
    await putObject(stack.admin, BUCKET, "a.txt", "a");
    await putObject(stack.admin, BUCKET, "b.txt", "b");
    for (const user of USERS) await addUser(stack.admin, user, `${user}-secret-1`);
    await updateGroupMembers(stack.admin, { group: GROUP, members: ["alice"], isRemove: false });
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step(
      "the palette loads on first Ctrl+K, not with the page, and within the JS budget",
      async () => {
        await page.goto("/license");
        const before = new Set(browser.requests);
        const html = await (await page.request.get("/license")).text();
        const { js } = await assetBytes(stack.consoleUrl, html);
        assert.ok(
          js < 5 * 1024,
          `a page without islands loads only the small shortcuts script (${js} bytes)`,
        );
        // The palette's script is held on its way while the user goes on typing: nothing typed is lost.
        const held: Route[] = [];
        let holding = true;
        const firstHeld = new Promise<void>((resolve) =>
          page.route("**/*.js", (route) => holding ? (held.push(route), resolve()) : route.continue())
        );
        await page.keyboard.press("Control+k");
        await firstHeld;
        await page.keyboard.type("dashb");
        holding = false;
        for (const route of held) await route.continue();
        await page.unroute("**/*.js");
        const dialog = page.getByRole("dialog", { name: "Command palette" });
        await dialog.getByRole("option", { name: "Dashboard" }).waitFor();
        assert.equal(await dialog.getByRole("combobox").inputValue(), "dashb");
        const loaded = browser.requests.filter((url) => !before.has(url) && url.endsWith(".js"));
        assert.ok(loaded.length > 0, "the palette's script came with the key press");
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
        const policies = await (await page.request.get("/policies/readwrite")).text();
        const heaviest = (await assetBytes(stack.consoleUrl, policies)).js;
        assert.ok(
          heaviest <= 150 * 1024,
          `the policy page with the builder stays within 150 KB (${heaviest})`,
        );
      },
    );

    await t.step("`?` shows the shortcuts, with `g` letters for this session's sections", async () => {
      await page.goto("/dashboard");
      await page.keyboard.press("?");
      const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      const text = await help.innerText();
      assert.match(text, /Ctrl\s*\+\s*K\s*Open the command palette/);
      assert.match(text, /g\s*then\s*b\s*Buckets/);
      await page.keyboard.press("Escape");
      await help.waitFor({ state: "detached" });
    });

    await t.step("`g` then a letter goes to a section", async () => {
      await page.keyboard.press("g");
      await page.keyboard.press("u");
      await page.waitForURL("**/users");
      await waitForIslands(page);
    });

    await t.step("no shortcut takes a key typed in a field; `/` focuses the filter", async () => {
      await page.keyboard.press("/");
      await page.keyboard.type("g b ? /ü");
      const filter = page.getByPlaceholder("Search Users");
      assert.equal(await filter.inputValue(), "g b ? /ü");
      assert.equal(path(page), "/users");
      assert.equal(await page.getByRole("dialog").count(), 0);
      await page.keyboard.press("Control+a");
      await page.keyboard.type("zoë");
      await page.locator("tr[data-row]").first().waitFor();
      assert.deepEqual(
        await page.locator("tr[data-row]").evaluateAll((rows) => rows.map((r) => r.dataset.row)),
        [
          "zoë-ünïcode",
        ],
      );
    });

    await t.step("arrows move through a table's rows, Delete asks, Enter opens", async () => {
      await page.goto("/users");
      await page.keyboard.press("ArrowDown");
      const focused = () => page.evaluate(() => (document.activeElement as HTMLElement).dataset.row);
      assert.equal(await focused(), "alice");
      await page.keyboard.press("ArrowDown");
      assert.equal(await focused(), "bob");
      await page.keyboard.press("Delete");
      const confirm = page.getByRole("dialog", { name: "Delete User" });
      assert.match(await confirm.innerText(), /delete user bob\?/);
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "detached" });
      assert.equal(await focused(), "bob", "focus is back on the row");
      await page.keyboard.press("Enter");
      await page.waitForURL("**/users/bob");
    });

    await t.step("Space ticks rows; Delete then asks to delete the ticked ones", async () => {
      await page.goto(`/object-browser/${BUCKET}`);
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Space");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Space");
      await page.keyboard.press("Delete");
      const confirm = page.getByRole("dialog", { name: "Delete Objects" });
      await confirm.waitFor();
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "detached" });
    });

    await t.step(
      "the palette jumps to a bucket, a user, a policy and a group, names in any script",
      async () => {
        await palette(page, "phot", BUCKET);
        const options = await page.getByRole("option").allInnerTexts();
        assert.ok(options.some((o) => /photos-2026\s*Bucket/.test(o)), options.join(" | "));
        assert.ok(options.some((o) => /photos-2026\s*Object Browser/.test(o)));
        await page.keyboard.press("Enter");
        await page.waitForURL(`**/buckets/${BUCKET}/summary`);

        await palette(page, "ZOË", "zoë-ünïcode");
        await page.keyboard.press("Enter");
        await page.waitForURL((url) => decodeURIComponent(url.pathname) === "/users/zoë-ünïcode");

        await palette(page, "consoleadm", "consoleAdmin");
        await page.keyboard.press("Enter");
        await page.waitForURL("**/policies/consoleAdmin");

        await palette(page, "📷", GROUP);
        await page.keyboard.press("Enter");
        await page.waitForURL("**/groups");
        const edit = page.getByRole("dialog", { name: "Edit Group" });
        await edit.waitFor();
        assert.equal(await edit.getByLabel("Group Name").inputValue(), GROUP);
        await page.keyboard.press("Escape");
      },
    );

    await t.step("the palette runs the main actions, here or after going to their page", async () => {
      await page.goto("/dashboard");
      await palette(page, "create bucket", "Create bucket");
      await page.keyboard.press("Enter");
      await page.waitForURL("**/buckets");
      await page.getByRole("dialog", { name: "Create Bucket" }).waitFor();
      await page.keyboard.press("Escape");

      await page.goto("/users");
      await palette(page, "create user", "Create user");
      await page.keyboard.press("Enter");
      await page.getByRole("dialog", { name: "Create User" }).waitFor();
      assert.equal(path(page), "/users", "run where it is");
      await page.keyboard.press("Escape");

      await palette(page, "trace", "Open trace");
      await page.keyboard.press("Enter");
      await page.waitForURL("**/trace");
    });

    await t.step("upload: choose the bucket in the palette, then Enter opens the file chooser", async () => {
      await palette(page, "upload", "Upload files…");
      await page.keyboard.press("Enter");
      await page.getByRole("dialog", { name: "Upload files to which bucket?" }).waitFor();
      await page.keyboard.type("2026");
      await page.getByRole("option", { name: BUCKET }).waitFor();
      await page.keyboard.press("Enter");
      await page.waitForURL(`**/object-browser/${BUCKET}`);
      await waitForIslands(page);
      // Listening for the chooser before the focus wait: Playwright turns on its file chooser interception in
      // the background, and a key pressed at once could beat it.
      const chooser = page.waitForEvent("filechooser");
      await page.waitForFunction(() => document.activeElement?.textContent === "Upload Files");
      await page.keyboard.press("Enter");
      await (await chooser).setFiles({
        name: "día 1 #raw.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("x"),
      });
      await page.locator('tr[data-row="día 1 #raw.txt"]').waitFor();
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: the palette offers a restricted account only what it may open", async () => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "shared");
    await makeBucket(stack.admin, "secret");
    await addUser(stack.admin, "bob", "bob-secret-1");
    await createUser(stack, "reader", "reader-secret-1", [{
      name: "shared-only",
      document: {
        Version: "2012-10-17",
        Statement: [{
          Effect: "Allow",
          Action: ["s3:ListAllMyBuckets", "s3:GetObject", "s3:ListBucket"],
          Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"],
        }],
      },
    }]);
    await signInThroughForm(page, "reader", "reader-secret-1");
    const dialog = await palette(page, "", "Object Browser");
    await dialog.getByText("Loading…").waitFor({ state: "detached" });
    const offered = await dialog.getByRole("option").allInnerTexts();
    const labels = offered.map((o) => o.split("\n")[0]);
    for (
      const hidden of ["Users", "Groups", "IAM Policies", "Create bucket", "Create user", "bob", "secret"]
    ) {
      assert.ok(!labels.includes(hidden), `${hidden} is not offered: ${labels.join(", ")}`);
    }
    assert.ok(labels.includes("shared"), labels.join(", "));
    await page.keyboard.press("Escape");
    // `g` then a letter for a section the session may not open does nothing.
    await page.keyboard.press("g");
    await page.keyboard.press("u");
    await page.keyboard.press("g");
    await page.keyboard.press("o");
    await page.waitForURL("**/object-browser");
  } finally {
    await browser.close();
    await stack.close();
  }
});
