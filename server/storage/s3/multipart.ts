/**
 * Multipart uploads: create, complete, abort, list parts (minio-protocol §5.16), parsed here and decided by
 * the write path (write/upload.ts); parts are upload_part.ts.
 */
import { CHECKSUM_ALGORITHMS, checksumElement } from "../../lib/s3/checksums.ts";
import { children, childText } from "../../lib/s3/xml.ts";
import { abortUpload, listParts, readUpload, type UploadRef } from "../fs/multipart.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { StoreError } from "../core/errors.ts";
import { completeUpload, startUpload } from "../write/upload.ts";
import { checksumHeaders, checksumXml } from "./checksums.ts";
import {
  bucketOf,
  emptyResponse,
  OWNER,
  readXmlBody,
  type S3Request,
  versionIdHeader,
  xmlResponse,
  xmlTime,
} from "./context.ts";

/** The upload a request names: its id, bound to the request's bucket and key (fs/multipart.ts UploadRef). */
const uploadRef = (ctx: S3Request): UploadRef => ({
  bucket: ctx.bucket,
  key: ctx.key,
  uploadId: ctx.query.get("uploadId")!,
});

export async function createMultipartUpload(ctx: S3Request): Promise<Response> {
  const problem = objectKeyProblem(ctx.key);
  if (problem) throw new StoreError("KeyTooLongError", problem, 400);
  bucketOf(ctx);
  const { upload, sseHeaders } = await startUpload(ctx);
  const headers: Record<string, string> = upload.checksum
    ? { "x-amz-checksum-algorithm": upload.checksum.algorithm, "x-amz-checksum-type": upload.checksum.type }
    : {};
  Object.assign(headers, sseHeaders);
  return xmlResponse("InitiateMultipartUploadResult", {
    Bucket: ctx.bucket,
    Key: ctx.key,
    UploadId: upload.uploadId,
  }, { headers });
}

export async function completeMultipartUpload(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  // Its x-amz-checksum-* headers describe the object, not this XML body.
  const root = await readXmlBody(ctx, "CompleteMultipartUpload", { objectChecksum: true });
  const parts = children(root, "Part").map((p) => {
    const checksums: Record<string, string> = {};
    for (const algorithm of CHECKSUM_ALGORITHMS) {
      const value = childText(p, checksumElement(algorithm));
      if (value) checksums[algorithm] = value;
    }
    return { partNumber: Number(childText(p, "PartNumber")), etag: childText(p, "ETag") ?? "", checksums };
  });
  const { version, checksum, sseHeaders, lifecycleHeaders } = await completeUpload(
    ctx,
    uploadRef(ctx),
    parts,
  );
  return xmlResponse("CompleteMultipartUploadResult", {
    Location: `${ctx.url.origin}/${ctx.bucket}/${ctx.key}`,
    Bucket: ctx.bucket,
    Key: ctx.key,
    ETag: `"${version.etag}"`,
    ...checksumXml(checksum),
    ChecksumType: checksum?.type,
  }, {
    headers: {
      ...versionIdHeader(version.versionId),
      ...lifecycleHeaders,
      ...checksumHeaders(checksum),
      ...sseHeaders,
    },
  });
}

export async function abortMultipartUpload(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await abortUpload(ctx.store, uploadRef(ctx));
  return emptyResponse(204);
}

export async function listPartsHandler(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const ref = uploadRef(ctx);
  const parts = await listParts(ctx.store, ref);
  const { checksum } = await readUpload(ctx.store, ref);
  const marker = Number(ctx.query.get("part-number-marker") ?? 0);
  const maxParts = Math.min(Number(ctx.query.get("max-parts") ?? 1000) || 1000, 1000);
  const after = parts.filter((p) => p.partNumber > marker);
  const page = after.slice(0, maxParts);
  return xmlResponse("ListPartsResult", {
    Bucket: ctx.bucket,
    Key: ctx.key,
    UploadId: ref.uploadId,
    Initiator: OWNER,
    Owner: OWNER,
    StorageClass: "STANDARD",
    PartNumberMarker: marker,
    NextPartNumberMarker: page.length ? page[page.length - 1].partNumber : 0,
    MaxParts: maxParts,
    IsTruncated: after.length > maxParts,
    ChecksumAlgorithm: checksum?.algorithm,
    ChecksumType: checksum?.type,
    Part: page.map((p) => ({
      PartNumber: p.partNumber,
      LastModified: xmlTime(p.lastModified),
      ETag: `"${p.etag}"`,
      Size: p.size,
      ...checksumXml(p.checksum),
    })),
  });
}
