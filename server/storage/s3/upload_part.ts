/**
 * The parts of a multipart upload (minio-protocol §5.16): UploadPart takes the request body, UploadPartCopy
 * a range of an existing version (x-amz-copy-source-range, the copy source's conditions, SSE-C keys of
 * both ends, `?versionId=`). Either way the part is sealed with the upload's key when it is encrypted and
 * gets the upload's checksum algorithm.
 */
import { readUpload, type UploadRef } from "../fs/multipart.ts";
import {
  entityTooLarge,
  invalidArgument,
  missingContentLength,
  notImplemented,
  StoreError,
} from "../core/errors.ts";
import type { UploadInfo } from "../core/records.ts";
import { writePart } from "../write/part.ts";
import { checksumHeaders, checksumXml } from "./checksums.ts";
import { bucketOf, emptyResponse, type S3Request, xmlResponse, xmlTime } from "./context.ts";
import { copySourceVersionHeader, readCopySource, resolveCopySource } from "./copy_source.ts";

const MAX_PART_SIZE = 5 * 1024 ** 3;
const MAX_COPY_SIZE = 5 * 1024 ** 4;

/** The upload the request names, checked against its key. */
async function uploadOf(ctx: S3Request): Promise<{ ref: UploadRef; upload: UploadInfo }> {
  const ref = { bucket: ctx.bucket, key: ctx.key, uploadId: ctx.query.get("uploadId")! };
  return { ref, upload: await readUpload(ctx.store, ref) };
}

export async function uploadPart(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const length = ctx.auth.contentLength;
  if (length === undefined) throw missingContentLength();
  if (length > MAX_PART_SIZE) throw entityTooLarge();
  const partNumber = Number(ctx.query.get("partNumber"));
  const { ref, upload } = await uploadOf(ctx);
  const { part, sseHeaders } = await writePart(ctx, ref, upload, {
    partNumber,
    body: () => Promise.resolve(ctx.auth.body),
    length,
    copied: false,
    trailer: ctx.auth.trailer,
  });
  const headers = part.checksum ? checksumHeaders({ ...part.checksum, type: "FULL_OBJECT" }) : {};
  delete headers["x-amz-checksum-type"];
  return emptyResponse(200, { etag: `"${part.etag}"`, ...headers, ...sseHeaders });
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
  if (ctx.request.headers.get("x-amz-server-side-encryption") === "aws:kms") throw notImplemented();
  const partNumber = copyPartNumber(ctx.query);
  const { ref, upload } = await uploadOf(ctx);
  const source = await resolveCopySource(ctx);
  const { start, length } = copyRange(ctx.request.headers, source.version.size);
  if (length > MAX_COPY_SIZE) throw entityTooLarge();
  const { part, sseHeaders } = await writePart(ctx, ref, upload, {
    partNumber,
    body: () => readCopySource(ctx, source, start, length),
    length,
    copied: true,
  });
  return xmlResponse("CopyPartResult", {
    LastModified: xmlTime(part.lastModified),
    ETag: `"${part.etag}"`,
    // As AWS: the part's checksum, which CompleteMultipartUpload must then name.
    ...checksumXml(part.checksum),
  }, { headers: { ...sseHeaders, ...copySourceVersionHeader(source) } });
}
