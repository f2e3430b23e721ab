/**
 * Encryption at rest over Deck's own S3 client, where the SDK test does not reach: package and spill
 * boundaries, MinIO's header errors, sealed checksums, a browser-form upload with SSE fields, and what
 * survives a restart (and what a different key store cannot open).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { S3Client } from "../../server/lib/s3/client.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { rejectsWith, startStorage } from "./fixture.ts";
import { customerKeyHeaders, diskHoldsPlaintext, KMS_KEY, pattern, sameBytes } from "./sse_helpers.ts";

const SSE_S3 = { "x-amz-server-side-encryption": "AES256" };
const SSE_KMS = { "x-amz-server-side-encryption": "aws:kms" };

const customer = customerKeyHeaders;

Deno.test("SSE: package boundaries, header errors, sealed checksums, forms, restarts", async (t) => {
  const f = await startStorage({ kmsSecretKey: KMS_KEY });
  const put = (client: S3Client, key: string, body: Uint8Array, headers: Record<string, string>) =>
    client.send({ method: "PUT", bucket: "vault", key, body, headers });
  const read = async (client: S3Client, key: string, headers: Record<string, string> = {}) =>
    new Uint8Array(await (await client.send({ method: "GET", bucket: "vault", key, headers })).arrayBuffer());
  try {
    await f.root.send({ method: "PUT", bucket: "vault" });

    await t.step("sizes around packages and the inline limit read back whole and in ranges", async () => {
      for (const size of [0, 1, 65535, 65536, 65537, 128 * 1024, 128 * 1024 + 1, 3 * 65536]) {
        const body = pattern(size);
        for (const [kind, headers] of [["s3", SSE_S3], ["c", customer(1)]] as const) {
          const key = `size-${size}-${kind}`;
          await put(f.root, key, body, headers);
          sameBytes(await read(f.root, key, kind === "c" ? headers : {}), body, `${key} whole`);
          if (size > 2) {
            const from = Math.max(0, Math.floor(size / 2) - 1), to = size - 1;
            sameBytes(
              await read(f.root, key, { ...(kind === "c" ? headers : {}), range: `bytes=${from}-${to}` }),
              body.subarray(from, to + 1),
              `${key} range`,
            );
          }
        }
      }
    });

    await t.step("MinIO's errors for bad or inapplicable SSE headers", async () => {
      const body = pattern(10);
      const wrongMd5 = {
        ...customer(2),
        "x-amz-server-side-encryption-customer-key-md5":
          customer(3)["x-amz-server-side-encryption-customer-key-md5"],
      };
      await rejectsWith(put(f.root, "bad", body, wrongMd5), "InvalidArgument");
      await rejectsWith(
        put(f.root, "bad", body, {
          ...customer(2),
          "x-amz-server-side-encryption-customer-algorithm": "AES128",
        }),
        "InvalidArgument",
      );
      await rejectsWith(
        put(f.root, "bad", body, { ...customer(2), "x-amz-server-side-encryption-customer-key": "c2hvcnQ=" }),
        "AccessDenied",
      );
      await rejectsWith(
        put(f.root, "bad", body, { "x-amz-server-side-encryption-aws-kms-key-id": "deck-test-key" }),
        "InvalidArgument",
      );
      await rejectsWith(put(f.root, "bad", body, { ...customer(2), ...SSE_S3 }), "InvalidArgument");
      await rejectsWith(
        put(f.root, "bad", body, { "x-amz-server-side-encryption": "AES512" }),
        "InvalidArgument",
      );
      await put(f.root, "plain", body, {});
      await rejectsWith(
        f.root.send({ method: "GET", bucket: "vault", key: "plain", headers: customer(2) }),
        "InvalidRequest",
      );
      await rejectsWith(
        f.root.send({ method: "GET", bucket: "vault", key: "plain", headers: SSE_S3 }),
        "InvalidRequest",
      );
      await put(f.root, "keyed", body, customer(2));
      await rejectsWith(f.root.send({ method: "HEAD", bucket: "vault", key: "keyed" }), "InvalidRequest");
      await rejectsWith(
        f.root.send({ method: "HEAD", bucket: "vault", key: "keyed", headers: customer(3) }),
        "AccessDenied",
      );
      const ok = await f.root.send({ method: "HEAD", bucket: "vault", key: "keyed", headers: customer(2) });
      assert.equal(
        ok.headers.get("x-amz-server-side-encryption-customer-key-md5"),
        customer(2)["x-amz-server-side-encryption-customer-key-md5"],
      );
    });

    await t.step(
      "checksums and ETags of SSE-KMS objects are sealed on disk and returned on reads",
      async () => {
        const body = pattern(2000);
        const crc = createHash("sha256").update(body).digest("base64");
        const res = await put(f.root, "summed", body, { ...SSE_KMS, "x-amz-checksum-sha256": crc });
        assert.equal(res.headers.get("x-amz-checksum-sha256"), crc);
        const md5 = createHash("md5").update(body).digest("hex");
        assert.notEqual(res.headers.get("etag"), `"${md5}"`, "SSE-KMS shows a random ETag, as MinIO");
        const head = await f.root.send({
          method: "HEAD",
          bucket: "vault",
          key: "summed",
          headers: { "x-amz-checksum-mode": "ENABLED" },
        });
        assert.equal(head.headers.get("x-amz-checksum-sha256"), crc);
        const log = new TextDecoder("latin1").decode(
          await Deno.readFile(`${f.dataDir}/buckets/vault/records.log`),
        );
        assert.ok(
          !log.includes(crc) && !log.includes(md5),
          "neither the checksum nor the MD5 is on disk in clear",
        );
      },
    );

    await t.step("listing with metadata=true reports each object's encryption", async () => {
      const xml = await (await f.root.send({
        method: "GET",
        bucket: "vault",
        query: { "list-type": "2", metadata: "true", prefix: "size-1-" },
      })).text();
      assert.match(xml, /<Key>size-1-c<\/Key>.*?<X-Amz-Server-Side-Encryption-Customer-Algorithm>AES256</s);
      assert.match(xml, /<Key>size-1-s3<\/Key>.*?<X-Amz-Server-Side-Encryption>AES256</s);
    });

    await t.step("a bucket policy can require encryption on uploads", async () => {
      const policy = {
        Version: "2012-10-17",
        Statement: [{
          Effect: "Allow",
          Principal: { AWS: ["*"] },
          Action: ["s3:PutObject"],
          Resource: ["arn:aws:s3:::vault/drop/*"],
          Condition: { StringEquals: { "s3:x-amz-server-side-encryption": "AES256" } },
        }],
      };
      await f.root.send({
        method: "PUT",
        bucket: "vault",
        query: { policy: "" },
        body: new TextEncoder().encode(JSON.stringify(policy)),
      });
      const anonymous = (headers: Record<string, string>) =>
        fetch(`${f.storage.url}/vault/drop/x`, { method: "PUT", body: "dropped", headers });
      const refused = await anonymous({});
      assert.equal(refused.status, 403, await refused.text());
      const accepted = await anonymous(SSE_S3);
      assert.equal(accepted.status, 200, await accepted.text());
      assert.equal(accepted.headers.get("x-amz-server-side-encryption"), "AES256");
    });

    await t.step("a browser form with SSE fields stores the file encrypted", async () => {
      const { createPresignedPost } = await import("@aws-sdk/s3-presigned-post");
      const { S3Client: Sdk } = await import("@aws-sdk/client-s3");
      const sdk = new Sdk({
        endpoint: f.storage.url,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: f.storage.root.accessKey, secretAccessKey: f.storage.root.secretKey },
      });
      const { url, fields } = await createPresignedPost(sdk, {
        Bucket: "vault",
        Key: "form.bin",
        Fields: { "x-amz-server-side-encryption": "AES256" },
        Conditions: [["eq", "$x-amz-server-side-encryption", "AES256"]],
        Expires: 600,
      });
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const body = pattern(20 * 1024);
      form.append("file", new Blob([body as Uint8Array<ArrayBuffer>]), "form.bin");
      const res = await fetch(url, { method: "POST", body: form });
      assert.equal(res.status, 204, await res.text());
      assert.equal(res.headers.get("x-amz-server-side-encryption"), "AES256");
      sameBytes(await read(f.root, "form.bin"), body);
      assert.equal(await diskHoldsPlaintext(`${f.dataDir}/buckets/vault`, body), false);
      sdk.destroy();
    });
  } finally {
    await f.storage.close();
  }

  await t.step(
    "after a restart with the same key store everything reads back; another key store opens nothing",
    async () => {
      const again = await startEmbeddedStorage({ dataDir: f.dataDir, port: 0, kmsSecretKey: KMS_KEY });
      const client = new S3Client({ endpoint: again.url, credentials: again.root });
      try {
        assert.equal((await read(client, "size-65537-s3")).length, 65537);
        assert.equal((await read(client, "size-65537-c", customer(1))).length, 65537);
      } finally {
        await again.close();
      }
      const other = await startEmbeddedStorage({
        dataDir: f.dataDir,
        port: 0,
        kmsSecretKey: `other-key:${new Uint8Array(32).fill(8).toBase64()}`,
      });
      const stranger = new S3Client({ endpoint: other.url, credentials: other.root });
      try {
        await rejectsWith(
          stranger.send({ method: "GET", bucket: "vault", key: "size-65537-s3" }),
          "kms:KeyNotFound",
        );
      } finally {
        await other.close();
        await Deno.remove(f.dataDir, { recursive: true }).catch(() => {});
      }
    },
  );
});
