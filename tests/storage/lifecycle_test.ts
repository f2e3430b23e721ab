/**
 * Lifecycle rules run by the embedded storage's scanner, on a fast interval and a one-second lifecycle day:
 * each rule kind (expiration by days, date, tag and size; noncurrent expiration with NewerNoncurrentVersions;
 * expired delete markers; aborting incomplete uploads; transitions by days, date and for noncurrent versions)
 * acts on exactly the objects it names. The tier is a second embedded storage server: transitioned data is
 * there and only there, reads back byte for byte (ranges too) through the source, an independent client
 * (AWS SDK v3) sees the tier as the storage class, deleting a version removes the remote copy, a tier in use
 * cannot be removed, heal reports transitioned versions as fine, and a GCS tier is stored but refused in rules.
 * Overwriting or deleting an unversioned transitioned object removes its remote copy, also when the tier was
 * down at the time (the removal is retried once it is back).
 */
import assert from "node:assert/strict";
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client as AwsS3Client,
} from "@aws-sdk/client-s3";
import * as s3 from "../../server/lib/s3/mod.ts";
import { type LifecycleRule, putBucketLifecycle } from "../../server/lib/s3/ops/lifecycle.ts";
import { prometheusBearerToken } from "../../server/lib/s3/prometheus_token.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "../../server/storage/server.ts";
import { rejectsWith, startStorage } from "../s3/fixture.ts";
import { eventually } from "../eventually.ts";

const PAST = "2020-01-01T00:00:00Z";

/** Waits for two more complete scans, so whatever was due has had its chance. */
async function settle(storage: EmbeddedStorage): Promise<void> {
  const target = storage.lifecycle.stats.scans + 2;
  await eventually("scans", () => Promise.resolve(storage.lifecycle.stats.scans), {
    until: (n) => n >= target,
  });
}

const keysOf = async (client: s3.S3Client, bucket: string) =>
  (await s3.listObjectsV2(client, bucket, { maxKeys: 1000 })).objects.map((o) => o.key).sort();
const versionsOf = async (client: s3.S3Client, bucket: string, prefix: string) =>
  (await s3.listObjectVersions(client, bucket, { prefix })).versions.map((v) =>
    `${v.key}:${v.isDeleteMarker ? "marker" : v.versionId}`
  );
const rule = (id: string, fields: Partial<LifecycleRule>): LifecycleRule => ({
  id,
  status: "Enabled",
  ...fields,
});
function bytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}
const read = async (res: Response) => new Uint8Array(await res.arrayBuffer());

