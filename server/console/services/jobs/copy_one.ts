/**
 * Copies one object server-side and proves the copy before anyone relies on it: CopyObject up to
 * MULTIPART_COPY_ABOVE bytes, UploadPartCopy in PART_SIZE ranges above it (CopyObject's limit is 5 GiB, AWS API
 * reference "CopyObject"). Metadata, content type and tags travel with the copy (the COPY directives);
 * retention and legal hold are read from the source and set on the copy when both buckets have object lock.
 *
 * The copy names the listed ETag as a condition (x-amz-copy-source-if-match), so what is copied is what was
 * listed; a single-part copy whose ETag (the content's MD5) equals the source's has the same bytes, and any
 * other copy is checked by its size and ETag read back from the destination.
 */
import type { S3Client } from "../../../lib/s3/client.ts";
import { S3Error } from "../../../lib/s3/errors.ts";
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  uploadPartCopy,
} from "../../../lib/s3/ops/multipart.ts";
import { getObjectTagging } from "../../../lib/s3/ops/object_lock.ts";
import { copyObject, headObject, type ObjectInfo } from "../../../lib/s3/ops/objects.ts";

/** CopyObject takes at most 5 GiB; larger objects go part by part. */
export const MULTIPART_COPY_ABOVE = 5 * 1024 ** 3;
const PART_SIZE = 512 * 1024 ** 2;

export interface CopyPlan {
  source: { bucket: string; key: string; size: number; etag: string };
  target: { bucket: string; key: string };
  /** Both buckets have object lock: the source's retention and legal hold are carried over. */
  carryLock: boolean;
  /** Above this size the copy is made of parts (tests lower it to exercise the path). */
  multipartAbove?: number;
  partSize?: number;
}

/** The destination's object, or null when there is none. */
export async function headOrNull(client: S3Client, bucket: string, key: string): Promise<ObjectInfo | null> {
  try {
    return await headObject(client, bucket, key);
  } catch (error) {
    if (error instanceof S3Error && (error.status === 404 || error.code === "NoSuchKey")) return null;
    throw error;
  }
}

/** Whether the destination already holds exactly the listed source (a copy made before a restart). */
export const isSameObject = (found: ObjectInfo | null, source: { size: number; etag: string }) =>
  !!found && found.size === source.size && found.etag === source.etag;

function lockHeaders(info: ObjectInfo): Record<string, string> {
  const headers: Record<string, string> = {};
  if (info.retentionMode && info.retainUntil && Date.parse(info.retainUntil) > Date.now()) {
    headers["x-amz-object-lock-mode"] = info.retentionMode.toUpperCase();
    headers["x-amz-object-lock-retain-until-date"] = info.retainUntil;
  }
  if (info.legalHold !== undefined) headers["x-amz-object-lock-legal-hold"] = info.legalHold ? "ON" : "OFF";
  return headers;
}

/** Copies and verifies; rejects with the storage's error or with a VerifyError. */
export async function copyOne(client: S3Client, plan: CopyPlan): Promise<void> {
  const { source, target } = plan;
  const condition = { "x-amz-copy-source-if-match": `"${source.etag}"` };
  const lock = plan.carryLock ? lockHeaders(await headObject(client, source.bucket, source.key)) : {};
  const multipart = source.size > (plan.multipartAbove ?? MULTIPART_COPY_ABOVE);
  const etag = multipart
    ? await copyInParts(client, plan, condition, lock)
    : (await copyObject(client, source, target, { headers: { ...condition, ...lock } })).etag;
  if (!multipart && !source.etag.includes("-") && etag === source.etag) return;
  const copied = await headOrNull(client, target.bucket, target.key);
  if (!copied || copied.size !== source.size || copied.etag !== etag) {
    throw new VerifyError(
      copied
        ? `the copy has ${copied.size} bytes and ETag ${copied.etag}, expected ${source.size} bytes and ${etag}`
        : "the copy is not at the destination",
    );
  }
}

/** A copy that does not match its source: the source is kept. */
export class VerifyError extends Error {
  override name = "VerifyError";
}

async function copyInParts(
  client: S3Client,
  plan: CopyPlan,
  condition: Record<string, string>,
  lock: Record<string, string>,
): Promise<string> {
  const { source, target } = plan;
  const info = await headObject(client, source.bucket, source.key);
  const tags = info.tagCount > 0 ? await getObjectTagging(client, source.bucket, source.key) : {};
  const uploadId = await createMultipartUpload(client, target.bucket, target.key, {
    contentType: info.contentType,
    userMetadata: info.userMetadata,
    tags,
    headers: lock,
  });
  try {
    const size = plan.partSize ?? PART_SIZE;
    const parts: { partNumber: number; etag: string }[] = [];
    for (let first = 0, partNumber = 1; first < source.size; first += size, partNumber++) {
      const last = Math.min(first + size, source.size) - 1;
      const etag = await uploadPartCopy(
        client,
        { ...target, uploadId, partNumber },
        source,
        [first, last],
        condition,
      );
      parts.push({ partNumber, etag });
    }
    return (await completeMultipartUpload(client, target.bucket, target.key, uploadId, parts)).etag;
  } catch (error) {
    await abortMultipartUpload(client, target.bucket, target.key, uploadId).catch(() => {});
    throw error;
  }
}
