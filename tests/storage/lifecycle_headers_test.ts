/**
 * Lifecycle prediction headers (minio-protocol-2 §6.2): GET, HEAD, PUT, copy and completed multipart uploads
 * announce a version's next lifecycle action as MinIO does, `x-amz-expiration: expiry-date="…", rule-id="…"`
 * or `X-Minio-Transition: transition-date="…", rule-id="…"`, with MinIO's day arithmetic (the first midnight
 * UTC after the modification time plus the days; noncurrent versions from their successor's time). The
 * scanner does not run on its own here (real 24 h days); one scan is started by hand to transition an object.
 * The AWS SDK reads the same header as `Expiration`.
 */
import assert from "node:assert/strict";
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client as AwsS3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import * as s3 from "../../server/lib/s3/mod.ts";
import { type LifecycleRule, putBucketLifecycle } from "../../server/lib/s3/ops/lifecycle.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { startStorage } from "../s3/fixture.ts";

const DAY = 86_400_000;
const rule = (id: string, fields: Partial<LifecycleRule>): LifecycleRule => ({
  id,
  status: "Enabled",
  ...fields,
});
/** MinIO's ExpectedExpiryTime: the first midnight UTC after `t` plus `days` days, as an HTTP date. */
const midnightAfter = (t: number, days: number) =>
  new Date(Math.floor((t + (days + 1) * DAY) / DAY) * DAY).toUTCString();
const expiration = (date: string, rule: string) => `expiry-date="${date}", rule-id="${rule}"`;
const transition = (date: string, rule: string) => `transition-date="${date}", rule-id="${rule}"`;

