/**
 * Browser tests of jobs on many objects (issue 28), through the object browser's own controls: copy, move and
 * rename folders within and between buckets with names in several scripts, delete a folder as a job, cancel a
 * running move (no object lost or doubled), a destination the user may not write is refused in the dialog,
 * and a job interrupted by killing the console resumes after the restart once its owner signs in again.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { S3Client } from "../../server/lib/s3/client.ts";
import { getObject, listAllObjects, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { DECK_ROOT, ready, spawnDeck, stop } from "../deck_process.ts";
import { eventually } from "../eventually.ts";
import { createUser, startStack } from "../helpers.ts";
import { contentOf, WORLD_FOLDER, WORLD_NAMES } from "../names.ts";
import { freePort } from "../storage_process.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { assertNarrowLayout } from "./layout.ts";

const row = (page: Page, key: string) =>
  page.locator(`[data-testid=folder-view] tr[data-row=${JSON.stringify(key)}]`);
const keysOf = async (admin: S3Client, bucket: string, prefix = "") =>
  (await listAllObjects(admin, bucket, { prefix })).objects.map((o) => o.key).sort();

/** Puts `count` small objects under `prefix`, a few at a time. */
async function seedMany(admin: S3Client, bucket: string, prefix: string, count: number) {
  const keys = Array.from({ length: count }, (_, i) => `${prefix}file ${String(i).padStart(5, "0")} ✓.txt`);
  for (let i = 0; i < keys.length; i += 32) {
    await Promise.all(keys.slice(i, i + 32).map((key) => putObject(admin, bucket, key, key)));
  }
  return keys;
}

/** Ticks the rows, opens the action's dialog and returns it. */
async function startFromSelection(page: Page, keys: string[], action: string) {
  for (const key of keys) await row(page, key).getByRole("checkbox").check();
  await page.getByRole("button", { name: action, exact: true }).click();
  return page.getByRole("dialog");
}

/** Waits until `count` jobs in the panel ended in `state`. */
async function jobsIn(page: Page, state: string, count: number) {
  await page.locator(`[data-testid=jobs-panel] li[data-state=${state}]`).nth(count - 1).waitFor({
    timeout: 60_000,
  });
}

async function pickDestination(page: Page, bucket: string, path: string) {
  const picker = page.getByTestId("destination-picker");
  await picker.locator(`tr[data-row=${JSON.stringify(bucket)}]`).getByRole("radio").check();
  await picker.getByLabel("Destination path").fill(path);
}

