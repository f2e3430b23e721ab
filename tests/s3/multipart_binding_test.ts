/**
 * An upload id is bound to its bucket and key. A user whose IAM policy allows one prefix, and who learned the
 * id of another key's upload, cannot list its parts, add to it, complete it or abort it by naming a key of
 * their own: every such call answers NoSuchUpload (404), and the other upload is untouched and completes. A
 * part sent to another bucket's upload is NoSuchUpload too, also through the console's resumable upload (with
 * the storage on its own thread that large part came back as a 500: tests/api/flood_test.ts sends it there).
 */
import assert from "node:assert/strict";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { createUser, signInAsRoot, startStack } from "../helpers.ts";
import { failsWith } from "./sdk_client.ts";

const ALICE_POLICY = {
  Version: "2012-10-17",
  Statement: [{
    Effect: "Allow",
    Action: ["s3:PutObject", "s3:GetObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
    Resource: ["arn:aws:s3:::shared/alice/*"],
  }, {
    Effect: "Allow",
    Action: ["s3:ListBucket", "s3:ListBucketMultipartUploads"],
    Resource: ["arn:aws:s3:::shared"],
    Condition: { StringLike: { "s3:prefix": ["alice/*"] } },
  }],
};
const BOBS_KEY = "bob/plan für 2027 🚀 #1?.bin";
const MiB = 1024 * 1024;

function sdkFor(url: string, accessKeyId: string, secretAccessKey: string): S3Client {
  return new S3Client({
    endpoint: url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
  });
}

Deno.test("an upload id only works with its own bucket and key", async (t) => {
  const stack = await startStack();
  const root = sdkFor(stack.storage.url, stack.storage.root.accessKey, stack.storage.root.secretKey);
  const alice = sdkFor(stack.storage.url, "alice", "alice-secret-1");
  try {
    for (const bucket of ["shared", "elsewhere"]) {
      await root.send(new CreateBucketCommand({ Bucket: bucket }));
    }
    await createUser(stack, "alice", "alice-secret-1", [{ name: "alice-prefix", document: ALICE_POLICY }]);
    const { UploadId } = await root.send(
      new CreateMultipartUploadCommand({ Bucket: "shared", Key: BOBS_KEY }),
    );
    const bobsPart = new Uint8Array(5 * MiB).map((_, i) => (i * 7) & 0xff);
    const { ETag } = await root.send(
      new UploadPartCommand({ Bucket: "shared", Key: BOBS_KEY, UploadId, PartNumber: 1, Body: bobsPart }),
    );
    const mine = { Bucket: "shared", Key: "alice/mine ✓.bin", UploadId };

    await t.step("a prefix-limited user naming their own key gets NoSuchUpload for every call", async () => {
      await failsWith(alice.send(new ListPartsCommand(mine)), "NoSuchUpload", 404);
      await failsWith(
        alice.send(new UploadPartCommand({ ...mine, PartNumber: 2, Body: new Uint8Array(1024) })),
        "NoSuchUpload",
        404,
      );
      await failsWith(
        alice.send(
          new CompleteMultipartUploadCommand({
            ...mine,
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] },
          }),
        ),
        "NoSuchUpload",
        404,
      );
      await failsWith(alice.send(new AbortMultipartUploadCommand(mine)), "NoSuchUpload", 404);
    });

    await t.step("another bucket's name gets NoSuchUpload too", async () => {
      const there = { Bucket: "elsewhere", Key: BOBS_KEY, UploadId };
      await failsWith(root.send(new ListPartsCommand(there)), "NoSuchUpload", 404);
      await failsWith(
        root.send(new UploadPartCommand({ ...there, PartNumber: 2, Body: new Uint8Array(1024) })),
        "NoSuchUpload",
        404,
      );
      await failsWith(root.send(new AbortMultipartUploadCommand(there)), "NoSuchUpload", 404);
    });

    await t.step(
      "through the console, a large part for another bucket's upload is NoSuchUpload",
      async () => {
        const console = await signInAsRoot(stack);
        const res = await fetch(
          `${stack.consoleUrl}/api/v1/buckets/elsewhere/uploads/${UploadId}/parts/1?key=${
            encodeURIComponent(BOBS_KEY)
          }`,
          {
            method: "PUT",
            body: new Uint8Array(6 * MiB),
            headers: { cookie: console.cookie, origin: stack.consoleUrl },
          },
        );
        const body = await res.json();
        assert.equal(res.status, 404, JSON.stringify(body));
        assert.match(body.detailedMessage, /multipart upload does not exist/);
      },
    );

    await t.step("the upload itself is untouched and completes", async () => {
      const parts = await root.send(new ListPartsCommand({ Bucket: "shared", Key: BOBS_KEY, UploadId }));
      assert.deepEqual(parts.Parts?.map((p) => [p.PartNumber, p.ETag]), [[1, ETag]]);
      await root.send(
        new CompleteMultipartUploadCommand({
          Bucket: "shared",
          Key: BOBS_KEY,
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] },
        }),
      );
      const got = await root.send(new GetObjectCommand({ Bucket: "shared", Key: BOBS_KEY }));
      assert.deepEqual(await got.Body!.transformToByteArray(), bobsPart);
    });
  } finally {
    root.destroy();
    alice.destroy();
    await stack.close();
  }
});
