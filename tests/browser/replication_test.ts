/**
 * Browser test of replication status (issue 15): a file uploaded in the object browser reaches the remote
 * target, and the bucket's Summary shows it replicated; with the target down, the next upload shows as
 * failed with the target's error.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { setRemoteTarget } from "../../server/lib/s3/admin/buckets.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket, putBucketVersioning } from "../../server/lib/s3/mod.ts";
import { headObject } from "../../server/lib/s3/ops/objects.ts";
import { putBucketReplication } from "../../server/lib/s3/ops/replication.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { startStack } from "../helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { eventually } from "../eventually.ts";
import type { Page } from "playwright-core";

/** Clicks "Refresh status" until the card's `testId` text matches (generous deadline for a loaded machine). */
async function refreshUntil(page: Page, testId: string, expected: RegExp): Promise<void> {
  const card = page.getByTestId("summary-replication");
  await eventually(`${testId} to match ${expected}`, async () => {
    const text = await card.getByTestId(testId).innerText();
    if (!expected.test(text)) {
      await card.getByRole("button", { name: "Refresh status" }).click();
      // The button is disabled while the status is read; it comes back once the new one is shown.
      await page.waitForFunction(() =>
        !document.querySelector('[data-testid="replication-status"] button')?.hasAttribute("disabled")
      );
    }
    return text;
  }, { until: (text) => expected.test(text) });
}

Deno.test("browser: the bucket page shows replication status after an upload", async () => {
  const stack = await startStack();
  const remoteDir = await Deno.makeTempDir({ prefix: "deck-remote-" });
  const remoteRoot = { rootUser: "remote-root", rootPassword: "remote-secret-key" };
  let remote: Awaited<ReturnType<typeof startEmbeddedStorage>> | null = await startEmbeddedStorage({
    dataDir: remoteDir,
    hostname: "127.0.0.1",
    port: 0,
    ...remoteRoot,
  });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    const target = new S3Client({
      endpoint: remote.url,
      credentials: { accessKey: remoteRoot.rootUser, secretKey: remoteRoot.rootPassword },
    });
    await makeBucket(target, "mirror");
    await putBucketVersioning(target, "mirror", { status: "Enabled" });
    await makeBucket(stack.admin, "photos");
    await putBucketVersioning(stack.admin, "photos", { status: "Enabled" });
    const arn = await setRemoteTarget(stack.admin, "photos", {
      sourcebucket: "photos",
      endpoint: new URL(remote.url).host,
      secure: false,
      credentials: { accessKey: remoteRoot.rootUser, secretKey: remoteRoot.rootPassword },
      targetbucket: "mirror",
      type: "replication",
    });
    await putBucketReplication(stack.admin, "photos", {
      role: "",
      rules: [{
        id: "all",
        status: "Enabled",
        priority: 1,
        destinationBucket: arn,
        deleteMarkerReplication: true,
        deleteReplication: true,
        replicaModifications: true,
        existingObjectReplication: false,
      }],
    });

    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/object-browser/photos/");
    await page.getByLabel("Files to upload").setInputFiles([{
      name: "cat.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("meow"),
    }]);
    await page.getByText("Object(s) uploaded successfully.").waitFor();

    // A bucket without default encryption answers 404 to the encryption read (the contract's "not configured").
    browser.expectConsoleError(/status of 404/);
    await page.goto("/buckets/photos/summary");
    const card = page.getByTestId("summary-replication");
    await card.getByText("Enabled").waitFor();
    await refreshUntil(page, "replication-replicated", /^1 /);
    assert.equal(await card.getByTestId("replication-pending").innerText(), "0");
    assert.equal(await card.getByTestId("replication-failed").innerText(), "0");
    assert.equal(
      (await headObject(target, "mirror", "cat.txt")).headers.get("x-amz-replication-status"),
      "REPLICA",
    );
    await assertAccessible(page, "bucket summary with replication status");
    // The Replication section shows the same above its rules.
    await page.goto("/buckets/photos/replication");
    assert.match(await page.getByTestId("replication-replicated").innerText(), /^1 /);
    await page.locator('tr[data-row="all"]').waitFor();

    // The target goes away: the next upload shows as failed, with the target's error.
    await remote.close();
    remote = null;
    await page.goto("/object-browser/photos/");
    await page.getByLabel("Files to upload").setInputFiles([{
      name: "dog.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("woof"),
    }]);
    await page.getByText("Object(s) uploaded successfully.").waitFor();
    await page.goto("/buckets/photos/summary");
    await refreshUntil(page, "replication-failed", /^1$/);
    assert.match(
      await card.getByTestId("replication-last-error").innerText(),
      /photos\/dog\.txt: the target cannot be reached/,
    );
  } finally {
    await browser.close();
    await remote?.close();
    await stack.close();
    await Deno.remove(remoteDir, { recursive: true });
  }
});