Deno.test("GET, HEAD and PUT announce the next lifecycle action: x-amz-expiration or X-Minio-Transition", async (t) => {
  const tier = await startStorage();
  const dataDir = await Deno.makeTempDir({ prefix: "deck-lifecycle-headers-" });
  const source = await startEmbeddedStorage({ dataDir, port: 0, lifecycle: { intervalMs: 0 } });
  const root = new s3.S3Client({ endpoint: source.url, credentials: source.root });
  const sdk = new AwsS3Client({
    endpoint: source.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: source.root.accessKey, secretAccessKey: source.root.secretKey },
  });
  /** The prediction headers of a GET and a HEAD, which must agree. */
  const predicted = async (key: string, versionId?: string) => {
    const head = await root.send({ method: "HEAD", bucket: "life", key, query: { versionId } });
    const get = await root.send({ method: "GET", bucket: "life", key, query: { versionId } });
    await get.body?.cancel();
    const pick = (h: Headers) => ({
      expiration: h.get("x-amz-expiration"),
      transition: h.get("x-minio-transition"),
    });
    assert.deepEqual(pick(get.headers), pick(head.headers), `GET and HEAD of ${key} agree`);
    return { ...pick(head.headers), modified: Date.parse(head.headers.get("last-modified")!) };
  };
  try {
    await s3.makeBucket(tier.root, "warm");
    await s3.addTier(root, {
      Version: "v1",
      Type: "minio",
      Name: "WARM",
      MinIO: {
        Endpoint: tier.storage.url,
        AccessKey: tier.storage.root.accessKey,
        SecretKey: tier.storage.root.secretKey,
        Bucket: "warm",
        Prefix: "",
        Region: "",
      },
    });
    await s3.makeBucket(root, "life");
    await s3.putBucketVersioning(root, "life", { status: "Enabled" });
    await s3.putObject(root, "life", "none/a", "no rule yet");
    await putBucketLifecycle(root, "life", [
      rule("expire-logs", { prefix: "logs/", expiration: { days: 3 } }),
      rule("dated", { prefix: "dated/", expiration: { date: "2030-01-01T00:00:00Z" } }),
      rule("temp-tag", { tags: [{ key: "class", value: "temp" }], expiration: { days: 1 } }),
      rule("cool-down", { prefix: "cold/", transition: { days: 1, storageClass: "WARM" } }),
      rule("cold-expiry", { prefix: "cold/", expiration: { days: 30 } }),
      rule("move-now", {
        prefix: "moved/",
        transition: { date: "2020-01-01T00:00:00Z", storageClass: "WARM" },
      }),
      rule("moved-expiry", { prefix: "moved/", expiration: { days: 10 } }),
      rule("old-versions", { prefix: "ver/", noncurrentExpiration: { noncurrentDays: 7 } }),
      rule("switched-off", { prefix: "none/", expiration: { days: 1 }, status: "Disabled" }),
    ]);

    await t.step(
      "an expiration by days or by date is announced on PUT, GET and HEAD; others say nothing",
      async () => {
        const put = await root.send({
          method: "PUT",
          bucket: "life",
          key: "logs/app.log",
          body: new TextEncoder().encode("line"),
        });
        const logs = await predicted("logs/app.log");
        assert.equal(logs.expiration, expiration(midnightAfter(logs.modified, 3), "expire-logs"));
        assert.equal(put.headers.get("x-amz-expiration"), logs.expiration);
        assert.equal(logs.transition, null);
        await s3.putObject(root, "life", "dated/report", "r");
        assert.equal(
          (await predicted("dated/report")).expiration,
          expiration("Tue, 01 Jan 2030 00:00:00 GMT", "dated"),
        );
        // No rule (a disabled one does not count), or a tag filter the object does not meet.
        assert.deepEqual(
          await predicted("none/a").then(({ expiration, transition }) => [expiration, transition]),
          [null, null],
        );
        await s3.putObject(root, "life", "tags/plain", "p", { tags: { class: "keep" } });
        await s3.putObject(root, "life", "tags/temp", "t", { tags: { class: "temp" } });
        assert.equal((await predicted("tags/plain")).expiration, null);
        const temp = await predicted("tags/temp");
        assert.equal(temp.expiration, expiration(midnightAfter(temp.modified, 1), "temp-tag"));
      },
    );

    await t.step("a transition due before the expiry is announced instead, as MinIO does", async () => {
      await s3.putObject(root, "life", "cold/data", "cold");
      const cold = await predicted("cold/data");
      assert.equal(cold.transition, transition(midnightAfter(cold.modified, 1), "cool-down"));
      assert.equal(cold.expiration, null);
    });

    await t.step("once transitioned, the expiry is what comes next", async () => {
      await s3.putObject(root, "life", "moved/data", "moving");
      assert.equal(
        (await predicted("moved/data")).transition,
        transition("Wed, 01 Jan 2020 00:00:00 GMT", "move-now"),
      );
      await source.lifecycle.scan();
      const moved = await s3.headObject(root, "life", "moved/data");
      assert.equal(moved.headers.get("x-amz-storage-class"), "WARM");
      const after = await predicted("moved/data");
      assert.equal(after.transition, null);
      assert.equal(after.expiration, expiration(midnightAfter(after.modified, 10), "moved-expiry"));
    });

    await t.step("a noncurrent version's expiry counts from when it became noncurrent", async () => {
      const old = (await s3.putObject(root, "life", "ver/k", "old")).versionId!;
      await s3.putObject(root, "life", "ver/k", "new");
      const current = await predicted("ver/k");
      assert.equal(current.expiration, null, "the current version has no rule of its own");
      const noncurrent = await predicted("ver/k", old);
      assert.equal(noncurrent.expiration, expiration(midnightAfter(current.modified, 7), "old-versions"));
    });

    await t.step(
      "copies and completed multipart uploads announce it too; the AWS SDK reads it as Expiration",
      async () => {
        const copied = await root.send({
          method: "PUT",
          bucket: "life",
          key: "logs/copy.log",
          headers: { "x-amz-copy-source": "/life/logs/app.log" },
        });
        await copied.body?.cancel();
        const copy = await predicted("logs/copy.log");
        assert.equal(copied.headers.get("x-amz-expiration"), copy.expiration);
        assert.equal(copy.expiration, expiration(midnightAfter(copy.modified, 3), "expire-logs"));

        const put = await sdk.send(
          new PutObjectCommand({ Bucket: "life", Key: "logs/sdk.log", Body: "sdk" }),
        );
        const head = await sdk.send(new HeadObjectCommand({ Bucket: "life", Key: "logs/sdk.log" }));
        assert.equal(
          head.Expiration,
          expiration(midnightAfter(head.LastModified!.getTime(), 3), "expire-logs"),
        );
        assert.equal(put.Expiration, head.Expiration);

        const { UploadId } = await sdk.send(
          new CreateMultipartUploadCommand({ Bucket: "life", Key: "dated/big" }),
        );
        const part = await sdk.send(
          new UploadPartCommand({ Bucket: "life", Key: "dated/big", UploadId, PartNumber: 1, Body: "part" }),
        );
        const done = await sdk.send(
          new CompleteMultipartUploadCommand({
            Bucket: "life",
            Key: "dated/big",
            UploadId,
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
          }),
        );
        assert.equal(done.Expiration, expiration("Tue, 01 Jan 2030 00:00:00 GMT", "dated"));
      },
    );
  } finally {
    sdk.destroy();
    await source.close();
    await tier.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
