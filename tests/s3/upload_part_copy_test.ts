/**
 * UploadPartCopy through the AWS SDK v3 and Debian's AWS CLI: parts copied from ranges and versions of other
 * objects, the copy source's conditions and range errors, SSE-C keys at both ends, and the checksum a part
 * copy gets in an upload created with one.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type UploadPartCopyCommandInput,
} from "@aws-sdk/client-s3";
import { checksumOf } from "../../server/lib/s3/checksums.ts";
import { pattern, sameBytes } from "./sse_helpers.ts";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

const MiB = 1024 * 1024;
const BUCKET = "copies";

function ssec(fill: number, prefix: "" | "CopySource" = "") {
  const key = new Uint8Array(32).fill(fill);
  return {
    [`${prefix}SSECustomerAlgorithm`]: "AES256",
    [`${prefix}SSECustomerKey`]: key.toBase64(),
    [`${prefix}SSECustomerKeyMD5`]: createHash("md5").update(key).digest("base64"),
  };
}

Deno.test("UploadPartCopy: ranges of two versions and an uploaded part make one object", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    await sdk.send(
      new PutBucketVersioningCommand({ Bucket: BUCKET, VersioningConfiguration: { Status: "Enabled" } }),
    );
    const source = "source été 😀 #1+%.bin";
    const first = pattern(7 * MiB), second = pattern(6 * MiB), tail = pattern(1234);
    const v1 = await sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key: source, Body: first }));
    await sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key: source, Body: second }));
    const target = "joined/résultat.bin";
    const { UploadId } = await sdk.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: target, ChecksumAlgorithm: "CRC32" }),
    );
    const copy = (input: Partial<UploadPartCopyCommandInput>) =>
      sdk.send(
        new UploadPartCopyCommand({
          Bucket: BUCKET,
          Key: target,
          UploadId,
          PartNumber: 1,
          CopySource: `${BUCKET}/${encodeURIComponent(source)}`,
          ...input,
        }),
      );
    const part1 = await copy({
      CopySource: `${BUCKET}/${encodeURIComponent(source)}?versionId=${v1.VersionId}`,
      CopySourceRange: `bytes=${MiB}-${6 * MiB - 1}`,
    });
    assert.equal(part1.CopySourceVersionId, v1.VersionId);
    assert.equal(part1.CopyPartResult?.ChecksumCRC32, checksumOf("CRC32", first.subarray(MiB, 6 * MiB)));
    const part2 = await copy({ PartNumber: 2 });
    const part3 = await sdk.send(
      new UploadPartCommand({
        Bucket: BUCKET,
        Key: target,
        UploadId,
        PartNumber: 3,
        Body: tail,
        ChecksumAlgorithm: "CRC32",
      }),
    );
    await sdk.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: target,
        UploadId,
        MultipartUpload: {
          Parts: [
            {
              PartNumber: 1,
              ETag: part1.CopyPartResult!.ETag,
              ChecksumCRC32: part1.CopyPartResult!.ChecksumCRC32,
            },
            {
              PartNumber: 2,
              ETag: part2.CopyPartResult!.ETag,
              ChecksumCRC32: part2.CopyPartResult!.ChecksumCRC32,
            },
            { PartNumber: 3, ETag: part3.ETag, ChecksumCRC32: part3.ChecksumCRC32 },
          ],
        },
      }),
    );
    const got = await sdk.send(new GetObjectCommand({ Bucket: BUCKET, Key: target }));
    sameBytes(
      await got.Body!.transformToByteArray(),
      new Uint8Array([...first.subarray(MiB, 6 * MiB), ...second, ...tail]),
    );
  } finally {
    await f.close();
  }
});

Deno.test("UploadPartCopy: copy-source conditions and ranges are checked as MinIO checks them", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const put = await sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key: "src", Body: "0123456789" }));
    const { UploadId } = await sdk.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: "dst" }));
    const copy = (input: Partial<UploadPartCopyCommandInput>) =>
      sdk.send(
        new UploadPartCopyCommand({
          Bucket: BUCKET,
          Key: "dst",
          UploadId,
          PartNumber: 1,
          CopySource: `${BUCKET}/src`,
          ...input,
        }),
      );
    await failsWith(
      copy({ CopySourceIfMatch: '"00000000000000000000000000000000"' }),
      "PreconditionFailed",
      412,
    );
    await failsWith(copy({ CopySourceIfNoneMatch: put.ETag }), "PreconditionFailed", 412);
    await failsWith(
      copy({ CopySourceIfModifiedSince: new Date(Date.now() + 86_400_000) }),
      "PreconditionFailed",
      412,
    );
    await failsWith(
      copy({ CopySourceIfUnmodifiedSince: new Date(Date.now() - 86_400_000) }),
      "PreconditionFailed",
      412,
    );
    for (const range of ["bytes=0-", "bytes=-3", "bytes=5-2", "octets=0-1"]) {
      const error = await failsWith(copy({ CopySourceRange: range }), "InvalidArgument", 400);
      assert.match(error.message, /must be of the form bytes=first-last/, range);
    }
    const outside = await failsWith(copy({ CopySourceRange: "bytes=5-10" }), "InvalidArgument", 400);
    assert.match(outside.message, /not valid for source object/);
    await failsWith(copy({ CopySource: `${BUCKET}/missing` }), "NoSuchKey", 404);
    await failsWith(copy({ UploadId: "00000000-0000-0000-0000-000000000000" }), "NoSuchUpload", 404);
    const ok = await copy({ CopySourceIfMatch: put.ETag, CopySourceRange: "bytes=2-5" });
    await sdk.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: "dst",
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: ok.CopyPartResult!.ETag }] },
      }),
    );
    const got = await sdk.send(new GetObjectCommand({ Bucket: BUCKET, Key: "dst" }));
    assert.equal(await got.Body!.transformToString(), "2345");
  } finally {
    await f.close();
  }
});

Deno.test("UploadPartCopy: an SSE-C source opens with the copy-source key, the part seals with the upload's", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const plain = pattern(3 * MiB);
    await sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key: "secret", Body: plain, ...ssec(1) }));
    const { UploadId } = await sdk.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: "resealed", ...ssec(2) }),
    );
    const input = {
      Bucket: BUCKET,
      Key: "resealed",
      UploadId,
      PartNumber: 1,
      CopySource: `${BUCKET}/secret`,
    };
    await failsWith(sdk.send(new UploadPartCopyCommand({ ...input, ...ssec(2) })), "InvalidRequest", 400);
    await failsWith(
      sdk.send(new UploadPartCopyCommand({ ...input, ...ssec(1, "CopySource") })),
      "InvalidRequest",
      400,
    );
    await failsWith(
      sdk.send(new UploadPartCopyCommand({ ...input, ...ssec(3, "CopySource"), ...ssec(2) })),
      "AccessDenied",
      403,
    );
    const part = await sdk.send(
      new UploadPartCopyCommand({ ...input, ...ssec(1, "CopySource"), ...ssec(2) }),
    );
    await sdk.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: "resealed",
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.CopyPartResult!.ETag }] },
      }),
    );
    const got = await sdk.send(new GetObjectCommand({ Bucket: BUCKET, Key: "resealed", ...ssec(2) }));
    sameBytes(await got.Body!.transformToByteArray(), plain);
    await failsWith(
      sdk.send(new GetObjectCommand({ Bucket: BUCKET, Key: "resealed", ...ssec(1) })),
      "AccessDenied",
      403,
    );
  } finally {
    await f.close();
  }
});
