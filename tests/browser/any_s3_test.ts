/**
 * Browser test of Deck against an S3 server that is not MinIO: s3rver from npm on loopback, configured as the
 * README says (CONSOLE_MINIO_SERVER), with Deck run as production runs it. It has no admin API, no STS and no
 * metrics, so sign-in uses the typed keys directly, every admin area is hidden from the sidebar and the command
 * palette, a page reached directly says what is missing, and buckets and objects still work end to end: create
 * a bucket, upload names in many scripts, browse, download, share (the presigned link works), delete.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { ServerCapabilities } from "../../server/lib/contract/capabilities.ts";
import { ready, spawnDeck, stop } from "../deck_process.ts";
import { contentOf, WORLD_NAMES } from "../names.ts";
import { S3RVER_KEYS, startS3rver } from "../s3rver_process.ts";
import { freePort } from "../storage_process.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { assertNarrowLayout } from "./layout.ts";
import { eventually } from "../eventually.ts";

/** Every sidebar entry that needs MinIO's admin API (or its notification stream). */
const ADMIN_ENTRIES = [
  "Dashboard",
  "Service Accounts",
  "Users",
  "Groups",
  "IAM Policies",
  "Settings",
  "Logs",
  "Watch",
  "Trace",
  "Heal",
  "Diagnostic",
];

const row = (page: Page, key: string) => page.locator(`tr[data-row=${JSON.stringify(key)}]`);

async function pickFiles(page: Page, files: string[]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload Files", exact: true }).click();
  await (await chooser).setFiles(files);
}

