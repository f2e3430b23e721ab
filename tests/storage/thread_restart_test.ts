/**
 * The embedded storage's thread is supervised (server/storage/thread.ts): a thread that ends without closing
 * (killed here through the test hook, as a fatal fault in it would end it) stops answering the heartbeat and
 * is started again on the same data directory and address. Clients keep their endpoint, and what was there
 * before is there after: objects, a multipart upload in progress with its parts, the bucket's settings.
 */
import assert from "node:assert/strict";
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { silentLogger } from "../../server/lib/http/log.ts";
import { killForTests, startStorageThread } from "../../server/storage/thread.ts";
import { within } from "../eventually.ts";

const ROOT = { accessKey: "threadroot", secretKey: "thread-secret-123456" };
const KEY = "före/after 🚀 #1?.txt";

Deno.test({
  name: "a storage thread that dies is started again on the same data and address",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-thread-" });
  const restarts: (() => void)[] = [];
  const restarted = () => new Promise<void>((resolve) => restarts.push(resolve));
  const thread = await startStorageThread({
    dataDir,
    hostname: "127.0.0.1",
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
    logLevel: "error",
  }, { heartbeatMs: 100, missedBeats: 3, log: silentLogger, onRestart: () => restarts.shift()?.() });
  const sdk = new S3Client({
    endpoint: thread.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: ROOT.accessKey, secretAccessKey: ROOT.secretKey },
  });
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "kept" }));
    await sdk.send(
      new PutBucketVersioningCommand({
        Bucket: "kept",
        VersioningConfiguration: { Status: "Enabled" },
      }),
    );
    await sdk.send(new PutObjectCommand({ Bucket: "kept", Key: KEY, Body: "written before the fault" }));
    const { UploadId } = await sdk.send(new CreateMultipartUploadCommand({ Bucket: "kept", Key: "big.bin" }));
    const part = new Uint8Array(5 * 1024 * 1024).map((_, i) => i & 0xff);
    const first = await sdk.send(
      new UploadPartCommand({ Bucket: "kept", Key: "big.bin", UploadId, PartNumber: 1, Body: part }),
    );

    for (const round of [1, 2]) {
      const back = restarted();
      killForTests(thread);
      await within(`round ${round}: the thread to be started again`, back);
      const got = await sdk.send(new GetObjectCommand({ Bucket: "kept", Key: KEY }));
      assert.equal(await got.Body!.transformToString(), "written before the fault", `round ${round}`);
    }

    const versioning = await sdk.send(new GetBucketVersioningCommand({ Bucket: "kept" }));
    assert.equal(versioning.Status, "Enabled");
    const parts = await sdk.send(new ListPartsCommand({ Bucket: "kept", Key: "big.bin", UploadId }));
    assert.deepEqual(parts.Parts?.map((p) => [p.PartNumber, p.ETag]), [[1, first.ETag]]);
    await sdk.send(
      new CompleteMultipartUploadCommand({
        Bucket: "kept",
        Key: "big.bin",
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: first.ETag }] },
      }),
    );
    const big = await sdk.send(new GetObjectCommand({ Bucket: "kept", Key: "big.bin" }));
    assert.deepEqual(await big.Body!.transformToByteArray(), part);
  } finally {
    sdk.destroy();
    await thread.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
