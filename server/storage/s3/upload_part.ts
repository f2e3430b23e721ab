/**
 * The parts of a multipart upload (minio-protocol §5.16): UploadPart takes the request body, UploadPartCopy
 * a range of an existing version (x-amz-copy-source-range, the copy source's conditions, SSE-C keys of
 * both ends, `?versionId=`). Either way the part is sealed with the upload's key when it is encrypted and
 * gets the upload's checksum algorithm.
 */
import type { ChecksumAlgorithm } from "../../lib/s3/checksums.ts";
import { discardStaged, stageData } from "../fs/objects.ts";
import { readUpload, storePart, type UploadRef } from "../fs/multipart.ts";
import { sseForPart } from "../sse/request.ts";
import { stageEncrypted } from "../sse/staging.ts";
import {
  checksumHeaders,
  type ChecksummedBody,
  checksummedBody,
  checksumXml,
  declaredChecksum,
  invalidChecksum,
} from "./checksums.ts";
import { bucketOf, emptyResponse, type S3Request, xmlResponse, xmlTime } from "./context.ts";
import { copySourceVersionHeader, readCopySource, resolveCopySource } from "./copy_source.ts";
import { invalidArgument, StoreError } from "../core/errors.ts";
import type { UploadInfo } from "../core/records.ts";

const MAX_PART_SIZE = 5 * 1024 ** 3;
const MAX_COPY_SIZE = 5 * 1024 ** 4;

const tooLarge = () =>
  new StoreError("EntityTooLarge", "Your proposed upload exceeds the maximum allowed object size.", 400);

/** The upload the request names, checked against its key. */
async function uploadOf(ctx: S3Request): Promise<{ ref: UploadRef; upload: UploadInfo }> {
  const ref = { bucket: ctx.bucket, key: ctx.key, uploadId: ctx.query.get("uploadId")! };
  return { ref, upload: await readUpload(ctx.store, ref) };
}

/** Stages a part's bytes (sealed with `objectKey` when the upload is encrypted) and stores it durably. */
async function receivePart(
  ctx: S3Request,
  ref: UploadRef,
  partNumber: number,
  body: ChecksummedBody,
  length: number,
  algorithm: ChecksumAlgorithm | undefined,
  objectKey: Uint8Array | undefined,
) {
  // SSE hook: the part is sealed as it arrives (its size and ETag stay the plaintext's).
  const staged = objectKey
    ? (await stageEncrypted(ctx.store, body.body, objectKey, length)).staged
    : await stageData(ctx.store, body.body, length);
  if (staged.size !== length) {
    await discardStaged(staged);
    throw new StoreError(
      "IncompleteBody",
      "You did not provide the number of bytes specified by the Content-Length HTTP header.",
      400,
    );
  }
  const checksum = algorithm ? { algorithm, value: body.value()! } : undefined;
  return await storePart(ctx.store, ref, partNumber, staged, checksum);
}

export async function uploadPart(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const length = ctx.auth.contentLength;
  if (length === undefined) {
    throw new StoreError("MissingContentLength", "You must provide the Content-Length HTTP header.", 411);
  }
  if (length > MAX_PART_SIZE) throw tooLarge();
  const partNumber = Number(ctx.query.get("partNumber"));
  const { ref, upload } = await uploadOf(ctx);
  const spec = declaredChecksum(ctx.request.headers, ctx.auth.trailer);
  if (spec && upload.checksum && spec.algorithm !== upload.checksum.algorithm) throw invalidChecksum();
  const sse = await sseForPart(ctx, upload.sse);
  // Parts of an upload created with an algorithm get its checksum even when the client sent none.
  const algorithm = spec?.algorithm ?? upload.checksum?.algorithm;
  const body = checksummedBody(ctx.auth.body, spec, ctx.auth.trailer, upload.checksum?.algorithm);
  const part = await receivePart(ctx, ref, partNumber, body, length, algorithm, sse.objectKey);
  const headers = part.checksum ? checksumHeaders({ ...part.checksum, type: "FULL_OBJECT" }) : {};
  delete headers["x-amz-checksum-type"];
  return emptyResponse(200, { etag: `"${part.etag}"`, ...headers, ...sse.headers });
}

const invalidRangeForm = () =>
  invalidArgument(
    "The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy",
  );

/** x-amz-copy-source-range: only `bytes=first-last`, inside the source (MinIO's errors); the whole source without one. */
function copyRange(headers: Headers, size: number): { start: number; length: number } {
  const text = headers.get("x-amz-copy-source-range");
  if (text === null) return { start: 0, length: size };
  const m = /^bytes=(\d+)-(\d+)$/.exec(text.trim());
  if (!m || Number(m[1]) > Number(m[2])) throw invalidRangeForm();
  const start = Number(m[1]), end = Number(m[2]);
  if (start >= size || end >= size) throw invalidArgument("Range specified is not valid for source object");
  return { start, length: end - start + 1 };
}

/** UploadPartCopy's part number: MinIO answers InvalidPart for one that is not a positive integer. */
function copyPartNumber(query: URLSearchParams): number {
  const text = query.get("partNumber") ?? "";
  const n = /^\d+$/.test(text) ? Number(text) : 0;
  if (n <= 0) {
    throw new StoreError(
      "InvalidPart",
      "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
      400,
    );
  }
  if (n > 10000) throw invalidArgument("Part number must be an integer between 1 and 10000, inclusive");
  return n;
}

export async function uploadPartCopy(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  // As MinIO: a part copy cannot ask for SSE-KMS (the upload's encryption applies).
  if (ctx.request.headers.get("x-amz-server-side-encryption") === "aws:kms") {
    throw new StoreError(
      "NotImplemented",
      "A header you provided implies functionality that is not implemented",
      501,
    );
  }
  const partNumber = copyPartNumber(ctx.query);
  const { ref, upload } = await uploadOf(ctx);
  const source = await resolveCopySource(ctx);
  const { start, length } = copyRange(ctx.request.headers, source.version.size);
  if (length > MAX_COPY_SIZE) throw tooLarge();
  // SSE hook: the destination part is sealed with the upload's key (SSE-C: the request's customer key).
  const sse = await sseForPart(ctx, upload.sse);
  const algorithm = upload.checksum?.algorithm;
  const body = checksummedBody(await readCopySource(ctx, source, start, length), null, undefined, algorithm);
  const part = await receivePart(ctx, ref, partNumber, body, length, algorithm, sse.objectKey);
  return xmlResponse("CopyPartResult", {
    LastModified: xmlTime(part.lastModified),
    ETag: `"${part.etag}"`,
    // As AWS: the part's checksum, which CompleteMultipartUpload must then name.
    ...checksumXml(part.checksum),
  }, { headers: { ...sse.headers, ...copySourceVersionHeader(source) } });
}
