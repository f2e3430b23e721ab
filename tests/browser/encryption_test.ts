/**
 * The bucket Summary's encryption against the real embedded storage: with a key store, the dialog refuses a
 * key the store does not have (saying so), SSE-KMS with its key shows as enabled and new objects really are
 * encrypted with it; without a key store the dialog says why encryption cannot be turned on and the
 * summary stays "Disabled".
 */
import assert from "node:assert/strict";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { NO_KMS_DETAIL } from "../../server/console/services/bucket_settings.ts";
import { startStack, TEST_KMS_KEY } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

Deno.test("browser: bucket encryption shows what the storage applies", async () => {
  const stack = await startStack({ env: { MINIO_KMS_SECRET_KEY: TEST_KMS_KEY } });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "vault");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    browser.expectConsoleError(/status of 404/); // no default encryption yet: the contract's "not configured"
    await page.goto("/buckets/vault");
    const summary = page.getByTestId("summary-encryption");
    await summary.getByRole("button", { name: "Disabled" }).click();
    assert.doesNotMatch(
      await page.locator("main").innerText(),
      /does not encrypt/,
      "no notice says encryption is not done",
    );
    const dialog = page.getByRole("dialog", { name: "Enable Bucket Encryption" });
    await dialog.getByLabel("Encryption Type").selectOption("sse-kms");
    await dialog.getByLabel("KMS Key ID").fill("invented-key");
    browser.expectConsoleError(/status of 400/);
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText(`The storage server's KMS has no key "invented-key".`).waitFor();
    await dialog.getByLabel("KMS Key ID").fill("deck-test-key");
    await dialog.getByRole("button", { name: "Save" }).click();
    await summary.getByRole("button", { name: "Enabled (SSE-KMS)" }).waitFor();

    // What the summary says is what new objects get.
    await putObject(stack.admin, "vault", "secret.txt", "a confidential line");
    const head = await stack.admin.send({ method: "HEAD", bucket: "vault", key: "secret.txt" });
    assert.equal(head.headers.get("x-amz-server-side-encryption"), "aws:kms");
    assert.equal(
      head.headers.get("x-amz-server-side-encryption-aws-kms-key-id"),
      "arn:aws:kms:deck-test-key",
    );
    await page.reload();
    await summary.getByRole("button", { name: "Enabled (SSE-KMS)" }).waitFor();
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: without a key store the encryption dialog says why it cannot encrypt", async () => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "plain");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    browser.expectConsoleError(/status of 404/);
    await page.goto("/buckets/plain");
    const summary = page.getByTestId("summary-encryption");
    await summary.getByRole("button", { name: "Disabled" }).click();
    const dialog = page.getByRole("dialog", { name: "Enable Bucket Encryption" });
    await dialog.getByLabel("Encryption Type").selectOption("sse-s3");
    browser.expectConsoleError(/status of 501/);
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText(NO_KMS_DETAIL).waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await summary.getByRole("button", { name: "Disabled" }).waitFor();
    await assert.rejects(
      stack.admin.send({
        method: "PUT",
        bucket: "plain",
        key: "x",
        body: new TextEncoder().encode("x"),
        headers: { "x-amz-server-side-encryption": "AES256" },
      }),
      (error: { code?: string; status?: number }) => error.code === "NotImplemented" && error.status === 501,
      "and the storage refuses SSE-S3 on objects too",
    );
  } finally {
    await browser.close();
    await stack.close();
  }
});
