/** PutObject and DeleteObject (minio-protocol §5.14): parsed here, decided by the write path (write/). */
import { entityTooLarge, missingContentLength } from "../core/errors.ts";
import { deleteObject as deleteThrough } from "../write/changes.ts";
import { writeObject } from "../write/object.ts";
import { checksumHeaders } from "./checksums.ts";
import { emptyResponse, type S3Request, versionIdHeader } from "./context.ts";
import { checkKey } from "./object_read.ts";

const MAX_OBJECT_SIZE = 5 * 1024 ** 4;

export async function putObject(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  ctx.store.bucket(ctx.bucket);
  const length = ctx.auth.contentLength;
  if (length === undefined || Number.isNaN(length)) throw missingContentLength();
  if (length > MAX_OBJECT_SIZE) throw entityTooLarge();
  const written = await writeObject(ctx, {
    kind: "put",
    headers: ctx.request.headers,
    body: () => Promise.resolve(ctx.auth.body),
    length,
    trailer: ctx.auth.trailer,
  });
  return emptyResponse(200, {
    etag: `"${written.version.etag}"`,
    ...versionIdHeader(written.version.versionId),
    ...checksumHeaders(written.checksum),
    ...written.sseHeaders,
    ...written.lifecycleHeaders,
  });
}

export async function deleteObject(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  ctx.store.bucket(ctx.bucket);
  const requestedVersion = ctx.query.get("versionId") ?? undefined;
  const outcome = await deleteThrough(ctx, ctx.key, requestedVersion, true);
  // As MinIO: a null delete marker (suspended bucket) is reported by neither header.
  const headers = versionIdHeader(outcome.versionId);
  if (outcome.deleteMarker && headers["x-amz-version-id"]) headers["x-amz-delete-marker"] = "true";
  return emptyResponse(204, headers);
}
