/**
 * Browser test of names in every script through the object browser: files picked with the page's own
 * Upload Files control (small ones through the form upload, a large one in parts, and a name the form
 * cannot carry) list under their exact names and download with them, byte for byte; a selection downloads
 * as a zip with UTF-8 names; an upload over the bucket's quota says why it failed; and after a reload the
 * unfinished uploads are listed, to resume (only the missing parts are sent) or abort.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { setBucketQuota } from "../../server/lib/s3/admin/buckets.ts";
import { createMultipartUpload, uploadPart } from "../../server/lib/s3/ops/multipart.ts";
import { getObject, listMultipartUploads, makeBucket } from "../../server/lib/s3/mod.ts";
import { startStack, type TestStack } from "../helpers.ts";
import { contentOf, WORLD_NAMES, zipEntries } from "../names.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { assertNarrowLayout } from "./layout.ts";
import { MIB, randomFile, storedDigest } from "./upload_files.ts";

/** A name the form upload's field would change ("%22" reads as a quote there): it must go in parts. */
const FORM_AMBIGUOUS = "50%22 off ✓.txt";
const row = (page: Page, key: string) => page.locator(`tr[data-row=${JSON.stringify(key)}]`);

/** Chooses files as a person does: the Upload Files button, then the system's file chooser. */
async function pickFiles(page: Page, button: string, files: Parameters<Page["setInputFiles"]>[1]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: button, exact: true }).click();
  await (await chooser).setFiles(files);
}