Deno.test("lifecycle rules and tiers on the embedded storage", async (t) => {
  const tier = await startStorage();
  const dataDir = await Deno.makeTempDir({ prefix: "deck-lifecycle-" });
  let source = await startEmbeddedStorage({ dataDir, port: 0, lifecycle: { intervalMs: 100, dayMs: 1000 } });
  let root = new s3.S3Client({ endpoint: source.url, credentials: source.root });
  const events: string[] = [];
  // Events the scanner caused (client requests' events carry the client's user agent).
  const stopEvents = source.streams.events.sink((e) => {
    if (e.record.source.userAgent === "Internal: [ILM]") events.push(`${e.eventName} ${e.bucket}/${e.key}`);
  });
  const sdk = new AwsS3Client({
    endpoint: source.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: source.root.accessKey, secretAccessKey: source.root.secretKey },
  });
  try {
    await t.step(
      "expiration by days, date and tag; aborting incomplete uploads: only the named objects go",
      async () => {
        await s3.makeBucket(root, "exp");
        for (const key of ["days/a", "days/b", "date/x", "keep/a", "far/f"]) {
          await s3.putObject(root, "exp", key, `body of ${key}`);
        }
        await s3.putObject(root, "exp", "tagged/t1", "temp", { tags: { class: "temp" } });
        await s3.putObject(root, "exp", "tagged/t2", "perm", { tags: { class: "perm" } });
        await s3.putObject(root, "exp", "size/small", "x".repeat(10));
        await s3.putObject(root, "exp", "size/big", "x".repeat(200));
        const stale = await s3.createMultipartUpload(root, "exp", "mpu/x");
        const other = await s3.createMultipartUpload(root, "exp", "other/y");
        await putBucketLifecycle(root, "exp", [
          rule("by-days", { prefix: "days/", expiration: { days: 1 } }),
          rule("by-date", { prefix: "date/", expiration: { date: PAST } }),
          rule("by-tag", { tags: [{ key: "class", value: "temp" }], expiration: { days: 1 } }),
          rule("far-future", { prefix: "far/", expiration: { days: 100000 } }),
          rule("big-only", { prefix: "size/", sizeGreaterThan: 100, expiration: { days: 1 } }),
          rule("stale-uploads", { prefix: "mpu/", abortIncompleteMultipartUploadDays: 1 }),
          rule("disabled", { prefix: "keep/", expiration: { date: PAST }, status: "Disabled" }),
        ]);
        const expected = ["far/f", "keep/a", "size/small", "tagged/t2"];
        await eventually("expired keys", () => keysOf(root, "exp"), {
          until: (keys) => keys.join() === expected.join(),
        });
        await eventually("aborted uploads", () => s3.listMultipartUploads(root, "exp"), {
          until: (uploads) => uploads.length === 1,
        });
        await settle(source);
        assert.deepEqual(await keysOf(root, "exp"), expected);
        const uploads = await s3.listMultipartUploads(root, "exp");
        assert.deepEqual(
          uploads.map((u) => u.uploadId),
          [other],
        );
        assert.notEqual(stale, other);
      },
    );

    await t.step(
      "noncurrent expiration keeps NewerNoncurrentVersions; expiry under versioning adds a marker; lone markers go",
      async () => {
        await s3.makeBucket(root, "ver");
        await s3.putBucketVersioning(root, "ver", { status: "Enabled" });
        const nc: string[] = [];
        for (let i = 0; i < 4; i++) nc.push((await s3.putObject(root, "ver", "nc/k", `v${i}`)).versionId!);
        const kept: string[] = [];
        for (let i = 0; i < 3; i++) {
          kept.push((await s3.putObject(root, "ver", "other/k", `v${i}`)).versionId!);
        }
        const current = (await s3.putObject(root, "ver", "cur/k", "current")).versionId!;
        const lone = (await s3.putObject(root, "ver", "dm/lone", "x")).versionId!;
        await s3.deleteObject(root, "ver", "dm/lone");
        await s3.deleteObject(root, "ver", "dm/lone", { versionId: lone });
        const behind = (await s3.putObject(root, "ver", "dm/kept", "x")).versionId!;
        await s3.deleteObject(root, "ver", "dm/kept");
        await putBucketLifecycle(root, "ver", [
          rule("noncurrent", {
            prefix: "nc/",
            noncurrentExpiration: { noncurrentDays: 1, newerNoncurrentVersions: 1 },
          }),
          rule("current", { prefix: "cur/", expiration: { days: 1 } }),
          rule("markers", { prefix: "dm/", expiration: { expiredObjectDeleteMarker: true } }),
        ]);
        await eventually("noncurrent versions", () => versionsOf(root, "ver", "nc/"), {
          until: (v) => v.length === 2,
        });
        await eventually("current expiry", () => versionsOf(root, "ver", "cur/"), {
          until: (v) => v.length === 2,
        });
        await eventually("lone marker", () => versionsOf(root, "ver", "dm/lone"), {
          until: (v) => v.length === 0,
        });
        await settle(source);
        assert.deepEqual(await versionsOf(root, "ver", "nc/"), [`nc/k:${nc[3]}`, `nc/k:${nc[2]}`]);
        assert.deepEqual(await versionsOf(root, "ver", "cur/"), ["cur/k:marker", `cur/k:${current}`]);
        assert.deepEqual(await versionsOf(root, "ver", "dm/"), ["dm/kept:marker", `dm/kept:${behind}`]);
        assert.deepEqual(
          await versionsOf(root, "ver", "other/"),
          [...kept].reverse().map((v) => `other/k:${v}`),
        );
      },
    );

    const big = bytes(300 * 1024 + 7);
    const small = bytes(1000);
    let bigVersion = "";
    await t.step(
      "transitions by days, date and for noncurrent versions move the data to the tier",
      async () => {
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
            Prefix: "deck/",
            Region: "",
          },
        });
        await s3.makeBucket(root, "tiered");
        await s3.putBucketVersioning(root, "tiered", { status: "Enabled" });
        bigVersion =
          (await s3.putObject(root, "tiered", "cold/big", big, { contentType: "application/x-test" }))
            .versionId!;
        await s3.putObject(root, "tiered", "cold/small", small);
        await s3.putObject(root, "tiered", "dated/d", "dated");
        await s3.putObject(root, "tiered", "hot/x", "hot");
        const old = (await s3.putObject(root, "tiered", "nct/k", big)).versionId!;
        const fresh = (await s3.putObject(root, "tiered", "nct/k", "fresh")).versionId!;
        await putBucketLifecycle(root, "tiered", [
          rule("cold", { prefix: "cold/", transition: { days: 1, storageClass: "WARM" } }),
          rule("dated", { prefix: "dated/", transition: { date: PAST, storageClass: "WARM" } }),
          rule("noncurrent", {
            prefix: "nct/",
            noncurrentTransition: { noncurrentDays: 1, storageClass: "WARM" },
          }),
        ]);
        const classes = async () => {
          const out: Record<string, string> = {};
          for (const v of (await s3.listObjectVersions(root, "tiered")).versions) {
            out[`${v.key}@${v.versionId === old ? "old" : v.versionId === fresh ? "fresh" : "-"}`] =
              v.storageClass ?? "";
          }
          return out;
        };
        const expected = {
          "cold/big@-": "WARM",
          "cold/small@-": "WARM",
          "dated/d@-": "WARM",
          "hot/x@-": "STANDARD",
          "nct/k@fresh": "STANDARD",
          "nct/k@old": "WARM",
        };
        await eventually("storage classes", classes, {
          until: (c) => JSON.stringify(c) === JSON.stringify(expected),
        });
        await settle(source);
        assert.deepEqual(await classes(), expected);

        // The bytes are on the tier, under the tier's prefix, and no longer in the source's data directory.
        const remote = await s3.listObjectsV2(tier.root, "warm", { prefix: "deck/", maxKeys: 1000 });
        assert.equal(remote.objects.length, 4);
        const remoteBig = remote.objects.filter((o) => o.size === big.length);
        assert.equal(remoteBig.length, 2);
        assert.deepEqual(await read(await s3.getObject(tier.root, "warm", remoteBig[0].key)), big);
        const localFiles: string[] = [];
        for await (const fan of Deno.readDir(`${dataDir}/buckets/tiered/objects`)) {
          for await (
            const file of Deno.readDir(`${dataDir}/buckets/tiered/objects/${fan.name}`)
          ) if (file.name.endsWith(".data")) localFiles.push(file.name);
        }
        assert.deepEqual(localFiles, []);

        // Read through the source, byte for byte, whole and in ranges; metadata unchanged.
        assert.deepEqual(await read(await s3.getObject(root, "tiered", "cold/big")), big);
        assert.deepEqual(
          await read(await s3.getObject(root, "tiered", "cold/big", { range: [1000, 200_000] })),
          big.slice(1000, 200_001),
        );
        assert.deepEqual(await read(await s3.getObject(root, "tiered", "cold/small")), small);
        assert.deepEqual(await read(await s3.getObject(root, "tiered", "nct/k", { versionId: old })), big);
        const head = await s3.headObject(root, "tiered", "cold/big");
        assert.equal(head.size, big.length);
        assert.equal(head.contentType, "application/x-test");
        assert.equal(head.headers.get("x-amz-storage-class"), "WARM");
      },
    );

    await t.step(
      "an independent client (AWS SDK v3) sees the storage class and reads the bytes",
      async () => {
        const head = await sdk.send(new HeadObjectCommand({ Bucket: "tiered", Key: "cold/big" }));
        assert.equal(head.StorageClass, "WARM");
        assert.equal(head.ContentLength, big.length);
        const listed = await sdk.send(new ListObjectsV2Command({ Bucket: "tiered", Prefix: "cold/" }));
        assert.deepEqual(listed.Contents?.map((o) => [o.Key, o.StorageClass]), [["cold/big", "WARM"], [
          "cold/small",
          "WARM",
        ]]);
        const ranged = await sdk.send(
          new GetObjectCommand({ Bucket: "tiered", Key: "cold/big", Range: "bytes=-5000" }),
        );
        assert.deepEqual(await ranged.Body!.transformToByteArray(), big.slice(big.length - 5000));
        const hot = await sdk.send(new HeadObjectCommand({ Bucket: "tiered", Key: "hot/x" }));
        assert.equal(hot.StorageClass, undefined);
      },
    );

    await t.step("heal reports transitioned versions as intact", async () => {
      const { clientToken } = await s3.healStart(root, "tiered", "", {
        recursive: true,
        dryRun: true,
        remove: false,
        scanMode: 1,
      });
      const items: s3.HealResultItem[] = [];
      await eventually("heal", async () => {
        const status = await s3.healStatus(root, "tiered", "", clientToken);
        items.push(...(status.items ?? []));
        return status.summary;
      }, { until: (summary) => summary === "finished" });
      const objects = items.filter((i) => i.type === "object");
      assert.ok(objects.some((i) => i.object === "cold/big"), "cold/big was checked");
      assert.ok(
        objects.every((i) => i.before.drives?.[0].state === "ok"),
        JSON.stringify(objects.map((i) => [i.object, i.before.drives?.[0].state])),
      );
    });

    await t.step(
      "a tier holding data cannot be removed; deleting a version removes its remote copy",
      async () => {
        await rejectsWith(s3.removeTier(root, "WARM"), "XMinioAdminTierBackendNotEmpty");
        assert.deepEqual((await s3.listTiers(root)).map((x) => x.Name), ["WARM"]);
        const before =
          (await s3.listObjectsV2(tier.root, "warm", { prefix: "deck/", maxKeys: 1000 })).objects;
        // A delete marker keeps the version and its remote copy; deleting the version lets the copy go.
        await s3.deleteObject(root, "tiered", "cold/big");
        assert.equal(
          (await s3.listObjectsV2(tier.root, "warm", { prefix: "deck/", maxKeys: 1000 })).objects.length,
          4,
        );
        assert.deepEqual(
          await read(await s3.getObject(root, "tiered", "cold/big", { versionId: bigVersion })),
          big,
        );
        await s3.deleteObject(root, "tiered", "cold/big", { versionId: bigVersion });
        const after = await eventually(
          "remote copy removed",
          async () => (await s3.listObjectsV2(tier.root, "warm", { prefix: "deck/", maxKeys: 1000 })).objects,
          { until: (o) => o.length === 3 },
        );
        const gone = before.filter((o) => !after.some((a) => a.key === o.key));
        assert.equal(gone.length, 1);
        assert.equal(gone[0].size, big.length);
      },
    );

    await t.step(
      "a GCS tier is validated and stored, and a rule naming it is refused with a clear message",
      async () => {
        await s3.addTier(root, {
          Version: "v1",
          Type: "gcs",
          Name: "GLACIAL",
          GCS: {
            Endpoint: "https://storage.googleapis.com/",
            Creds: btoa(JSON.stringify({ type: "service_account" })),
            Bucket: "b",
            Prefix: "p",
            Region: "",
          },
        });
        await rejectsWith(
          s3.addTier(root, {
            Version: "v1",
            Type: "gcs",
            Name: "BROKEN",
            GCS: {
              Endpoint: "https://storage.googleapis.com/",
              Creds: "not base64 json",
              Bucket: "b",
              Prefix: "",
              Region: "",
            },
          }),
          "XMinioAdminTierInvalidConfig",
        );
        assert.deepEqual((await s3.listTiers(root)).map((x) => x.Name), ["WARM", "GLACIAL"]);
        await assert.rejects(
          putBucketLifecycle(root, "tiered", [
            rule("gcs", { prefix: "x/", transition: { days: 1, storageClass: "GLACIAL" } }),
          ]),
          (error: Error & { code?: string }) =>
            error.code === "NotImplemented" && /GCS tier.*only to S3 and MinIO tiers/.test(error.message),
        );
        await s3.removeTier(root, "GLACIAL");
      },
    );

    await t.step("bucket events say what the scans did", () => {
      const lifecycleEvents = events;
      for (
        const expected of [
          "s3:ObjectRemoved:Delete exp/days/a",
          "s3:ObjectRemoved:Delete exp/size/big",
          "s3:ObjectRemoved:DeleteMarkerCreated ver/cur/k",
          "s3:ObjectRemoved:Delete ver/dm/lone",
          "s3:ObjectTransition:Complete tiered/cold/big",
          "s3:ObjectTransition:Complete tiered/nct/k",
        ]
      ) {
        assert.ok(lifecycleEvents.includes(expected), `${expected} in ${lifecycleEvents.join(", ")}`);
      }
      assert.ok(
        !lifecycleEvents.some((e) => / (exp\/(keep|far|size\/small|tagged\/t2)|tiered\/hot)/.test(e)),
        lifecycleEvents.join(", "),
      );
      assert.equal(lifecycleEvents.filter((e) => e.startsWith("s3:ObjectTransition:Complete")).length, 4);
    });

    await t.step(
      "the metrics endpoint reports what the scans evaluated, expired and transitioned",
      async () => {
        const res = await fetch(`${source.url}/minio/v2/metrics/node`, {
          headers: { authorization: `Bearer ${await prometheusBearerToken(source.root)}` },
        });
        const text = await res.text();
        const value = (name: string) =>
          Number(text.split("\n").find((l) => l.startsWith(`${name}{`))?.split(" ").pop());
        assert.ok(value("minio_node_ilm_versions_scanned") > 20, text);
        assert.ok(value("minio_node_ilm_scans_total") >= 6);
        assert.equal(value("minio_node_ilm_transitioned_versions_total"), 4);
        assert.equal(value("minio_node_ilm_expired_delete_markers_total"), 1);
        assert.equal(value("minio_node_ilm_aborted_uploads_total"), 1);
        // exp: days/a, days/b, date/x, tagged/t1, size/big; ver: nc/k ×2, cur/k.
        assert.equal(value("minio_node_ilm_expired_versions_total"), 8);
      },
    );
    await t.step("after a restart transitioned versions still read back from the tier", async () => {
      stopEvents();
      await source.close();
      source = await startEmbeddedStorage({ dataDir, port: 0, lifecycle: { intervalMs: 100, dayMs: 1000 } });
      root = new s3.S3Client({ endpoint: source.url, credentials: source.root });
      assert.deepEqual(await read(await s3.getObject(root, "tiered", "cold/small")), small);
      const old = (await s3.listObjectVersions(root, "tiered", { prefix: "nct/" })).versions.find((v) =>
        !v.isLatest
      )!;
      assert.equal(old.storageClass, "WARM");
      assert.deepEqual(
        await read(await s3.getObject(root, "tiered", "nct/k", { versionId: old.versionId })),
        big,
      );
      await rejectsWith(s3.removeTier(root, "WARM"), "XMinioAdminTierBackendNotEmpty");
    });
  } finally {
    stopEvents();
    sdk.destroy();
    await source.close();
    await tier.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("remote copies go when an unversioned object is overwritten or deleted, also after a tier outage", async () => {
  const tierDir = await Deno.makeTempDir({ prefix: "deck-tier-" });
  const dataDir = await Deno.makeTempDir({ prefix: "deck-lifecycle-" });
  let tier = await startEmbeddedStorage({ dataDir: tierDir, port: 0 });
  const tierPort = Number(new URL(tier.url).port);
  const tierClient = new s3.S3Client({ endpoint: tier.url, credentials: tier.root });
  const source = await startEmbeddedStorage({
    dataDir,
    port: 0,
    lifecycle: { intervalMs: 100, dayMs: 1000 },
  });
  const root = new s3.S3Client({ endpoint: source.url, credentials: source.root });
  const remoteKeys = async () =>
    (await s3.listObjectsV2(tierClient, "cold", { maxKeys: 1000 })).objects.map((o) => o.key).sort();
  const pending = async () => {
    const text = await (await fetch(`${source.url}/minio/v2/metrics/node`, {
      headers: { authorization: `Bearer ${await prometheusBearerToken(source.root)}` },
    })).text();
    return Number(
      text.split("\n").find((l) => l.startsWith("minio_node_ilm_tier_pending_removals{"))?.split(" ").pop(),
    );
  };
  try {
    await s3.makeBucket(tierClient, "cold");
    await s3.addTier(root, {
      Version: "v1",
      Type: "minio",
      Name: "COLD",
      MinIO: {
        Endpoint: tier.url,
        AccessKey: tier.root.accessKey,
        SecretKey: tier.root.secretKey,
        Bucket: "cold",
        Prefix: "",
        Region: "",
      },
    });
    await s3.makeBucket(root, "plain");
    await s3.putObject(root, "plain", "t/a", "first a");
    await s3.putObject(root, "plain", "t/b", "only b");
    await putBucketLifecycle(root, "plain", [
      rule("cold", { prefix: "t/", transition: { days: 1, storageClass: "COLD" } }),
    ]);
    const first = await eventually("both transitioned", remoteKeys, { until: (keys) => keys.length === 2 });
    await eventually("storage class", () => s3.headObject(root, "plain", "t/b"), {
      until: (h) => h.headers.get("x-amz-storage-class") === "COLD",
    });
    const remoteOf = async (body: string) => {
      for (const key of await remoteKeys()) {
        if (new TextDecoder().decode(await read(await s3.getObject(tierClient, "cold", key))) === body) {
          return key;
        }
      }
      throw new Error(`no remote copy holds ${body}`);
    };
    const remoteA = await remoteOf("first a");
    const remoteB = await remoteOf("only b");
    assert.deepEqual([remoteA, remoteB].sort(), first);

    // Overwriting the null version lets its remote copy go (the new bytes are transitioned in turn).
    await s3.putObject(root, "plain", "t/a", "second a");
    await eventually("old copy of t/a removed", remoteKeys, { until: (keys) => !keys.includes(remoteA) });
    assert.equal(new TextDecoder().decode(await read(await s3.getObject(root, "plain", "t/a"))), "second a");

    // With the tier down the removal waits, and happens once the tier is back.
    await tier.close();
    await s3.deleteObject(root, "plain", "t/b");
    await rejectsWith(s3.headObject(root, "plain", "t/b"), "NoSuchKey");
    await eventually("removal pending", pending, { until: (n) => n >= 1 });
    tier = await startEmbeddedStorage({ dataDir: tierDir, port: tierPort });
    await eventually("pending removal done", remoteKeys, { until: (keys) => !keys.includes(remoteB) });
    await eventually("nothing pending", pending, { until: (n) => n === 0 });
  } finally {
    await source.close();
    await tier.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await Deno.remove(tierDir, { recursive: true }).catch(() => {});
  }
});
