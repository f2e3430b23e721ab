/**
 * GET and HEAD with ?partNumber=N through the AWS SDK v3 (and Debian's AWS CLI for HEAD): one part of a
 * multipart object with its count and checksum; an object of one PUT is one part; past the end is
 * InvalidPartNumber.
 */
import assert from "node:assert/strict";
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { checksumOf } from "../../server/lib/s3/checksums.ts";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

const MiB = 1024 * 1024;
const bytes = (size: number, seed: number) =>
  new Uint8Array(size).map((_, i) => (i * seed + (i >> 12)) & 0xff);

Deno.test("GET/HEAD ?partNumber= answer that part with 206 and the part count", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "parts" }));
    const key = "vidéo 😀 #1+%.bin";
    const parts = [bytes(5 * MiB, 7), bytes(5 * MiB, 11), bytes(1000, 13)];
    const { UploadId } = await sdk.send(
      new CreateMultipartUploadCommand({ Bucket: "parts", Key: key, ChecksumAlgorithm: "CRC32C" }),
    );
    const sent = [];
    for (const [i, body] of parts.entries()) {
      const part = await sdk.send(
        new UploadPartCommand({
          Bucket: "parts",
          Key: key,
          UploadId,
          PartNumber: i + 1,
          Body: body,
          ChecksumAlgorithm: "CRC32C",
        }),
      );
      sent.push({ PartNumber: i + 1, ETag: part.ETag, ChecksumCRC32C: part.ChecksumCRC32C });
    }
    await sdk.send(
      new CompleteMultipartUploadCommand({
        Bucket: "parts",
        Key: key,
        UploadId,
        MultipartUpload: { Parts: sent },
      }),
    );

    const second = await sdk.send(
      new GetObjectCommand({ Bucket: "parts", Key: key, PartNumber: 2, ChecksumMode: "ENABLED" }),
    );
    assert.equal(second.$metadata.httpStatusCode, 206);
    assert.equal(second.PartsCount, 3);
    assert.equal(second.ContentLength, 5 * MiB);
    assert.equal(second.ContentRange, `bytes ${5 * MiB}-${10 * MiB - 1}/${10 * MiB + 1000}`);
    assert.equal(second.ChecksumCRC32C, checksumOf("CRC32C", parts[1]), "the part's own checksum");
    assert.deepEqual(await second.Body!.transformToByteArray(), parts[1]);

    const last = await sdk.send(new HeadObjectCommand({ Bucket: "parts", Key: key, PartNumber: 3 }));
    assert.equal(last.$metadata.httpStatusCode, 206);
    assert.equal(last.PartsCount, 3);
    assert.equal(last.ContentLength, 1000);
    assert.match(last.ETag ?? "", /-3"$/, "the object's ETag, not the part's");

    await failsWith(
      sdk.send(new GetObjectCommand({ Bucket: "parts", Key: key, PartNumber: 4 })),
      "InvalidPartNumber",
      416,
    );
    await failsWith(
      sdk.send(new GetObjectCommand({ Bucket: "parts", Key: key, PartNumber: 1, Range: "bytes=0-9" })),
      "InvalidRequest",
      400,
    );
    const whole = await sdk.send(new HeadObjectCommand({ Bucket: "parts", Key: key }));
    assert.equal(whole.$metadata.httpStatusCode, 200);
    assert.equal(whole.PartsCount, undefined, "no part count without partNumber");
  } finally {
    await f.close();
  }
});

Deno.test("an object of one PUT is one part: partNumber=1 is the whole object, 2 is past the end", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "single" }));
    await sdk.send(new PutObjectCommand({ Bucket: "single", Key: "a b.txt", Body: "hello, parts" }));
    const one = await sdk.send(new GetObjectCommand({ Bucket: "single", Key: "a b.txt", PartNumber: 1 }));
    assert.equal(one.$metadata.httpStatusCode, 206);
    assert.equal(one.PartsCount, undefined, "MinIO sends the count only for multipart objects");
    assert.equal(one.ContentRange, "bytes 0-11/12");
    assert.equal(await one.Body!.transformToString(), "hello, parts");
    await failsWith(
      sdk.send(new GetObjectCommand({ Bucket: "single", Key: "a b.txt", PartNumber: 2 })),
      "InvalidPartNumber",
      416,
    );
    const head = await f.root.send({
      method: "HEAD",
      bucket: "single",
      key: "a b.txt",
      query: { partNumber: "2" },
      allow: [416],
    });
    assert.equal(head.status, 416);
    assert.equal(head.headers.get("x-minio-error-code"), "InvalidPartNumber");
    await failsWith(
      sdk.send(new GetObjectCommand({ Bucket: "single", Key: "a b.txt", PartNumber: 10001 })),
      "InvalidArgument",
      400,
    );
  } finally {
    await f.close();
  }
});