async function uploadAndDownload(t: Deno.TestContext, stack: TestStack, page: Page, dir: string) {
  const large = await randomFile(dir, "大きな ﾌｧｲﾙ 🎉.bin", 17 * MIB);
  await Deno.mkdir(`${dir}/small`);
  for (const name of [...WORLD_NAMES, FORM_AMBIGUOUS]) {
    await Deno.writeTextFile(`${dir}/small/${name}`, contentOf(name));
  }
  await t.step("files named in many scripts upload and list under their exact names", async () => {
    await pickFiles(page, "Upload Files", [
      ...[...WORLD_NAMES, FORM_AMBIGUOUS].map((name) => `${dir}/small/${name}`),
      large.path,
    ]);
    await page.getByText("Object(s) uploaded successfully.").waitFor();
    for (const name of [...WORLD_NAMES, FORM_AMBIGUOUS, "大きな ﾌｧｲﾙ 🎉.bin"]) {
      assert.equal((await row(page, name).getByRole("link").innerText()).trim(), name);
    }
    assert.equal(
      await (await getObject(stack.admin, "world", FORM_AMBIGUOUS)).text(),
      contentOf(FORM_AMBIGUOUS),
    );
    assert.deepEqual(await storedDigest(stack, "world", "大きな ﾌｧｲﾙ 🎉.bin"), {
      size: large.size,
      hash: large.hash,
    });
  });

  await t.step("each downloads under its own name with its bytes", async () => {
    for (const name of [...WORLD_NAMES, FORM_AMBIGUOUS]) {
      const pending = page.waitForEvent("download");
      await row(page, name).getByRole("button", { name: `download ${name}` }).click();
      const download = await pending;
      // Chromium saves characters Windows forbids in file names as "_"; the header has them (API test).
      assert.equal(download.suggestedFilename(), name.replace(/["*:<>?\\|]/g, "_"));
      assert.equal(await Deno.readTextFile((await download.path())!), contentOf(name));
    }
  });

  await t.step("a selection downloads as a zip with UTF-8 names", async () => {
    for (const name of WORLD_NAMES) await row(page, name).getByRole("checkbox").check();
    const pending = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download Selected" }).click();
    const entries = zipEntries(await Deno.readFile((await (await pending).path())!));
    assert.deepEqual(entries.map((e) => e.name).sort(), [...WORLD_NAMES].sort());
    assert.ok(entries.every((e) => e.flags & 0x0800), "the language encoding flag on every entry");
  });
}

Deno.test("browser: names in every script upload, list and download", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  const dir = await Deno.makeTempDir({ prefix: "deck-names-" });
  try {
    await makeBucket(stack.admin, "world");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/object-browser/world/");
    await uploadAndDownload(t, stack, page, dir);

    await t.step("an upload over the bucket's quota says why it failed", async () => {
      await makeBucket(stack.admin, "tight");
      await setBucketQuota(stack.admin, "tight", MIB);
      await page.goto("/object-browser/tight/");
      browser.expectConsoleError(/status of 400/);
      await pickFiles(page, "Upload Files", [{
        name: "too big ✓.bin",
        mimeType: "application/octet-stream",
        buffer: Buffer.alloc(2 * MIB),
      }]);
      await page.getByText("An error occurred while uploading the file(s).").waitFor();
      const line = page.locator('[data-upload="too big ✓.bin"]');
      await line.getByText("Failed", { exact: true }).waitFor();
      assert.equal(await line.getByTestId("upload-error").innerText(), "Bucket quota exceeded");
      await assertAccessible(page, "uploads panel with a refused file");
    });
  } finally {
    await browser.close();
    await stack.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("browser: unfinished uploads are listed after a reload, to resume or abort", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  const dir = await Deno.makeTempDir({ prefix: "deck-unfinished-" });
  try {
    await makeBucket(stack.admin, "inbox");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/object-browser/inbox/");
    const mine = await randomFile(dir, "報告書 ✓.bin", 40 * MIB); // three parts of 16 MiB
    const other = await randomFile(dir, "from the CLI.bin", 6 * MIB);

    await t.step("an upload cut short by a reload is listed with its size", async () => {
      // Part 3 never gets through: it is held, then dropped as the page reloads.
      const held = Promise.withResolvers<import("playwright-core").Route>();
      await page.route(/\/uploads\/[^/]+\/parts\/3\?/, (route) => held.resolve(route));
      const partsDone = Promise.all(
        [1, 2].map((n) =>
          page.waitForResponse((r) => new RegExp(`/parts/${n}\\?`).test(r.url()) && r.status() === 200)
        ),
      );
      await pickFiles(page, "Upload Files", mine.path);
      await partsDone;
      browser.expectConsoleError(/ERR_CONNECTION_ABORTED/);
      await (await held.promise).abort("connectionaborted");
      await page.unrouteAll({ behavior: "ignoreErrors" });
      // Another client's upload of the same bucket: one 5 MiB part of a 6 MiB file stored.
      const foreign = await createMultipartUpload(stack.admin, "inbox", "from the CLI.bin");
      await uploadPart(
        stack.admin,
        "inbox",
        "from the CLI.bin",
        foreign,
        1,
        (await Deno.readFile(other.path)).subarray(0, 5 * MIB),
      );
      await createMultipartUpload(stack.admin, "inbox", "abandoned ✗.bin");
      // The list is checked where it is most cramped: the dark theme in an 800 px window.
      await page.context().addCookies([{ name: "theme", value: "dark", url: stack.consoleUrl }]);
      await page.setViewportSize({ width: 800, height: 900 });
      await page.reload();
      const list = page.getByTestId("unfinished-uploads");
      await list.getByText("Unfinished uploads").waitFor();
      assert.match(await list.locator('[data-unfinished="報告書 ✓.bin"]').innerText(), /40 MiB/);
      assert.match(await list.locator('[data-unfinished="from the CLI.bin"]').innerText(), /another client/);
      await assertAccessible(page, "unfinished uploads, dark");
      await assertNarrowLayout(page, "unfinished uploads, dark, 800 px");
    });

    await t.step("resuming with another file is refused and says which file it needs", async () => {
      const item = page.locator('[data-unfinished="報告書 ✓.bin"]');
      const chooser = page.waitForEvent("filechooser");
      await item.getByRole("button", { name: "Resume" }).click();
      await (await chooser).setFiles(other.path);
      assert.match(
        await item.getByRole("alert").innerText(),
        /^Choose the file this upload started with: 40 MiB/,
      );
    });

    await t.step(
      "resuming sends only the missing parts, for this browser's upload and another's",
      async () => {
        const sent: string[] = [];
        const partOf = (url: URL) => `${url.pathname.replace(/^.*\/uploads\/[^/]+/, "")}?${url.searchParams}`;
        page.on("request", (r) => {
          if (r.method() === "PUT" && r.url().includes("/parts/")) {
            sent.push(decodeURIComponent(partOf(new URL(r.url()))));
          }
        });
        for (const [key, file] of [["報告書 ✓.bin", mine], ["from the CLI.bin", other]] as const) {
          const chooser = page.waitForEvent("filechooser");
          await page.locator(`[data-unfinished="${key}"]`).getByRole("button", { name: "Resume" }).click();
          await (await chooser).setFiles(file.path);
          await page.locator(`[data-upload="${key}"]`).getByText("Done", { exact: true }).waitFor();
          assert.deepEqual(await storedDigest(stack, "inbox", key), { size: file.size, hash: file.hash });
        }
        assert.deepEqual(sent, ["/parts/3?key=報告書+✓.bin", "/parts/2?key=from+the+CLI.bin"]);
        await row(page, "報告書 ✓.bin").waitFor();
      },
    );

    await t.step("abort removes an unfinished upload and its parts", async () => {
      const item = page.locator('[data-unfinished="abandoned ✗.bin"]');
      await item.getByRole("button", { name: "Abort" }).click();
      await item.waitFor({ state: "detached" });
      assert.deepEqual(await listMultipartUploads(stack.admin, "inbox"), []);
      const listed = page.waitForResponse((r) =>
        new URL(r.url()).pathname.endsWith("/buckets/inbox/uploads")
      );
      await page.reload();
      assert.deepEqual((await (await listed).json()).uploads, []);
      await page.evaluate(() =>
        new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      );
      assert.equal(await page.getByTestId("unfinished-uploads").count(), 0, "nothing left to list");
    });
  } finally {
    await browser.close();
    await stack.close();
    await Deno.remove(dir, { recursive: true });
  }
});
