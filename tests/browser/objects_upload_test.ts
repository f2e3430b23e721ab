/**
 * Browser tests of uploads in the object browser (issue 12): several files, a folder, a drop; a large file
 * sent in parts whose upload is interrupted by a reload and a new sign-in and resumes with only the missing
 * parts; cancel (no object, no stray parts); a failed file retried.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { getObject, listMultipartUploads, makeBucket } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { MIB, randomFile, storedDigest } from "./upload_files.ts";

Deno.test("browser: uploads that survive a reload, cancel and retry", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  const dir = await Deno.makeTempDir({ prefix: "deck-upload-" });
  try {
    await makeBucket(stack.admin, "inbox");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/object-browser/inbox/");

    await t.step("several files at once, then a folder, then a drop", async () => {
      await page.getByLabel("Files to upload").setInputFiles([
        { name: "one.txt", mimeType: "text/plain", buffer: Buffer.from("first file") },
        { name: "two %+#?.txt", mimeType: "text/plain", buffer: Buffer.from("second file") },
      ]);
      await page.getByText("Object(s) uploaded successfully.").waitFor();
      await page.locator('tr[data-row="one.txt"]').waitFor();
      await page.locator('tr[data-row="two %+#?.txt"]').waitFor();
      await Deno.mkdir(`${dir}/album/inner`, { recursive: true });
      await Deno.writeTextFile(`${dir}/album/cover.txt`, "cover");
      await Deno.writeTextFile(`${dir}/album/inner/track.txt`, "track");
      await page.getByLabel("Folder to upload").setInputFiles(`${dir}/album`);
      await page.locator('tr[data-row="album/"]').waitFor();
      assert.equal(
        new TextDecoder().decode(
          new Uint8Array(
            await (await getObject(stack.admin, "inbox", "album/inner/track.txt")).arrayBuffer(),
          ),
        ),
        "track",
      );
      const dropped = await page.evaluateHandle(() => {
        const data = new DataTransfer();
        data.items.add(new File(["dropped bytes"], "dropped.txt", { type: "text/plain" }));
        return data;
      });
      await page.getByTestId("folder-view").dispatchEvent("drop", { dataTransfer: dropped });
      await page.locator('tr[data-row="dropped.txt"]').waitFor();
    });

    await t.step(
      "a large file interrupted by a reload and a new sign-in resumes with only its missing parts",
      async () => {
        const file = await randomFile(dir, "big.bin", 40 * MIB); // three parts of 16 MiB
        // Part 3 never gets through: it is held, then dropped as the page is reloaded.
        const held = Promise.withResolvers<import("playwright-core").Route>();
        await page.route(/\/uploads\/[^/]+\/parts\/3\?/, (route) => held.resolve(route));
        const partsDone = Promise.all(
          [1, 2].map((n) =>
            page.waitForResponse((r) => new RegExp(`/parts/${n}\\?`).test(r.url()) && r.status() === 200)
          ),
        );
        await page.getByLabel("Files to upload").setInputFiles(file.path);
        await partsDone;
        browser.expectConsoleError(/ERR_CONNECTION_ABORTED/);
        await (await held.promise).abort("connectionaborted");
        await page.unrouteAll({ behavior: "ignoreErrors" });
        await page.reload();
        await page.getByRole("button", { name: "Logout" }).click();
        await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
        await page.goto("/object-browser/inbox/");
        const sent: string[] = [];
        page.on("request", (r) =>
          r.method() === "PUT" && r.url().includes("/parts/") &&
          sent.push(new URL(r.url()).pathname.split("/").pop()!));
        await page.getByLabel("Files to upload").setInputFiles(file.path);
        await page.getByText("Object(s) uploaded successfully.").waitFor();
        assert.deepEqual(
          sent,
          ["3?key=big.bin"].map((p) => p.split("?")[0]),
          `only the missing part was sent again (sent: ${sent})`,
        );
        await page.getByTestId("uploads").getByText("resumed").waitFor();
        assert.deepEqual(await storedDigest(stack, "inbox", "big.bin"), {
          size: 40 * MIB,
          hash: file.hash,
        });
        assert.deepEqual(await listMultipartUploads(stack.admin, "inbox"), []);
      },
    );

    await t.step("cancel aborts the upload: no object and no stray parts", async () => {
      const file = await randomFile(dir, "cancelled.bin", 20 * MIB);
      await page.route(/\/uploads\/[^/]+\/parts\/2\?/, () => {});
      const firstPart = page.waitForResponse((r) => /\/parts\/1\?/.test(r.url()) && r.status() === 200);
      await page.getByLabel("Files to upload").setInputFiles(file.path);
      await firstPart;
      const aborted = page.waitForResponse((r) =>
        r.request().method() === "DELETE" && /\/uploads\//.test(r.url())
      );
      await page.locator('[data-upload="cancelled.bin"]').getByRole("button", { name: "Cancel" }).click();
      assert.equal((await aborted).status(), 204);
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await page.locator('[data-upload="cancelled.bin"]').getByText("Cancelled", { exact: true }).waitFor();
      assert.deepEqual(await listMultipartUploads(stack.admin, "inbox"), []);
      assert.equal(
        (await page.request.get(
          `${stack.consoleUrl}/api/v1/buckets/inbox/objects/detail?prefix=cancelled.bin`,
        )).status(),
        404,
      );
    });

    await t.step("a failed file says so, and Retry sends it again", async () => {
      browser.expectConsoleError(/status of 500/);
      let failures = 1;
      await page.route(
        /\/objects\/upload\?/,
        (route) => (failures-- > 0
          ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: '{"code":500,"message":"an error occurred, please try again","detailedMessage":"test"}',
          })
          : route.continue()),
      );
      await page.getByLabel("Files to upload").setInputFiles([{
        name: "flaky.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("flaky"),
      }]);
      await page.getByText("An error occurred while uploading the file(s).").waitFor();
      const row = page.locator('[data-upload="flaky.txt"]');
      await row.getByText("Failed").waitFor();
      await row.getByRole("button", { name: "Retry" }).click();
      await row.getByText("Done").waitFor();
      await page.locator('tr[data-row="flaky.txt"]').waitFor();
      await page.unrouteAll({ behavior: "ignoreErrors" });
    });
  } finally {
    await browser.close();
    await stack.close();
    await Deno.remove(dir, { recursive: true });
  }
});
