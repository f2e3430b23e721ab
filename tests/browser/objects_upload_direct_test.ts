/**
 * Browser test of the direct upload mode (issue 12): with CONSOLE_STORAGE_PUBLIC_URL set, a large file's
 * parts go from the browser straight to the storage on presigned part URLs (the storage answers CORS for
 * the console's page), while starting and completing the upload still go through the console; small files
 * still use the console's form upload. The object arrives byte for byte and no parts stay behind; a part
 * the storage refuses shows the storage's own reason.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { abortMultipartUpload } from "../../server/lib/s3/ops/multipart.ts";
import { getObject, listMultipartUploads, makeBucket } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { MIB, randomFile, storedDigest } from "./upload_files.ts";

Deno.test("browser: with a public storage address, parts go straight to storage", async () => {
  const stack = await startStack({ publicStorage: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  const dir = await Deno.makeTempDir({ prefix: "deck-upload-direct-" });
  try {
    await makeBucket(stack.admin, "direct");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/object-browser/direct/");

    const file = await randomFile(dir, "direct.bin", 20 * MIB + 12345); // two parts of 16 MiB
    const partPuts: string[] = [];
    page.on("request", (r) => r.method() === "PUT" && partPuts.push(r.url()));
    await page.getByLabel("Files to upload").setInputFiles(file.path);
    await page.getByText("Object(s) uploaded successfully.").waitFor();
    await page.locator('tr[data-row="direct.bin"]').waitFor();

    const storageOrigin = new URL(stack.storage.url).origin;
    assert.equal(partPuts.length, 2, `one PUT per part: ${partPuts}`);
    for (const url of partPuts) {
      assert.equal(
        new URL(url).origin,
        storageOrigin,
        `the part went to the storage, not the console: ${url}`,
      );
      assert.match(url, /[?&]partNumber=\d/);
      assert.match(url, /X-Amz-Signature=/, "on a presigned URL: no credentials in the browser");
    }
    assert.deepEqual(await storedDigest(stack, "direct", "direct.bin"), { size: file.size, hash: file.hash });
    assert.deepEqual(await listMultipartUploads(stack.admin, "direct"), []);

    // A small file is still sent in the console's form upload.
    const formPost = page.waitForRequest((r) =>
      r.method() === "POST" && r.url().startsWith(`${stack.consoleUrl}/api/v1/buckets/direct/objects/upload`)
    );
    await page.getByLabel("Files to upload").setInputFiles([{
      name: "small.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("small file"),
    }]);
    await formPost;
    await page.locator('tr[data-row="small.txt"]').waitFor();
    assert.equal(await (await getObject(stack.admin, "direct", "small.txt")).text(), "small file");

    // A part the storage refuses: the row gives the storage's own reason, read from its XML error.
    const gone = await randomFile(dir, "gone ✓.bin", 20 * MIB);
    const held = Promise.withResolvers<import("playwright-core").Route>();
    await page.route(
      (url) => url.origin === storageOrigin && url.searchParams.get("partNumber") === "2",
      (route) => held.resolve(route),
    );
    const firstPart = page.waitForResponse((r) =>
      new URL(r.url()).searchParams.get("partNumber") === "1" && r.status() === 200
    );
    await page.getByLabel("Files to upload").setInputFiles(gone.path);
    const route = await held.promise;
    await firstPart;
    const [upload] = await listMultipartUploads(stack.admin, "direct");
    await abortMultipartUpload(stack.admin, "direct", upload.key, upload.uploadId);
    browser.expectConsoleError(/status of 404/);
    await route.continue();
    const line = page.locator('[data-upload="gone ✓.bin"]');
    await line.getByText("Failed", { exact: true }).waitFor();
    assert.match(
      await line.getByTestId("upload-error").innerText(),
      /^The specified multipart upload does not exist/,
    );
    await page.unrouteAll({ behavior: "ignoreErrors" });
  } finally {
    await browser.close();
    await stack.close();
    await Deno.remove(dir, { recursive: true });
  }
});
