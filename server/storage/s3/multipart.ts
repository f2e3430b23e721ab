/** Multipart upload handlers (minio-protocol §5.16). */
import { children, childText } from "../../s3/xml.ts";
import { discardStaged, stageData } from "../fs/objects.ts";
import { abortUpload, completeUpload, initiateUpload, listParts, readUpload, storePart } from "../fs/multipart.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { StoreError } from "../fs/store.ts";
import { bucketOf, emptyResponse, OWNER, readXmlBody, type S3Request, xmlResponse, xmlTime } from "./context.ts";
import { quotaGuard, writeOptionsFromHeaders } from "./objects.ts";

const MAX_PART_SIZE = 5 * 1024 ** 3;

export async function createMultipartUpload(ctx: S3Request): Promise<Response> {
  const problem = objectKeyProblem(ctx.key);
  if (problem) throw new StoreError("KeyTooLongError", problem, 400);
  const state = bucketOf(ctx);
  const { beforeCommit: _b, expectedSize: _e, etag: _t, now: _n, ...options } = await writeOptionsFromHeaders(ctx, state, ctx.request.headers);
  const upload = await initiateUpload(ctx.store, state, ctx.key, options);
  return xmlResponse("InitiateMultipartUploadResult", { Bucket: ctx.bucket, Key: ctx.key, UploadId: upload.uploadId });
}

export async function uploadPart(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const length = ctx.auth.contentLength;
  if (length === undefined) throw new StoreError("MissingContentLength", "You must provide the Content-Length HTTP header.", 411);
  if (length > MAX_PART_SIZE) throw new StoreError("EntityTooLarge", "Your proposed upload exceeds the maximum allowed object size.", 400);
  const partNumber = Number(ctx.query.get("partNumber"));
  const uploadId = ctx.query.get("uploadId")!;
  const upload = await readUpload(ctx.store, ctx.bucket, uploadId);
  if (upload.key !== ctx.key) throw new StoreError("NoSuchUpload", "The specified multipart upload does not exist.", 404);
  const staged = await stageData(ctx.store, ctx.auth.body, length);
  if (staged.size !== length) {
    await discardStaged(staged);
    throw new StoreError("IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header.", 400);
  }
  const part = await storePart(ctx.store, ctx.bucket, uploadId, partNumber, staged);
  return emptyResponse(200, { etag: `"${part.etag}"` });
}

export async function completeMultipartUpload(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const root = await readXmlBody(ctx, "CompleteMultipartUpload");
  const parts = children(root, "Part").map((p) => ({ partNumber: Number(childText(p, "PartNumber")), etag: childText(p, "ETag") ?? "" }));
  const uploadId = ctx.query.get("uploadId")!;
  const upload = await readUpload(ctx.store, ctx.bucket, uploadId);
  if (upload.key !== ctx.key) throw new StoreError("NoSuchUpload", "The specified multipart upload does not exist.", 404);
  const { version } = await completeUpload(ctx.store, state, uploadId, parts, { beforeCommit: quotaGuard(ctx, state) });
  const headers: Record<string, string> = state.meta.versioning ? { "x-amz-version-id": version.versionId } : {};
  return xmlResponse("CompleteMultipartUploadResult", {
    Location: `${ctx.url.origin}/${ctx.bucket}/${ctx.key}`,
    Bucket: ctx.bucket,
    Key: ctx.key,
    ETag: `"${version.etag}"`,
  }, { headers });
}

export async function abortMultipartUpload(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await abortUpload(ctx.store, ctx.bucket, ctx.query.get("uploadId")!);
  return emptyResponse(204);
}

export async function listPartsHandler(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const uploadId = ctx.query.get("uploadId")!;
  const parts = await listParts(ctx.store, ctx.bucket, uploadId);
  const marker = Number(ctx.query.get("part-number-marker") ?? 0);
  const maxParts = Math.min(Number(ctx.query.get("max-parts") ?? 1000) || 1000, 1000);
  const after = parts.filter((p) => p.partNumber > marker);
  const page = after.slice(0, maxParts);
  return xmlResponse("ListPartsResult", {
    Bucket: ctx.bucket,
    Key: ctx.key,
    UploadId: uploadId,
    Initiator: OWNER,
    Owner: OWNER,
    StorageClass: "STANDARD",
    PartNumberMarker: marker,
    NextPartNumberMarker: page.length ? page[page.length - 1].partNumber : 0,
    MaxParts: maxParts,
    IsTruncated: after.length > maxParts,
    Part: page.map((p) => ({ PartNumber: p.partNumber, LastModified: xmlTime(p.lastModified), ETag: `"${p.etag}"`, Size: p.size })),
  });
}
