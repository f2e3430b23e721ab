/**
 * GetObjectAttributes through the AWS SDK v3: ETag, checksum (with its type), parts a page at a time,
 * storage class and size, of a multipart object, of an object of one PUT and of an older version.
 */
import assert from "node:assert/strict";
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectAttributesCommand,
  type GetObjectAttributesCommandInput,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { checksumOf, compositeChecksum } from "../../server/lib/s3/checksums.ts";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

const MiB = 1024 * 1024;
const ALL = ["ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize"] as const;

Deno.test("GetObjectAttributes: a multipart object's parts a page at a time, a single PUT, a version", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  const attributes = (input: Partial<GetObjectAttributesCommandInput>) =>
    sdk.send(
      new GetObjectAttributesCommand({
        Bucket: "attrs",
        Key: "vidéo 😀 #1.bin",
        ObjectAttributes: [...ALL],
        ...input,
      }),
    );
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "attrs" }));
    await sdk.send(
      new PutBucketVersioningCommand({ Bucket: "attrs", VersioningConfiguration: { Status: "Enabled" } }),
    );
    const key = "vidéo 😀 #1.bin";
    const parts = [
      new Uint8Array(5 * MiB).fill(1),
      new Uint8Array(5 * MiB).fill(2),
      new Uint8Array(300).fill(3),
    ];
    const { UploadId } = await sdk.send(
      new CreateMultipartUploadCommand({ Bucket: "attrs", Key: key, ChecksumAlgorithm: "CRC32" }),
    );
    const sent = [];
    for (const [i, Body] of parts.entries()) {
      const part = await sdk.send(
        new UploadPartCommand({
          Bucket: "attrs",
          Key: key,
          UploadId,
          PartNumber: i + 1,
          Body,
          ChecksumAlgorithm: "CRC32",
        }),
      );
      sent.push({ PartNumber: i + 1, ETag: part.ETag, ChecksumCRC32: part.ChecksumCRC32 });
    }
    const done = await sdk.send(
      new CompleteMultipartUploadCommand({
        Bucket: "attrs",
        Key: key,
        UploadId,
        MultipartUpload: { Parts: sent },
      }),
    );

    const got = await attributes({ MaxParts: 2 });
    assert.equal(got.ETag, done.ETag!.replace(/"/g, ""));
    assert.equal(got.ObjectSize, 10 * MiB + 300);
    assert.equal(got.StorageClass, "STANDARD");
    assert.equal(got.VersionId, done.VersionId);
    assert.equal(got.Checksum?.ChecksumType, "COMPOSITE");
    assert.equal(
      got.Checksum?.ChecksumCRC32,
      compositeChecksum("CRC32", parts.map((p) => checksumOf("CRC32", p))).replace(/-3$/, ""),
    );
    assert.equal(got.ObjectParts?.TotalPartsCount, 3);
    assert.equal(got.ObjectParts?.IsTruncated, true);
    assert.equal(got.ObjectParts?.NextPartNumberMarker, "2");
    assert.deepEqual(
      got.ObjectParts?.Parts?.map((p) => [p.PartNumber, p.Size, p.ChecksumCRC32]),
      [[1, 5 * MiB, checksumOf("CRC32", parts[0])], [2, 5 * MiB, checksumOf("CRC32", parts[1])]],
    );
    const rest = await attributes({ ObjectAttributes: ["ObjectParts"], PartNumberMarker: "2" });
    assert.deepEqual(rest.ObjectParts?.Parts?.map((p) => [p.PartNumber, p.Size]), [[3, 300]]);
    assert.equal(rest.ObjectParts?.IsTruncated, false);
    assert.equal(rest.ETag, undefined, "only what was asked for");

    const single = await sdk.send(new PutObjectCommand({ Bucket: "attrs", Key: key, Body: "one put" }));
    const now = await attributes({});
    assert.equal(now.ObjectSize, 7);
    assert.equal(now.ETag, single.ETag!.replace(/"/g, ""));
    assert.equal(now.Checksum?.ChecksumCRC32, checksumOf("CRC32", "one put"));
    assert.equal(now.ObjectParts?.TotalPartsCount, 1);
    const older = await attributes({ VersionId: done.VersionId, ObjectAttributes: ["ObjectSize"] });
    assert.equal(older.ObjectSize, 10 * MiB + 300);

    await failsWith(attributes({ ObjectAttributes: ["Colour" as "ETag"] }), "InvalidArgument", 400);
    await failsWith(attributes({ Key: "missing" }), "NoSuchKey", 404);
  } finally {
    await f.close();
  }
});