Deno.test("browser: Deck against s3rver (plain S3, no admin API, no STS)", async (t) => {
  const s3rver = await startS3rver();
  const dataDir = await Deno.makeTempDir({ prefix: "deck-anys3-" });
  const files = await Deno.makeTempDir({ prefix: "deck-anys3-files-" });
  const deck = spawnDeck(dataDir, { console: await freePort(), storage: await freePort() }, {
    CONSOLE_MINIO_SERVER: s3rver.url,
    CONSOLE_LOG_SEARCH: "off",
    MINIO_ROOT_USER: undefined,
    MINIO_ROOT_PASSWORD: undefined,
  });
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;
  try {
    await ready(deck);
    browser = await openBrowser({ consoleUrl: deck.consoleUrl });
    const { page } = browser;

    await t.step(
      "sign-in takes the keys as they are; the session cookie holds no readable secret",
      async () => {
        await signInThroughForm(page, S3RVER_KEYS.accessKey, S3RVER_KEYS.secretKey);
        const cookie = (await page.context().cookies()).find((c) => c.name === "token");
        assert.ok(cookie, "a session cookie");
        assert.equal(cookie.httpOnly, true);
        // s3rver's secret is its access key, which the page shows as the account: only the cookie can be checked.
        assert.ok(!cookie.value.includes(S3RVER_KEYS.secretKey), "the cookie is sealed");
      },
    );

    await t.step("the capabilities say what the server speaks", async () => {
      const caps = await (await page.request.get("/api/v1/capabilities")).json() as ServerCapabilities;
      assert.equal(caps.adminApi, "no");
      assert.equal(caps.sts, "no");
      assert.equal(caps.metrics, "none");
      assert.deepEqual(caps.identityModes, ["access-keys"]);
      assert.equal(caps.minioVersion, null);
      const fresh = await page.request.post("/api/v1/capabilities/refresh", {
        headers: { origin: deck.consoleUrl },
      });
      assert.equal(fresh.status(), 200);
      assert.equal((await fresh.json() as ServerCapabilities).adminApi, "no");
    });

    await t.step("every admin area is hidden from the sidebar and the command palette", async () => {
      await page.goto("/buckets");
      const sidebar = page.getByRole("navigation").first();
      await sidebar.getByRole("link", { name: "Buckets" }).waitFor();
      await sidebar.getByRole("link", { name: "Object Browser" }).waitFor();
      for (const label of ADMIN_ENTRIES) {
        assert.equal(await sidebar.getByRole("link", { name: label, exact: true }).count(), 0, label);
      }
      const nav = JSON.parse(await page.locator("#deck-nav").textContent() ?? "{}") as {
        entries: { label: string }[];
      };
      for (const label of ADMIN_ENTRIES) assert.ok(!nav.entries.some((e) => e.label === label), label);
      await page.keyboard.press("Control+k");
      const palette = page.getByRole("dialog", { name: /command/i });
      await palette.waitFor();
      await page.keyboard.type("users");
      assert.equal(await palette.getByRole("option", { name: "Users", exact: true }).count(), 0);
      await page.keyboard.press("Escape");
      const session = await (await page.request.get("/api/v1/session")).json() as { pages: string[] };
      assert.ok(!session.pages.some((p) => /^\/(users|groups|policies|settings|dashboard|trace)/.test(p)));
    });

    await t.step("an admin page reached directly says what is missing and why", async () => {
      for (const path of ["/users", "/settings", "/trace", "/dashboard"]) {
        browser!.expectConsoleError(/status of 404/);
        const response = await page.goto(path);
        assert.equal(response?.status(), 404, path);
        const note = page.getByTestId("unsupported");
        assert.match(await note.innerText(), /this server does not speak MinIO's admin API/i, path);
      }
      await assertAccessible(page, "the not-available page");
      // Asking again on demand: s3rver still has no admin API, so the same page comes back.
      browser!.expectConsoleError(/status of 404/);
      await page.getByRole("button", { name: "Check the server again" }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard");
      await page.getByTestId("unsupported").waitFor();
      await page.context().addCookies([{ name: "theme", value: "dark", url: deck.consoleUrl }]);
      await page.setViewportSize({ width: 800, height: 700 });
      browser!.expectConsoleError(/status of 404/);
      await page.goto("/groups");
      await assertAccessible(page, "the not-available page, dark, 800 px");
      await assertNarrowLayout(page, "the not-available page");
      await page.setViewportSize({ width: 1280, height: 720 });
    });

    await t.step("create a bucket", async () => {
      await page.goto("/buckets");
      await page.getByRole("button", { name: "Create Bucket" }).click();
      const dialog = page.getByRole("dialog", { name: "Create Bucket" });
      await dialog.getByLabel("Bucket Name").fill("any-s3");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await row(page, "any-s3").waitFor();
      // With a bucket to read them from, the features s3rver lacks are no longer offered.
      await page.reload();
      await page.getByRole("button", { name: "Create Bucket" }).click();
      await dialog.getByText("This server is not MinIO").waitFor();
      assert.equal(await dialog.getByLabel("Versioning").count(), 0);
      assert.equal(await dialog.getByLabel("Object Locking").count(), 0);
      assert.match(
        await dialog.getByRole("note").innerText(),
        /does not support Versioning or Object Locking/,
      );
      await dialog.getByRole("button", { name: "Close" }).click();
    });

    await t.step("upload names in many scripts, browse them, download each", async () => {
      for (const name of WORLD_NAMES) await Deno.writeTextFile(`${files}/${name}`, contentOf(name));
      await page.goto("/object-browser/any-s3/");
      await pickFiles(page, WORLD_NAMES.map((name) => `${files}/${name}`));
      await page.getByText("Object(s) uploaded successfully.").waitFor();
      await page.reload();
      for (const name of WORLD_NAMES) {
        assert.equal((await row(page, name).getByRole("link").innerText()).trim(), name);
      }
      for (const name of WORLD_NAMES) {
        const pending = page.waitForEvent("download");
        await row(page, name).getByRole("button", { name: `download ${name}` }).click();
        const download = await pending;
        assert.equal(await Deno.readTextFile((await download.path())!), contentOf(name));
      }
    });

    await t.step(
      "the bucket's page: features the server lacks read as off, admin sections are absent",
      async () => {
        await page.goto("/buckets/any-s3");
        const sections = page.getByLabel("Bucket sections");
        await sections.getByRole("link", { name: "Summary" }).waitFor();
        for (const label of ["Access Audit", "Events", "Replication"]) {
          assert.equal(await sections.getByRole("link", { name: label }).count(), 0, label);
        }
        await page.screenshot({ path: "/tmp/anys3-summary.png", fullPage: true });
        assert.equal(await page.getByRole("alert").count(), 0, "no error banner");
        assert.equal((await page.getByText("Access: Private").innerText()).trim(), "Access: Private");
        // s3rver has no bucket policies: the Access Rules section says so instead of failing.
        await page.goto("/buckets/any-s3/prefix");
        await page.getByText("Bucket policies: not supported by this storage server").first().waitFor();
        await page.screenshot({ path: "/tmp/anys3-prefix.png", fullPage: true });
      },
    );

    await t.step("object tags, which s3rver keeps, are added and deleted", async () => {
      const name = WORLD_NAMES[1];
      await page.goto(`/object-browser/any-s3/${encodeURIComponent(name)}`);
      await page.getByRole("button", { name: "+ Add tag" }).click();
      const dialog = page.getByRole("dialog", { name: "Add New Tag" });
      await dialog.getByLabel("Tag Key").fill("team");
      await dialog.getByLabel("Tag Label").fill("blue");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached", timeout: 3000 }).catch(() => {});
      await page.screenshot({ path: "/tmp/anys3-object.png", fullPage: true });
      await page.getByTestId("tags").getByText("team : blue").waitFor();
      await page.getByRole("button", { name: "Delete tag team" }).click();
      await page.getByRole("dialog", { name: "Delete Tag" }).getByRole("button", { name: "Delete" }).click();
      await page.getByTestId("tags").getByText("team : blue").waitFor({ state: "detached" });
    });

    await t.step("share: the presigned link works without a session", async () => {
      const name = "a+b 100% #1 ?.txt";
      await page.goto(`/object-browser/any-s3/${encodeURIComponent(name)}`);
      await page.getByRole("button", { name: "Share", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Share File" });
      await page.waitForFunction(() =>
        (document.querySelector('input[aria-label="Share URL"]') as HTMLInputElement)?.value.startsWith(
          "http",
        )
      );
      const first = await dialog.getByLabel("Share URL").inputValue();
      // A new expiry makes a new link; the one it replaces, signed with the same keys, is not "revoked"
      // (there is no admin API to do it with: a call would fail in the page's console).
      await dialog.getByLabel("Set Expiry Date").check();
      const link = await eventually(
        "a link with the chosen expiry",
        () => dialog.getByLabel("Share URL").inputValue(),
        {
          until: (value) => value.startsWith("http") && value !== first,
        },
      );
      for (const url of [first, link]) {
        const res = await fetch(url);
        assert.equal(res.status, 200, url);
        assert.equal(await res.text(), contentOf(name));
      }
      await dialog.getByRole("button", { name: "Close" }).click();

      // Shared Links says why it lists none, instead of an empty list that looks like a lost link.
      await page.goto("/object-browser/any-s3/");
      await page.getByRole("button", { name: "Shared Links", exact: true }).click();
      await page.getByRole("dialog", { name: "Shared Links" }).getByTestId("no-links")
        .getByText("This server does not speak MinIO's admin API", { exact: false }).waitFor();
    });

    await t.step("delete the objects, then the bucket", async () => {
      await page.goto("/object-browser/any-s3/");
      for (const name of WORLD_NAMES) await row(page, name).getByRole("checkbox").check();
      await page.getByRole("button", { name: "Delete Selected" }).click();
      await page.getByRole("dialog", { name: "Delete Objects" }).getByRole("button", { name: "Delete" })
        .click();
      await page.getByText("Objects deleted successfully.").waitFor();
      await row(page, WORLD_NAMES[0]).waitFor({ state: "detached" });
      await page.goto("/buckets");
      await page.getByRole("button", { name: "delete any-s3" }).click();
      await page.getByRole("dialog", { name: "Delete Bucket" }).getByRole("button", { name: "Delete" })
        .click();
      await row(page, "any-s3").waitFor({ state: "detached" });
    });
  } finally {
    await browser?.close();
    await stop(deck);
    await s3rver.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await Deno.remove(files, { recursive: true }).catch(() => {});
  }
});
