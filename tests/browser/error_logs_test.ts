/**
 * Logs › Error Logs (spec 3 §2.6) in Chromium: an event the storage cannot deliver, caused by an upload made
 * with the AWS SDK, shows as an error with its API, time, request id, remote host, user agent, message and
 * source lines, not as one line of text.
 */
import assert from "node:assert/strict";
import { PutObjectCommand, S3Client as SdkClient } from "@aws-sdk/client-s3";
import { serviceRestart, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { putBucketNotification } from "../../server/lib/s3/ops/notification.ts";
import { startStack } from "../helpers.ts";
import { closedPort } from "../notify_services.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

Deno.test("browser: an undeliverable event shows in Error Logs with the request behind it", async () => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  const sdk = new SdkClient({
    endpoint: stack.storage.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: stack.storage.root.accessKey, secretAccessKey: stack.storage.root.secretKey },
  });
  try {
    await makeBucket(stack.admin, "evenements-2024");
    await setConfigKV(stack.admin, `notify_webhook:alerts endpoint=http://127.0.0.1:${closedPort()}/hook`);
    await serviceRestart(stack.admin);
    await putBucketNotification(stack.admin, "evenements-2024", [{
      id: "to-alerts",
      arn: "arn:minio:sqs::alerts:webhook",
      events: ["s3:ObjectCreated:*"],
    }]);
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/logs");
    await page.getByRole("status").getByText("Live").waitFor();

    const put = await sdk.send(
      new PutObjectCommand({ Bucket: "evenements-2024", Key: "rapport 2024 #1 🙂.txt", Body: "hello" }),
    );
    const errors = page.getByTestId("error-logs").locator("div[data-level=ERROR]", {
      hasText: "notification target alerts:webhook",
    });
    const entry = errors.filter({ hasText: "cannot be reached" });
    await entry.waitFor();
    const text = await entry.innerText();
    assert.match(text, /^API: s3:ObjectCreated:Put$/m);
    assert.match(text, /^Time: \S/m);
    assert.match(text, /^DeploymentID: \S+/m);
    assert.match(text, new RegExp(`^RequestID: ${put.$metadata.requestId}$`, "m"), "the upload's request");
    assert.match(text, /^RemoteHost: 127\.0\.0\.1$/m);
    assert.match(text, /^UserAgent: .*aws-sdk-js/m);
    assert.match(text, /^Error: notification target alerts:webhook: .+/m);
    assert.match(text, /^\s+1:\u00a0server\/storage\/notify\/\S+\.ts:\d+:\d+:\S+\(\)$/m, "where it failed");
    const dropped = errors.filter({ hasText: "1 event(s) dropped" });
    assert.match(await dropped.innerText(), new RegExp(`^RequestID: ${put.$metadata.requestId}$`, "m"));
  } finally {
    sdk.destroy();
    await browser.close().finally(() => stack.close());
  }
});
