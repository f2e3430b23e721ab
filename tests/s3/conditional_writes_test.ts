/**
 * Conditional writes through the AWS SDK v3, as MinIO answers them: If-None-Match and If-Match on PutObject
 * and CompleteMultipartUpload are checked against the key's current version, and a refused write changes
 * nothing.
 */
import assert from "node:assert/strict";
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

const BUCKET = "conditions";
const read = async (sdk: S3Client, key: string) =>
  await (await sdk.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToString();

Deno.test("PutObject: If-None-Match and If-Match against the current version", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  const put = (Key: string, Body: string, extra: { IfMatch?: string; IfNoneMatch?: string } = {}) =>
    sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body, ...extra }));
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const key = "réglages 😀 #1.txt";
    const first = await put(key, "first", { IfNoneMatch: "*" });
    await failsWith(put(key, "second", { IfNoneMatch: "*" }), "PreconditionFailed", 412);
    await failsWith(put(key, "second", { IfNoneMatch: first.ETag }), "PreconditionFailed", 412);
    assert.equal(await read(sdk, key), "first", "a refused write changes nothing");
    const other = await put(key, "second", { IfNoneMatch: '"0123456789abcdef0123456789abcdef"' });
    await failsWith(put(key, "third", { IfMatch: first.ETag }), "PreconditionFailed", 412);
    await put(key, "third", { IfMatch: other.ETag });
    assert.equal(await read(sdk, key), "third");
    await failsWith(put("never there", "x", { IfMatch: first.ETag }), "NoSuchKey", 404);
  } finally {
    await f.close();
  }
});

Deno.test("CompleteMultipartUpload: If-None-Match and If-Match are not ignored", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  const upload = async (Key: string, body: string) => {
    const { UploadId } = await sdk.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
    const part = await sdk.send(
      new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: body }),
    );
    return { UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } };
  };
  const complete = (Key: string, started: Awaited<ReturnType<typeof upload>>, extra = {}) =>
    sdk.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, ...started, ...extra }));
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const key = "rapport final.bin";
    const existing = await sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: "existing" }));
    const overwrite = await upload(key, "from the upload");
    await failsWith(complete(key, overwrite, { IfNoneMatch: "*" }), "PreconditionFailed", 412);
    await failsWith(
      complete(key, overwrite, { IfMatch: '"ffffffffffffffffffffffffffffffff"' }),
      "PreconditionFailed",
      412,
    );
    assert.equal(await read(sdk, key), "existing", "the object is not overwritten");
    await complete(key, overwrite, { IfMatch: existing.ETag });
    assert.equal(await read(sdk, key), "from the upload");

    const fresh = await upload("new key", "brand new");
    await failsWith(complete("new key", fresh, { IfMatch: existing.ETag }), "NoSuchKey", 404);
    await complete("new key", fresh, { IfNoneMatch: "*" });
    assert.equal(await read(sdk, "new key"), "brand new");
  } finally {
    await f.close();
  }
});
