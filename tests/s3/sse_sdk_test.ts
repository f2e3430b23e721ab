/**
 * Encryption at rest seen from an independent client, the AWS SDK for JavaScript v3 with default settings:
 * SSE-S3, SSE-KMS (the static key store) and SSE-C round trips, ranges, multipart across parts, copies that
 * re-encrypt, bucket default encryption, and MinIO's refusals (wrong customer key, unknown KMS key id, no
 * key store). The bytes on disk never hold a run of the plaintext.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutBucketEncryptionCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { failsWith, startSdkStorage } from "./sdk_client.ts";
import { diskHoldsPlaintext, KMS_KEY, pattern, sameBytes } from "./sse_helpers.ts";

const bytesOf = async (body: unknown) =>
  new Uint8Array(await (body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());

Deno.test("AWS SDK v3: SSE-S3, SSE-KMS and SSE-C encrypt on disk and read back; MinIO's refusals", async (t) => {
  const f = await startSdkStorage({ kmsSecretKey: KMS_KEY });
  const sdk = f.sdk;
  const bucket = "sse-sdk";
  const customerKey = new Uint8Array(32).fill(42);
  const ssec = {
    SSECustomerAlgorithm: "AES256",
    SSECustomerKey: Buffer.from(customerKey).toString("base64"),
    SSECustomerKeyMD5: createHash("md5").update(customerKey).digest("base64"),
  };
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: bucket }));
    const small = pattern(100 * 1024, 3);
    const large = pattern(3 * 1024 * 1024 + 12345, 5);

    await t.step("SSE-S3: put, head, get, range; no plaintext on disk", async () => {
      const put = await sdk.send(
        new PutObjectCommand({ Bucket: bucket, Key: "s3.bin", Body: large, ServerSideEncryption: "AES256" }),
      );
      assert.equal(put.ServerSideEncryption, "AES256");
      assert.equal(
        put.ETag,
        `"${createHash("md5").update(large).digest("hex")}"`,
        "SSE-S3 keeps the plaintext MD5 as ETag",
      );
      const head = await sdk.send(new HeadObjectCommand({ Bucket: bucket, Key: "s3.bin" }));
      assert.equal(head.ServerSideEncryption, "AES256");
      assert.equal(head.ContentLength, large.length);
      sameBytes(
        await bytesOf((await sdk.send(new GetObjectCommand({ Bucket: bucket, Key: "s3.bin" }))).Body),
        large,
      );
      // A range across a package boundary, and one at the end.
      const range = await sdk.send(
        new GetObjectCommand({ Bucket: bucket, Key: "s3.bin", Range: "bytes=65530-200000" }),
      );
      sameBytes(await bytesOf(range.Body), large.subarray(65530, 200001));
      const tail = await sdk.send(
        new GetObjectCommand({ Bucket: bucket, Key: "s3.bin", Range: "bytes=-100" }),
      );
      sameBytes(await bytesOf(tail.Body), large.subarray(large.length - 100));
      await sdk.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: "s3-small.bin",
          Body: small,
          ServerSideEncryption: "AES256",
        }),
      );
      sameBytes(
        await bytesOf((await sdk.send(new GetObjectCommand({ Bucket: bucket, Key: "s3-small.bin" }))).Body),
        small,
      );
      assert.equal(
        await diskHoldsPlaintext(f.dataDir, large),
        false,
        "the large object's bytes are encrypted",
      );
      assert.equal(
        await diskHoldsPlaintext(f.dataDir, small),
        false,
        "the inline object's bytes are encrypted",
      );
      // The check finds plaintext where there is some.
      await sdk.send(new CreateBucketCommand({ Bucket: "sse-plain" }));
      const plain = pattern(200 * 1024, 77);
      await sdk.send(new PutObjectCommand({ Bucket: "sse-plain", Key: "plain.bin", Body: plain }));
      assert.equal(
        await diskHoldsPlaintext(`${f.dataDir}/buckets/sse-plain`, plain),
        true,
        "an unencrypted object's bytes are found on disk",
      );
    });

    await t.step("SSE-KMS with the store's key; an unknown key id is refused", async () => {
      const put = await sdk.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: "kms.bin",
          Body: small,
          ServerSideEncryption: "aws:kms",
          SSEKMSKeyId: "deck-test-key",
        }),
      );
      assert.equal(put.ServerSideEncryption, "aws:kms");
      assert.equal(put.SSEKMSKeyId, "arn:aws:kms:deck-test-key");
      const head = await sdk.send(new HeadObjectCommand({ Bucket: bucket, Key: "kms.bin" }));
      assert.equal(head.SSEKMSKeyId, "arn:aws:kms:deck-test-key");
      sameBytes(
        await bytesOf((await sdk.send(new GetObjectCommand({ Bucket: bucket, Key: "kms.bin" }))).Body),
        small,
      );
      await failsWith(
        sdk.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: "kms-bad.bin",
            Body: small,
            ServerSideEncryption: "aws:kms",
            SSEKMSKeyId: "invented-key",
          }),
        ),
        "kms:KeyNotFound",
        404,
      );
      await failsWith(
        sdk.send(
          new PutBucketEncryptionCommand({
            Bucket: bucket,
            ServerSideEncryptionConfiguration: {
              Rules: [{
                ApplyServerSideEncryptionByDefault: {
                  SSEAlgorithm: "aws:kms",
                  KMSMasterKeyID: "invented-key",
                },
              }],
            },
          }),
        ),
        "KMS.NotFoundException",
        400,
      );
    });

    await t.step("SSE-C: round trip with the key, refused without it or with another", async () => {
      const put = await sdk.send(
        new PutObjectCommand({ Bucket: bucket, Key: "c.bin", Body: large, ...ssec }),
      );
      assert.equal(put.SSECustomerKeyMD5, ssec.SSECustomerKeyMD5);
      const got = await sdk.send(
        new GetObjectCommand({ Bucket: bucket, Key: "c.bin", Range: "bytes=1000000-1100000", ...ssec }),
      );
      sameBytes(await bytesOf(got.Body), large.subarray(1000000, 1100001));
      assert.equal(got.SSECustomerAlgorithm, "AES256");
      await failsWith(
        sdk.send(new GetObjectCommand({ Bucket: bucket, Key: "c.bin" })),
        "InvalidRequest",
        400,
      );
      const other = new Uint8Array(32).fill(43);
      await failsWith(
        sdk.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: "c.bin",
            SSECustomerAlgorithm: "AES256",
            SSECustomerKey: Buffer.from(other).toString("base64"),
            SSECustomerKeyMD5: createHash("md5").update(other).digest("base64"),
          }),
        ),
        "AccessDenied",
        403,
      );
      await failsWith(
        sdk.send(new GetObjectCommand({ Bucket: bucket, Key: "s3.bin", ...ssec })),
        "InvalidRequest",
        400,
      );
    });

    await t.step("multipart SSE-C and SSE-KMS: parts encrypted, reads across parts", async () => {
      for (
        const [key, extra] of [["mp-c.bin", ssec], ["mp-kms.bin", {
          ServerSideEncryption: "aws:kms" as const,
        }]] as const
      ) {
        const created = await sdk.send(
          new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...extra }),
        );
        const partKey = "SSECustomerKey" in extra ? extra : {};
        const one = pattern(5 * 1024 * 1024, 11), two = pattern(300 * 1024, 12);
        const p1 = await sdk.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: key,
            UploadId: created.UploadId,
            PartNumber: 1,
            Body: one,
            ...partKey,
          }),
        );
        const p2 = await sdk.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: key,
            UploadId: created.UploadId,
            PartNumber: 2,
            Body: two,
            ...partKey,
          }),
        );
        if ("SSECustomerKey" in extra) {
          await failsWith(
            sdk.send(
              new UploadPartCommand({
                Bucket: bucket,
                Key: key,
                UploadId: created.UploadId,
                PartNumber: 3,
                Body: two,
              }),
            ),
            "InvalidRequest",
            400,
          );
        }
        await sdk.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: created.UploadId,
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.ETag }, { PartNumber: 2, ETag: p2.ETag }] },
          }),
        );
        const whole = new Uint8Array(one.length + two.length);
        whole.set(one);
        whole.set(two, one.length);
        const across = await sdk.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            Range: `bytes=${one.length - 70000}-${one.length + 70000}`,
            ...partKey,
          }),
        );
        sameBytes(await bytesOf(across.Body), whole.subarray(one.length - 70000, one.length + 70001));
        sameBytes(
          await bytesOf(
            (await sdk.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...partKey }))).Body,
          ),
          whole,
        );
        assert.equal(await diskHoldsPlaintext(f.dataDir, whole), false, `${key} is encrypted on disk`);
      }
    });

    await t.step("copy re-encrypts to the target's settings", async () => {
      const copied = await sdk.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: "copy-c.bin",
          CopySource: `${bucket}/c.bin`,
          CopySourceSSECustomerAlgorithm: "AES256",
          CopySourceSSECustomerKey: ssec.SSECustomerKey,
          CopySourceSSECustomerKeyMD5: ssec.SSECustomerKeyMD5,
          ServerSideEncryption: "aws:kms",
        }),
      );
      assert.equal(copied.ServerSideEncryption, "aws:kms");
      sameBytes(
        await bytesOf((await sdk.send(new GetObjectCommand({ Bucket: bucket, Key: "copy-c.bin" }))).Body),
        large,
      );
      await failsWith(
        sdk.send(
          new CopyObjectCommand({ Bucket: bucket, Key: "copy-nokey.bin", CopySource: `${bucket}/c.bin` }),
        ),
        "InvalidRequest",
        400,
      );
      await sdk.send(
        new CopyObjectCommand({ Bucket: bucket, Key: "copy-plain.bin", CopySource: `${bucket}/kms.bin` }),
      );
      const plainHead = await sdk.send(new HeadObjectCommand({ Bucket: bucket, Key: "copy-plain.bin" }));
      assert.equal(
        plainHead.ServerSideEncryption,
        undefined,
        "a copy without SSE headers in a bucket without default encryption is plain",
      );
    });

    await t.step("bucket default encryption applies to new objects", async () => {
      await sdk.send(new CreateBucketCommand({ Bucket: "sse-default" }));
      await sdk.send(
        new PutBucketEncryptionCommand({
          Bucket: "sse-default",
          ServerSideEncryptionConfiguration: {
            Rules: [{
              ApplyServerSideEncryptionByDefault: {
                SSEAlgorithm: "aws:kms",
                KMSMasterKeyID: "deck-test-key",
              },
            }],
          },
        }),
      );
      const body = pattern(200 * 1024, 21);
      const put = await sdk.send(
        new PutObjectCommand({ Bucket: "sse-default", Key: "auto.bin", Body: body }),
      );
      assert.equal(put.ServerSideEncryption, "aws:kms");
      const head = await sdk.send(new HeadObjectCommand({ Bucket: "sse-default", Key: "auto.bin" }));
      assert.equal(head.SSEKMSKeyId, "arn:aws:kms:deck-test-key");
      sameBytes(
        await bytesOf(
          (await sdk.send(new GetObjectCommand({ Bucket: "sse-default", Key: "auto.bin" }))).Body,
        ),
        body,
      );
      assert.equal(await diskHoldsPlaintext(`${f.dataDir}/buckets/sse-default`, body), false);
    });
  } finally {
    await f.close();
  }
});

Deno.test("AWS SDK v3: without a key store SSE-S3, SSE-KMS and default encryption are refused; SSE-C works", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "no-kms" }));
    await failsWith(
      sdk.send(
        new PutObjectCommand({ Bucket: "no-kms", Key: "a", Body: "x", ServerSideEncryption: "AES256" }),
      ),
      "NotImplemented",
      501,
    );
    await failsWith(
      sdk.send(
        new PutObjectCommand({ Bucket: "no-kms", Key: "b", Body: "x", ServerSideEncryption: "aws:kms" }),
      ),
      "NotImplemented",
      501,
    );
    await failsWith(
      sdk.send(
        new PutBucketEncryptionCommand({
          Bucket: "no-kms",
          ServerSideEncryptionConfiguration: {
            Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
          },
        }),
      ),
      "NotImplemented",
      501,
    );
    const key = new Uint8Array(32).fill(9);
    const ssec = {
      SSECustomerAlgorithm: "AES256",
      SSECustomerKey: Buffer.from(key).toString("base64"),
      SSECustomerKeyMD5: createHash("md5").update(key).digest("base64"),
    };
    await sdk.send(new PutObjectCommand({ Bucket: "no-kms", Key: "c", Body: "customer keyed", ...ssec }));
    const got = await sdk.send(new GetObjectCommand({ Bucket: "no-kms", Key: "c", ...ssec }));
    assert.equal(await got.Body!.transformToString(), "customer keyed");
  } finally {
    await f.close();
  }
});
