/**
 * "Upload as archive" in the object browser (issue 28): a folder chosen with that button goes up as one tar
 * in one request, the embedded storage unpacks it, and the files appear in the listing under the folder,
 * at the bucket's root and inside a folder whose path no header can carry (it goes into the entry names).
 */
import assert from "node:assert/strict";
import { getObject, listAllObjects, makeBucket } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { assetBytes } from "../../build/bench/assets.ts";

const FILES: Record<string, string> = {
  "Ελληνικά +%#?.txt": "ελληνικά",
  "日本語/ファイル 名.txt": "日本語",
  "عربي/ملف 😀.txt": "عربي",
  "plain/a b.json": '{"ok":true}',
};

Deno.test("browser: a folder uploaded as an archive is unpacked into objects", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  const dir = await Deno.makeTempDir({ prefix: "deck-archive-" });
  try {
    await makeBucket(stack.admin, "archives");
    for (const [path, text] of Object.entries(FILES)) {
      const full = `${dir}/photos 😀/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(full, text);
    }
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    const uploadsSent: string[] = [];
    page.on("request", (r) => {
      // Bytes going up: form uploads, parts, archives (the GETs of unfinished uploads carry none).
      const sending = r.method() !== "GET" && /\/objects\/(upload|archive)|\/uploads/.test(r.url());
      if (sending) uploadsSent.push(`${r.method()} ${r.url()}`);
    });

    const uploadAsArchive = async () => {
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Upload as archive" }).click();
      await (await chooser).setFiles(`${dir}/photos 😀`);
      await page.getByText("Object(s) uploaded successfully.").waitFor();
    };

    await t.step("at the bucket's root: one request, one object per file", async () => {
      await page.goto("/object-browser/archives/");
      await uploadAsArchive();
      await page.locator('tr[data-row="photos 😀/"]').waitFor();
      assert.equal(uploadsSent.length, 1, `one request: ${uploadsSent}`);
      assert.match(uploadsSent[0], /^PUT .*\/objects\/archive\?/);
      const keys = (await listAllObjects(stack.admin, "archives")).objects.map((o) => o.key).sort();
      assert.deepEqual(keys, Object.keys(FILES).map((p) => `photos 😀/${p}`).sort());
      for (const [path, text] of Object.entries(FILES)) {
        assert.equal(await (await getObject(stack.admin, "archives", `photos 😀/${path}`)).text(), text);
      }
    });

    await t.step("inside a folder named in several scripts", async () => {
      uploadsSent.length = 0;
      await page.goto(`/object-browser/archives/${encodeURIComponent("dépôt été 😀")}/`);
      await uploadAsArchive();
      await page.locator('tr[data-row="dépôt été 😀/photos 😀/"]').waitFor();
      assert.equal(uploadsSent.length, 1);
      const html = await (await page.request.get("/object-browser/archives/")).text();
      const { js } = await assetBytes(stack.consoleUrl, html);
      assert.ok(js <= 150 * 1024, `the object browser stays within 150 KB of JS gzip (${js})`);
      const inside = await listAllObjects(stack.admin, "archives", { prefix: "dépôt été 😀/" });
      assert.equal(inside.objects.length, Object.keys(FILES).length);
      assert.equal(
        await (await getObject(stack.admin, "archives", "dépôt été 😀/photos 😀/عربي/ملف 😀.txt")).text(),
        "عربي",
      );
    });
  } finally {
    await browser.close();
    await stack.close();
    await Deno.remove(dir, { recursive: true });
  }
});
