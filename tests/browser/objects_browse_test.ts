/**
 * Browser tests of the object browser (issue 12) in Debian's Chromium against the real console and embedded
 * storage: all buckets, folders without page reloads (history, back and forward), the server-rendered first
 * page, infinite scroll, the path bar, bucket search with cancel, rewind, versions, previews, downloads and
 * zips, deletes. A pacing proxy in front of the storage lets a test hold later listing pages, so a search
 * can be cancelled while it runs.
 */
import assert from "node:assert/strict";
import { makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { createUser, startStack, type TestStack } from "../helpers.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";

/** Seeds keys with a few requests in flight. */
async function seed(
  stack: TestStack,
  bucket: string,
  keys: string[],
  body: (key: string) => string | Uint8Array = (k) => k,
) {
  const queue = [...keys];
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (queue.length) {
      const key = queue.shift()!;
      await putObject(stack.admin, bucket, key, body(key));
    }
  }));
}

/** A 1x1 PNG, so the image preview really decodes. */
const PNG = Uint8Array.fromBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
);

Deno.test("browser: the object browser, browsing and reading", async (t) => {
  // Listing pages after the first are counted, and while `heldPages` is set (the search-cancel step) each
  // waits until the test lets it through.
  let storageHandler: (request: Request) => Promise<Response> = () =>
    Promise.resolve(new Response(null, { status: 503 }));
  let heldPages: Promise<void> | null = null;
  let continuedListings = 0;
  let heldAnswered: () => void = () => {};
  const pacer = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (!new URL(request.url).searchParams.has("continuation-token")) return await storageHandler(request);
    continuedListings++;
    if (!heldPages) return await storageHandler(request);
    await heldPages;
    const response = await storageHandler(request);
    heldAnswered();
    return response;
  });
  const stack = await startStack({ storageUrl: `http://127.0.0.1:${(pacer.addr as Deno.NetAddr).port}` });
  storageHandler = stack.storage.handler;
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "photos");
    await makeBucket(stack.admin, "archive");
    await seed(stack, "photos", ["2024/a.txt", "2024/deep/inner.txt", "notes.txt", "ü space %+#?.txt"]);
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step(
      "the menu's Object Browser lists all buckets; a bucket opens in place and history follows",
      async () => {
        await page.getByRole("link", { name: "Object Browser" }).click();
        await page.getByRole("heading", { name: "All Buckets" }).waitFor();
        // The link loaded a new page: its filter takes typing once the island is live.
        await waitForIslands(page);
        await page.getByLabel("Filter Buckets").fill("pho");
        assert.equal(await page.locator("tr[data-row]").count(), 1);
        await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
        await page.getByRole("link", { name: "photos" }).click();
        await page.locator('tr[data-row="2024/"]').waitFor();
        assert.equal(new URL(page.url()).pathname, "/object-browser/photos/");
        await page.locator('tr[data-row="2024/"]').getByRole("link").click();
        await page.locator('tr[data-row="2024/deep/"]').waitFor();
        assert.equal(new URL(page.url()).pathname, "/object-browser/photos/2024/");
        assert.deepEqual(
          await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem").allInnerTexts(),
          ["All Buckets", "photos", "2024"],
        );
        await page.goBack();
        await page.locator('tr[data-row="notes.txt"]').waitFor();
        await page.goForward();
        await page.locator('tr[data-row="2024/a.txt"]').waitFor();
        assert.equal(
          await page.evaluate(() => (globalThis as unknown as { marker: number }).marker),
          42,
          "no full page load happened",
        );
      },
    );

    await t.step(
      "every URL renders on the server with its first page; awkward names round-trip",
      async () => {
        const html = await (await page.request.get(`${stack.consoleUrl}/object-browser/photos/`)).text();
        assert.match(html, /notes\.txt/, "the first page is in the HTML");
        await page.goto("/object-browser/photos/");
        const odd = page.locator('tr[data-row="ü space %+#?.txt"]');
        await odd.getByRole("link").click();
        await page.getByRole("heading", { name: "ü space %+#?.txt" }).waitFor();
        assert.equal(
          new URL(page.url()).pathname,
          "/object-browser/photos/%C3%BC%20space%20%25%2B%23%3F.txt",
        );
        await page.reload();
        assert.match(await page.getByTestId("object-browser").innerText(), /ü space %\+#\?\.txt/);
      },
    );

    await t.step("the path bar jumps to a folder or an object", async () => {
      await page.getByLabel("Path").fill("2024/deep/");
      await page.getByLabel("Path").press("Enter");
      await page.locator('tr[data-row="2024/deep/inner.txt"]').waitFor();
      await page.getByLabel("Path").fill("notes.txt");
      await page.getByRole("button", { name: "Go", exact: true }).click();
      await page.getByRole("heading", { name: "notes.txt" }).waitFor();
    });

    await t.step(
      "a big folder loads further pages as the table scrolls, and says what a sort applies to",
      async () => {
        await seed(
          stack,
          "archive",
          Array.from({ length: 1100 }, (_, i) => `big/${String(i).padStart(5, "0")}.log`),
        );
        await page.goto("/object-browser/archive/big/");
        const table = page.getByRole("table", { name: "objects" });
        assert.equal(
          await table.getAttribute("aria-rowcount"),
          "251",
          "the server-rendered first page: 250 rows",
        );
        await page.getByRole("button", { name: /^Size/ }).click();
        assert.match(
          await page.getByTestId("table-objects").innerText(),
          /applies to the 250 entries loaded so far/,
        );
        const scroller = page.getByTestId("table-objects").locator(".overflow-auto");
        await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await page.waitForFunction(() =>
          document.querySelector('table[aria-label="objects"]')?.getAttribute("aria-rowcount") === "1101"
        );
      },
    );

    await t.step("bucket search streams hits with a scan count, and Cancel stops the scan", async () => {
      await seed(stack, "archive", Array.from({ length: 1000 }, (_, i) => `more/m-${i}.dat`));
      await page.goto("/object-browser/archive/");
      await page.getByRole("button", { name: "Search Bucket" }).click();
      await page.getByLabel("Search the bucket for").fill("0004");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByTestId("search-status").filter({ hasText: /Done: 2,100 keys scanned, 11 found/ })
        .waitFor();
      assert.equal(
        await page.getByRole("list", { name: "Search results" }).getByRole("listitem").count(),
        11,
      );
      // Three storage pages; the second is held until Cancel was pressed, so the scan is still running then.
      const { promise: cancelled, resolve: letThrough } = Promise.withResolvers<void>();
      heldPages = cancelled;
      const secondAnswered = new Promise<void>((resolve) => (heldAnswered = resolve));
      await page.getByLabel("Match").selectOption("glob");
      await page.getByLabel("Search the bucket for").fill("*/0000?.log");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByTestId("search-status").filter({ hasText: /Searching… 1,000 keys scanned, 10 found/ })
        .waitFor();
      await page.getByTestId("bucket-search").getByRole("button", { name: "Cancel" }).click();
      await page.getByTestId("search-status").filter({
        hasText: /Search cancelled after 1,000 keys scanned, 10 found/,
      }).waitFor();
      letThrough();
      await secondAnswered;
      const afterSecond = continuedListings;
      // Had the scan gone on, its third page would be asked for as soon as the second came back.
      await page.request.get(`${stack.consoleUrl}/api/v1/buckets`);
      assert.equal(
        continuedListings,
        afterSecond,
        "the server stopped listing once the search was cancelled",
      );
      heldPages = null;
      await page.getByRole("list", { name: "Search results" }).getByRole("button", { name: "big/00003.log" })
        .click();
      await page.getByRole("heading", { name: "00003.log" }).waitFor();
    });

    await t.step("downloads: an object as itself, a folder as a zip", async () => {
      await page.goto("/object-browser/photos/2024/");
      let pending = page.waitForEvent("download");
      await page.locator('tr[data-row="2024/a.txt"]').getByRole("button", { name: "download 2024/a.txt" })
        .click();
      let download = await pending;
      assert.equal(download.suggestedFilename(), "a.txt");
      assert.equal(await Deno.readTextFile((await download.path())!), "2024/a.txt");
      pending = page.waitForEvent("download");
      await page.locator('tr[data-row="2024/deep/"]').getByRole("button", { name: "download 2024/deep/" })
        .click();
      download = await pending;
      assert.equal(download.suggestedFilename(), "deep.zip");
      const listing = await new Deno.Command("unzip", {
        args: ["-Z1", (await download.path())!],
        stdout: "piped",
      }).output();
      assert.equal(new TextDecoder().decode(listing.stdout).trim(), "deep/inner.txt");
      await page.locator('tr[data-row="2024/a.txt"]').getByRole("checkbox").check();
      await page.locator('tr[data-row="2024/deep/"]').getByRole("checkbox").check();
      pending = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download Selected" }).click();
      download = await pending;
      assert.equal(download.suggestedFilename(), "2024.zip");
    });

    await t.step("the object page's Download shows a spinner until the download starts", async () => {
      await page.goto("/object-browser/photos/notes.txt");
      const pending = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download" }).click();
      await pending;
      await page.getByRole("button", { name: "Download" }).waitFor();
    });

    await t.step("preview of each type, at the spec's heights", async () => {
      await seed(stack, "photos", [
        "media/pic.png",
        "media/doc.txt",
        "media/song.mp3",
        "media/clip.mp4",
        "media/paper.pdf",
        "media/data.bin",
      ], (k) => (k.endsWith(".png") ? PNG : `bytes of ${k}`));
      await page.goto("/object-browser/photos/media/");
      await page.locator('tr[data-row="media/pic.png"]').getByRole("button", {
        name: "preview media/pic.png",
      }).click();
      const dialog = page.getByRole("dialog", { name: "Preview - pic.png" });
      const img = dialog.getByRole("img", { name: "pic.png" });
      await page.waitForFunction(() =>
        (document.querySelector("dialog img") as HTMLImageElement | null)?.naturalWidth === 1
      );
      assert.ok(await img.isVisible());
      await dialog.getByRole("button", { name: "Close" }).click();
      assert.equal(
        await page.locator('tr[data-row="media/data.bin"]').getByRole("button", {
          name: "preview media/data.bin",
        }).isDisabled(),
        true,
      );
      await page.locator('tr[data-row="media/doc.txt"]').getByRole("link").click();
      await page.getByRole("tab", { name: "Preview" }).click();
      const frame = page.frameLocator('iframe[title="Preview of doc.txt"]');
      assert.equal(await frame.locator("body").innerText(), "bytes of media/doc.txt");
      assert.equal(
        await page.locator('iframe[title="Preview of doc.txt"]').evaluate((el) =>
          (el as HTMLElement).style.height
        ),
        "500px",
      );
      await page.goto("/object-browser/photos/media/song.mp3");
      await page.getByRole("tab", { name: "Preview" }).click();
      assert.equal(
        await page.locator("audio").evaluate((el) => (el.parentElement as HTMLElement).style.height),
        "150px",
      );
      await page.goto("/object-browser/photos/media/clip.mp4");
      await page.getByRole("tab", { name: "Preview" }).click();
      assert.equal(await page.locator("video").evaluate((el) => (el as HTMLElement).style.height), "350px");
      await page.goto("/object-browser/photos/media/data.bin");
      assert.equal(
        await page.getByRole("tab", { name: "Preview" }).isDisabled(),
        true,
        "no preview for this type",
      );
      assert.equal(
        await page.getByRole("tab", { name: "Versions" }).isDisabled(),
        true,
        "no real version id",
      );
    });

    await t.step(
      "versions: vN labels, newest highest, delete markers cannot be shared or downloaded",
      async () => {
        await makeBucket(stack.admin, "history");
        await putBucketVersioning(stack.admin, "history", { status: "Enabled" });
        await putObject(stack.admin, "history", "doc.txt", "one");
        await putObject(stack.admin, "history", "doc.txt", "two");
        await stack.admin.empty({ method: "DELETE", bucket: "history", key: "doc.txt" });
        await page.goto(
          "/object-browser/history/doc.txt?version_id=" +
            (await firstVersion(stack, "history", "doc.txt", 1)),
        );
        await page.getByRole("tab", { name: "Versions" }).click();
        const rows = page.getByRole("table", { name: "versions" }).locator("tr[data-row]");
        await rows.first().waitFor();
        assert.deepEqual((await rows.allInnerTexts()).map((r) => /^v\d+/.exec(r)?.[0]), ["v3", "v2", "v1"]);
        const marker = rows.first();
        assert.match(await marker.innerText(), /Yes/);
        assert.equal(await marker.getByRole("button", { name: /^share/ }).isDisabled(), true);
        assert.equal(await marker.getByRole("button", { name: /^download/ }).isDisabled(), true);
        const v1 = await rows.nth(2).getAttribute("data-row");
        await page.getByLabel("Search Version ID").fill(v1!.slice(0, 8));
        assert.equal(await rows.count(), 1);
      },
    );

    await t.step("rewind shows the folder as it was, with its badge, until 'Show Current Data'", async () => {
      await putObject(stack.admin, "history", "later.txt", "added after");
      const deletedAt = Date.parse(await newestVersionDate(stack, "history", "doc.txt"));
      const addedAt = Date.parse(await newestVersionDate(stack, "history", "later.txt"));
      assert.ok(addedAt - deletedAt >= 2, "the two writes are apart in time");
      await page.goto("/object-browser/history/");
      await page.locator('tr[data-row="later.txt"]').waitFor();
      assert.equal(await page.locator('tr[data-row="doc.txt"]').count(), 0, "deleted now");
      await page.getByRole("button", { name: "Rewind" }).click();
      const dialog = page.getByRole("dialog", { name: "Rewind" });
      // An instant after the delete and before later.txt, typed to the millisecond in the browser's time zone.
      const when = new Date(deletedAt + 1);
      const local = new Date(when.getTime() - when.getTimezoneOffset() * 60000).toISOString().slice(0, 23);
      await dialog.getByLabel("Rewind to").fill(local);
      await dialog.getByRole("button", { name: "Rewind" }).click();
      await page.getByTestId("rewind-badge").waitFor();
      const table = page.getByRole("table", { name: "objects" });
      await table.locator('tr[data-row="doc.txt"]', { hasText: "Yes" }).waitFor();
      assert.deepEqual(
        (await table.locator("thead th").allInnerTexts()).map((h) => h.replace(/\s*[↕▲▼]/, "")),
        ["Name", "Object Date", "Size", "Deleted", "Options"],
      );
      assert.equal(await table.locator('tr[data-row="later.txt"]').count(), 0, "not there yet");
      await page.getByRole("button", { name: "Rewind" }).click();
      await page.getByRole("dialog", { name: "Rewind" }).getByRole("button", { name: "Show Current Data" })
        .click();
      await page.locator('tr[data-row="later.txt"]').waitFor();
      assert.equal(await page.getByTestId("rewind-badge").count(), 0);
    });

    await t.step("delete one object from its page, then Delete Selected", async () => {
      await page.goto("/object-browser/photos/2024/a.txt");
      await page.getByRole("button", { name: "Delete Object" }).click();
      await page.getByRole("dialog", { name: "Delete Object" }).getByRole("button", { name: "Delete" })
        .click();
      await page.getByText("Object 'a.txt' deleted successfully.").waitFor();
      // Back to the parent folder: the snackbar may show before the address changes, so wait for it.
      await page.waitForURL((url) => url.pathname === "/object-browser/photos/2024/");
      await page.goto("/object-browser/photos/media/");
      assert.equal(await page.getByRole("button", { name: "Delete Selected" }).isDisabled(), true);
      await page.locator('tr[data-row="media/doc.txt"]').getByRole("checkbox").check();
      await page.locator('tr[data-row="media/data.bin"]').getByRole("checkbox").check();
      await page.getByRole("button", { name: "Delete Selected" }).click();
      await page.getByRole("dialog", { name: "Delete Objects" }).getByRole("button", { name: "Delete" })
        .click();
      await page.getByText("Objects deleted successfully.").waitFor();
      await page.locator('tr[data-row="media/doc.txt"]').waitFor({ state: "detached" });
      assert.equal(await page.locator('tr[data-row="media/pic.png"]').count(), 1);
    });

    await t.step("a user who may not create buckets sees no create icon", async () => {
      const readerPolicy = {
        name: "list-only",
        document: {
          Version: "2012-10-17",
          Statement: [{
            Effect: "Allow",
            Action: ["s3:ListBucket", "s3:GetObject", "s3:ListAllMyBuckets"],
            Resource: ["arn:aws:s3:::*"],
          }],
        },
      };
      await createUser(stack, "list-user", "list-secret-1", [readerPolicy]);
      const other = await browser.browser.newContext({ baseURL: stack.consoleUrl });
      const reader = await other.newPage();
      await signInThroughForm(reader, "list-user", "list-secret-1");
      await reader.goto("/object-browser");
      await reader.getByRole("heading", { name: "All Buckets" }).waitFor();
      assert.equal(await reader.getByRole("button", { name: "Create Bucket" }).count(), 0);
      await other.close();
    });
  } finally {
    await browser.close();
    await stack.close();
    await pacer.shutdown();
  }
});

/** The id of a key's `index`-th version counted from the newest (0 = newest). */
async function firstVersion(stack: TestStack, bucket: string, key: string, index: number): Promise<string> {
  const xml = await stack.admin.text({ method: "GET", bucket, query: { versions: "", prefix: key } });
  return [...xml.matchAll(/<VersionId>([^<]+)<\/VersionId>/g)][index][1];
}

async function newestVersionDate(stack: TestStack, bucket: string, key: string): Promise<string> {
  const xml = await stack.admin.text({ method: "GET", bucket, query: { versions: "", prefix: key } });
  return /<LastModified>([^<]+)<\/LastModified>/.exec(xml)![1];
}
