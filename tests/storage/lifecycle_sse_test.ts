/**
 * Encrypted versions are deliberately not transitioned (server/storage/lifecycle/actions.ts): their bytes
 * would reach the tier only decrypted or sealed with keys it cannot open. Under one transition rule that is
 * due, the unencrypted object moves to the tier while SSE-S3, SSE-KMS and SSE-C objects stay local and read
 * back byte for byte, also with the tier stopped.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { putBucketLifecycle } from "../../server/lib/s3/ops/lifecycle.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { customerKeyHeaders, KMS_KEY, pattern, sameBytes } from "../s3/sse_helpers.ts";

const SSE_C = customerKeyHeaders(3);
const ENCRYPTED: Record<string, Record<string, string>> = {
  "t/sse-s3": { "x-amz-server-side-encryption": "AES256" },
  "t/sse-kms": { "x-amz-server-side-encryption": "aws:kms" },
  "t/sse-c": SSE_C,
};

Deno.test("a due transition moves the unencrypted object and leaves encrypted ones local and readable", async () => {
  const tierDir = await Deno.makeTempDir({ prefix: "deck-tier-" });
  const dataDir = await Deno.makeTempDir({ prefix: "deck-lifecycle-sse-" });
  let tier: Awaited<ReturnType<typeof startEmbeddedStorage>> | null = await startEmbeddedStorage({
    dataDir: tierDir,
    port: 0,
  });
  const tierClient = new s3.S3Client({ endpoint: tier.url, credentials: tier.root });
  // No scans on a timer: each pass is started here, so the test knows when one has happened.
  const source = await startEmbeddedStorage({
    dataDir,
    port: 0,
    kmsSecretKey: KMS_KEY,
    lifecycle: { intervalMs: 0 },
  });
  const root = new s3.S3Client({ endpoint: source.url, credentials: source.root });
  const put = (key: string, body: Uint8Array, headers: Record<string, string> = {}) =>
    root.send({ method: "PUT", bucket: "mixed", key, body, headers });
  const read = async (key: string, headers: Record<string, string> = {}) => {
    const res = await root.send({ method: "GET", bucket: "mixed", key, headers });
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      storageClass: res.headers.get("x-amz-storage-class"),
      sse: res.headers.get("x-amz-server-side-encryption"),
    };
  };
  try {
    await s3.makeBucket(tierClient, "warm");
    await s3.addTier(root, {
      Version: "v1",
      Type: "minio",
      Name: "WARM",
      MinIO: {
        Endpoint: tier.url,
        AccessKey: tier.root.accessKey,
        SecretKey: tier.root.secretKey,
        Bucket: "warm",
        Prefix: "",
        Region: "",
      },
    });
    await s3.makeBucket(root, "mixed");
    const bodies: Record<string, Uint8Array> = { "t/plain": pattern(200 * 1024 + 3) };
    await put("t/plain", bodies["t/plain"]);
    for (const [key, headers] of Object.entries(ENCRYPTED)) {
      bodies[key] = pattern(200 * 1024 + 3);
      await put(key, bodies[key], headers);
    }
    await putBucketLifecycle(root, "mixed", [{
      id: "all-to-warm",
      status: "Enabled",
      prefix: "t/",
      transition: { date: "2020-01-01T00:00:00Z", storageClass: "WARM" },
    }]);
    await source.lifecycle.scan();
    await source.lifecycle.scan();

    // Only the unencrypted object's bytes are on the tier, and it reads through from there.
    assert.equal(source.lifecycle.stats.transitioned, 1);
    // Skipped on purpose, not attempted and failed (no s3:ObjectTransition:Failed, no retries every scan).
    assert.equal(source.lifecycle.stats.failures, 0);
    const remote = (await s3.listObjectsV2(tierClient, "warm", { maxKeys: 1000 })).objects;
    assert.equal(remote.length, 1);
    sameBytes(
      new Uint8Array(await (await s3.getObject(tierClient, "warm", remote[0].key)).arrayBuffer()),
      bodies["t/plain"],
    );
    const plain = await read("t/plain");
    assert.equal(plain.storageClass, "WARM");
    sameBytes(plain.bytes, bodies["t/plain"]);

    // The encrypted ones keep their class, their encryption and their bytes, also with the tier gone.
    await tier.close();
    tier = null;
    for (const [key, headers] of Object.entries(ENCRYPTED)) {
      const got = await read(key, key === "t/sse-c" ? SSE_C : {});
      assert.equal(got.storageClass, null, `${key} is not transitioned`);
      assert.equal(got.sse, headers["x-amz-server-side-encryption"] ?? null, key);
      sameBytes(got.bytes, bodies[key], key);
    }
    const listed = await s3.listObjectsV2(root, "mixed", { maxKeys: 1000 });
    assert.deepEqual(listed.objects.map((o) => [o.key, o.storageClass]), [
      ["t/plain", "WARM"],
      ["t/sse-c", "STANDARD"],
      ["t/sse-kms", "STANDARD"],
      ["t/sse-s3", "STANDARD"],
    ]);
  } finally {
    await source.close();
    await tier?.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await Deno.remove(tierDir, { recursive: true }).catch(() => {});
  }
});
