/**
 * Bucket policies with MinIO's s3:x-amz-* condition keys (the AWS SDK v3 sets the policy; anonymous clients
 * are judged by it): the keys are accepted and test the request's headers.
 */
import assert from "node:assert/strict";
import { CreateBucketCommand, PutBucketPolicyCommand } from "@aws-sdk/client-s3";
import { customerKeyHeaders } from "./sse_helpers.ts";
import { startSdkStorage } from "./sdk_client.ts";

Deno.test("bucket policy: s3:x-amz-server-side-encryption-customer-algorithm and s3:x-amz-storage-class", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "drop-box" }));
    const policy = {
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Principal: { AWS: ["*"] },
          Action: ["s3:PutObject"],
          Resource: ["arn:aws:s3:::drop-box/sealed/*"],
          Condition: { StringEquals: { "s3:x-amz-server-side-encryption-customer-algorithm": ["AES256"] } },
        },
        {
          Effect: "Allow",
          Principal: { AWS: ["*"] },
          Action: ["s3:PutObject"],
          Resource: ["arn:aws:s3:::drop-box/cold/*"],
          Condition: { StringEquals: { "s3:x-amz-storage-class": ["STANDARD"] } },
        },
      ],
    };
    await f.sdk.send(new PutBucketPolicyCommand({ Bucket: "drop-box", Policy: JSON.stringify(policy) }));
    const put = async (key: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${f.storage.url}/drop-box/${key}`, {
        method: "PUT",
        headers,
        body: "anonymous",
      });
      await res.body?.cancel();
      return res.status;
    };
    assert.equal(await put("sealed/plain.txt"), 403, "no customer key: the condition does not hold");
    assert.equal(await put("sealed/%C3%A9t%C3%A9%20%F0%9F%98%80.txt", customerKeyHeaders(5)), 200);
    assert.equal(await put("cold/a.txt"), 403);
    assert.equal(await put("cold/a.txt", { "x-amz-storage-class": "STANDARD" }), 200);
  } finally {
    await f.close();
  }
});