Deno.test("browser: copy, move, rename and delete folders as jobs", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    const admin = stack.admin;
    await makeBucket(admin, "photos");
    await makeBucket(admin, "archive");
    for (const name of WORLD_NAMES) await putObject(admin, "photos", WORLD_FOLDER + name, contentOf(name));
    await putObject(admin, "photos", "party 🎉 #1/a+b 100% ?.txt", "party");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/object-browser/photos/");

    await t.step("copy a folder to another bucket", async () => {
      const dialog = await startFromSelection(page, [WORLD_FOLDER], "Copy");
      await dialog.getByTestId("job-versions-note").getByText("delete markers").waitFor();
      await pickDestination(page, "archive", "backup + 100% #?/");
      await assertAccessible(page, "copy dialog with the destination picker");
      await dialog.getByRole("button", { name: "Copy", exact: true }).click();
      await jobsIn(page, "done", 1);
      await assertAccessible(page, "jobs panel");
      await page.setViewportSize({ width: 800, height: 900 });
      await assertNarrowLayout(page, "folder with the jobs panel at 800 px");
      await page.setViewportSize({ width: 1280, height: 900 });
      for (const name of WORLD_NAMES) {
        const text = await (await getObject(admin, "archive", `backup + 100% #?/${WORLD_FOLDER}${name}`))
          .text();
        assert.equal(text, contentOf(name));
      }
      assert.equal((await keysOf(admin, "photos", WORLD_FOLDER)).length, WORLD_NAMES.length);
    });

    await t.step("move a folder within the bucket", async () => {
      const dialog = await startFromSelection(page, ["party 🎉 #1/"], "Move");
      await pickDestination(page, "photos", "moved ｶﾀｶﾅ/");
      await dialog.getByRole("button", { name: "Move", exact: true }).click();
      await jobsIn(page, "done", 2);
      assert.deepEqual(await keysOf(admin, "photos", "party 🎉 #1/"), []);
      assert.equal(
        await (await getObject(admin, "photos", "moved ｶﾀｶﾅ/party 🎉 #1/a+b 100% ?.txt")).text(),
        "party",
      );
      await row(page, "moved ｶﾀｶﾅ/").waitFor(); // the folder reloaded when the job ended
    });

    await t.step("rename a folder in place", async () => {
      const dialog = await startFromSelection(page, [WORLD_FOLDER], "Rename");
      await dialog.getByLabel("New folder name").fill("Έγγραφα 📄");
      await dialog.getByRole("button", { name: "Rename", exact: true }).click();
      await jobsIn(page, "done", 3);
      assert.deepEqual(await keysOf(admin, "photos", WORLD_FOLDER), []);
      assert.deepEqual(
        await keysOf(admin, "photos", "Έγγραφα 📄/"),
        WORLD_NAMES.map((n) => `Έγγραφα 📄/${n}`).sort(),
      );
    });

    await t.step("rename one object in its folder", async () => {
      await page.goto(`/object-browser/photos/${encodeURIComponent("Έγγραφα 📄")}/`);
      const key = `Έγγραφα 📄/${WORLD_NAMES[5]}`;
      const dialog = await startFromSelection(page, [key], "Rename");
      await dialog.getByLabel("New name").fill("renamed # 100% ✓.txt");
      await dialog.getByRole("button", { name: "Rename", exact: true }).click();
      await row(page, "Έγγραφα 📄/renamed # 100% ✓.txt").waitFor();
      assert.equal(
        await (await getObject(admin, "photos", "Έγγραφα 📄/renamed # 100% ✓.txt")).text(),
        contentOf(WORLD_NAMES[5]),
      );
      assert.ok(!(await keysOf(admin, "photos")).includes(key));
    });

    await t.step("rename an object from its own page", async () => {
      const key = `Έγγραφα 📄/${WORLD_NAMES[0]}`;
      await page.goto(`/object-browser/photos/${key.split("/").map(encodeURIComponent).join("/")}`);
      await page.getByRole("button", { name: "Rename", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("New name").fill("héllo again ✓.txt");
      await dialog.getByRole("button", { name: "Rename", exact: true }).click();
      await row(page, "Έγγραφα 📄/héllo again ✓.txt").waitFor();
      assert.equal(
        await (await getObject(admin, "photos", "Έγγραφα 📄/héllo again ✓.txt")).text(),
        contentOf(WORLD_NAMES[0]),
      );
    });

    await t.step("delete a folder as a job", async () => {
      await page.goto("/object-browser/archive/");
      const dialog = await startFromSelection(page, ["backup + 100% #?/"], "Delete Selected");
      await dialog.getByRole("button", { name: "Delete", exact: true }).click();
      await jobsIn(page, "done", 6);
      assert.deepEqual(await keysOf(admin, "archive"), []);
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: cancel a running move; nothing is lost or doubled", async () => {
  // One object at a time, so the job is still running when Cancel is pressed.
  const stack = await startStack({ jobs: { concurrency: 1 } });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "big");
    const keys = await seedMany(stack.admin, "big", "many/", 1500);
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/object-browser/big/");
    const dialog = await startFromSelection(page, ["many/"], "Move");
    await pickDestination(page, "big", "elsewhere/");
    await dialog.getByRole("button", { name: "Move", exact: true }).click();
    const line = page.locator("[data-testid=jobs-panel] li").first();
    await line.getByRole("button", { name: "Cancel" }).click();
    await jobsIn(page, "cancelled", 1);
    const moved = await keysOf(stack.admin, "big", "elsewhere/");
    const left = await keysOf(stack.admin, "big", "many/");
    assert.ok(
      moved.length > 0 && left.length > 0,
      `cancelled midway: ${moved.length} moved, ${left.length} left`,
    );
    assert.deepEqual(
      [...moved.map((k) => k.replace("elsewhere/", "")), ...left].sort(),
      keys.sort(),
      "every object is in exactly one place",
    );
    assert.match(
      await line.getByTestId("job-progress").innerText(),
      new RegExp(`of ${(1500).toLocaleString("en-US")} objects`),
    );
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: a destination the user may not write is refused in the dialog", async () => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "mine");
    await makeBucket(stack.admin, "readonly");
    await putObject(stack.admin, "mine", "note ✓.txt", "n");
    await createUser(stack, "limited", "limited-secret-1", [{
      name: "mine-and-read",
      document: {
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::mine", "arn:aws:s3:::mine/*"] },
          {
            Effect: "Allow",
            Action: ["s3:ListAllMyBuckets", "s3:ListBucket", "s3:GetObject", "s3:GetBucketLocation"],
            Resource: ["arn:aws:s3:::*"],
          },
        ],
      },
    }]);
    await signInThroughForm(page, "limited", "limited-secret-1");
    await page.goto("/object-browser/mine/");
    const dialog = await startFromSelection(page, ["note ✓.txt"], "Copy");
    await pickDestination(page, "readonly", "");
    browser.expectConsoleError(/status of 403/);
    await dialog.getByRole("button", { name: "Copy", exact: true }).click();
    await dialog.getByTestId("dialog-message").getByText("s3:PutObject on readonly/note ✓.txt").waitFor();
    assert.deepEqual(await keysOf(stack.admin, "readonly"), []);
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: a job resumes after the console restarts, nothing lost or doubled", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-jobs-restart-" });
  const ports = { console: await freePort(), storage: await freePort() };
  let deck = spawnDeck(dataDir, ports, { CONSOLE_LOG_LEVEL: "error" });
  let browser: Awaited<ReturnType<typeof openBrowser>> | null = null;
  try {
    await ready(deck);
    const { S3Client } = await import("../../server/lib/s3/client.ts");
    const admin = new S3Client({ endpoint: deck.storageUrl, credentials: DECK_ROOT });
    await makeBucket(admin, "src");
    await makeBucket(admin, "dst");
    const keys = await seedMany(admin, "src", "batch 🎉/", 4000);
    browser = await openBrowser(deck);
    const { page } = browser;
    await signInThroughForm(page, DECK_ROOT.accessKey, DECK_ROOT.secretKey);
    await page.goto("/object-browser/src/");
    const dialog = await startFromSelection(page, ["batch 🎉/"], "Move");
    await pickDestination(page, "dst", "landed/");
    await dialog.getByRole("button", { name: "Move", exact: true }).click();
    // Killed mid-job: nothing gets to stop cleanly. The page leaves first, so its live socket does not
    // report the console going away.
    await eventually("some objects moved", async () => (await keysOf(admin, "dst")).length > 0);
    await page.goto("about:blank");
    deck.child.kill("SIGKILL");
    await deck.status;
    deck = spawnDeck(dataDir, ports, { CONSOLE_LOG_LEVEL: "error" });
    await ready(deck);
    const admin2 = new S3Client({ endpoint: deck.storageUrl, credentials: DECK_ROOT });
    assert.ok((await keysOf(admin2, "src")).length > 0, "the job was interrupted before it finished");
    // The session key is new after the restart: the job waits for its owner to sign in again.
    await signInThroughForm(page, DECK_ROOT.accessKey, DECK_ROOT.secretKey);
    await page.goto("/object-browser/dst/");
    await jobsIn(page, "done", 1);
    assert.deepEqual(await keysOf(admin2, "src"), [], "every source moved");
    assert.deepEqual(await keysOf(admin2, "dst"), keys.map((k) => `landed/${k}`).sort(), "each exactly once");
    const sample = keys[1234];
    assert.equal(await (await getObject(admin2, "dst", `landed/${sample}`)).text(), sample);
  } finally {
    await browser?.close();
    await stop(deck);
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
