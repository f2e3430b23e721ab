/**
 * Whole-object checksums sent with CompleteMultipartUpload, in every form clients send them: the AWS SDK v3
 * with a FULL_OBJECT CRC (CRC32, CRC32C, CRC64NVME) or a COMPOSITE value with and without its "-N", and
 * minio-go 7.0.46's PutObject (CRC32C per part, the composite of the parts in the Complete header without
 * "-N"). The answer names the checksum type.
 */
import assert from "node:assert/strict";
import {
  type ChecksumAlgorithm,
  CompleteMultipartUploadCommand,
  type CompleteMultipartUploadCommandInput,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListPartsCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { checksumOf, compositeChecksum } from "../../server/lib/s3/checksums.ts";
import { children, childText, parseXml } from "../../server/lib/s3/xml.ts";
import { failsWith, type SdkStorageFixture, startSdkStorage } from "./sdk_client.ts";

const MiB = 1024 * 1024;
const BUCKET = "sums";
const field = (algorithm: string) => `Checksum${algorithm}` as "ChecksumCRC32";
const PARTS = [
  new Uint8Array(5 * MiB).map((_, i) => (i * 31) & 0xff),
  new Uint8Array(5 * MiB).map((_, i) => (i * 17 + 3) & 0xff),
  new TextEncoder().encode("the last, short part"),
];
const WHOLE = new Uint8Array(PARTS.reduce((n, p) => n + p.length, 0));
PARTS.reduce((at, p) => (WHOLE.set(p, at), at + p.length), 0);

/** Creates an upload with the algorithm and type and sends the three parts; returns what Complete needs. */
async function uploadParts(f: SdkStorageFixture, key: string, algorithm: ChecksumAlgorithm, type: string) {
  const { UploadId } = await f.sdk.send(
    new CreateMultipartUploadCommand({
      Bucket: BUCKET,
      Key: key,
      ChecksumAlgorithm: algorithm,
      ChecksumType: type as "FULL_OBJECT",
    }),
  );
  const Parts = [];
  for (const [i, Body] of PARTS.entries()) {
    const part = await f.sdk.send(
      new UploadPartCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        PartNumber: i + 1,
        Body,
        ChecksumAlgorithm: algorithm,
      }),
    );
    Parts.push({ PartNumber: i + 1, ETag: part.ETag, [field(algorithm)]: part[field(algorithm)] });
  }
  return { Bucket: BUCKET, Key: key, UploadId, MultipartUpload: { Parts } };
}

const complete = (f: SdkStorageFixture, input: CompleteMultipartUploadCommandInput, extra: object) =>
  f.sdk.send(new CompleteMultipartUploadCommand({ ...input, ...extra }));

Deno.test("CompleteMultipartUpload takes a correct FULL_OBJECT CRC and refuses a wrong one", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    for (const algorithm of ["CRC32", "CRC32C", "CRC64NVME"] as const) {
      const key = `full ${algorithm} été 😀.bin`;
      const started = await uploadParts(f, key, algorithm, "FULL_OBJECT");
      const wrong = checksumOf(algorithm, "something else");
      await failsWith(
        complete(f, started, { [field(algorithm)]: wrong, ChecksumType: "FULL_OBJECT" }),
        "XAmzContentChecksumMismatch",
        400,
      );
      const whole = checksumOf(algorithm, WHOLE);
      const done = await complete(f, started, { [field(algorithm)]: whole, ChecksumType: "FULL_OBJECT" });
      assert.equal(done[field(algorithm)], whole, algorithm);
      assert.equal(done.ChecksumType, "FULL_OBJECT", algorithm);
      const head = await f.sdk.send(
        new HeadObjectCommand({ Bucket: BUCKET, Key: key, ChecksumMode: "ENABLED" }),
      );
      assert.equal(head[field(algorithm)], whole, algorithm);
      assert.equal(head.ChecksumType, "FULL_OBJECT", algorithm);
    }
  } finally {
    await f.close();
  }
});

Deno.test("CompleteMultipartUpload takes a COMPOSITE value with or without its part count", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    for (const algorithm of ["CRC32", "CRC32C", "SHA1", "SHA256"] as const) {
      const composite = compositeChecksum(algorithm, PARTS.map((p) => checksumOf(algorithm, p)));
      const bare = composite.replace(/-3$/, "");
      for (const [name, value] of [["with -3", composite], ["without", bare]]) {
        const key = `composite ${algorithm} ${name}`;
        const started = await uploadParts(f, key, algorithm, "COMPOSITE");
        await failsWith(
          complete(f, started, { [field(algorithm)]: `${bare}-2` }),
          "XAmzContentChecksumMismatch",
          400,
        );
        const listed = await f.sdk.send(
          new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: started.UploadId }),
        );
        assert.equal(listed.ChecksumType, "COMPOSITE");
        const done = await complete(f, started, { [field(algorithm)]: value });
        assert.equal(done[field(algorithm)], composite, `${algorithm} ${name}`);
        assert.equal(done.ChecksumType, "COMPOSITE");
      }
    }
  } finally {
    await f.close();
  }
});

Deno.test("minio-go 7.0.46's multipart PutObject: CRC32C parts and their composite without -N", async () => {
  // The requests minio-go v7.0.46 sends for PutObject(12 MiB, PartSize 5 MiB) (api-put-object-streaming.go,
  // putObjectMultipartStreamOptionalChecksum), replayed signed as it signs them: the Go toolchain is not on
  // this machine, so the client itself cannot run here.
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const key = "minio-go/objet 😀 +%#?.bin";
    const created = await f.root.send({
      method: "POST",
      bucket: BUCKET,
      key,
      query: { uploads: "" },
      headers: { "content-type": "application/octet-stream", "x-amz-checksum-algorithm": "CRC32C" },
    });
    const uploadId = childText(parseXml(await created.text()), "UploadId")!;
    const parts = [];
    for (const [i, body] of PARTS.entries()) {
      const crc = checksumOf("CRC32C", body);
      const res = await f.root.send({
        method: "PUT",
        bucket: BUCKET,
        key,
        query: { partNumber: String(i + 1), uploadId },
        headers: { "x-amz-checksum-crc32c": crc },
        body,
      });
      await res.body?.cancel();
      parts.push({ number: i + 1, etag: res.headers.get("etag")!, crc });
    }
    const xml = `<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${
      parts.map((p) =>
        `<Part><PartNumber>${p.number}</PartNumber><ETag>${p.etag}</ETag><ChecksumCRC32C>${p.crc}</ChecksumCRC32C></Part>`
      ).join("")
    }</CompleteMultipartUpload>`;
    const hashOfHashes = compositeChecksum("CRC32C", parts.map((p) => p.crc)).replace(/-3$/, "");
    const done = await f.root.send({
      method: "POST",
      bucket: BUCKET,
      key,
      query: { uploadId },
      headers: { "x-amz-checksum-crc32c": hashOfHashes, "content-type": "application/octet-stream" },
      body: xml,
    });
    const result = parseXml(await done.text());
    assert.equal(result.name, "CompleteMultipartUploadResult");
    assert.equal(childText(result, "ChecksumCRC32C"), `${hashOfHashes}-3`);
    assert.equal(childText(result, "ChecksumType"), "COMPOSITE");
    assert.equal(children(result, "ETag").length, 1);
  } finally {
    await f.close();
  }
});
