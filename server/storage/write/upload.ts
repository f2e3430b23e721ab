/**
 * A multipart upload's two ends through the write path (path.ts gives the order): creation settles the
 * version's settings, the checksum its parts and object carry, its encryption and whether its parts are
 * compressed; completion joins the parts as stored and commits them like any other write.
 */
import { StoreError } from "../core/errors.ts";
import type { UploadInfo } from "../core/records.ts";
import {
  clearUpload,
  initiateUpload,
  readUpload,
  type RequestedPart,
  type UploadRef,
} from "../fs/multipart.ts";
import { joinParts } from "../fs/upload_join.ts";
import { replicationOnWrite } from "../replication/hooks.ts";
import { sseForCompletion, sseForWrite, sseResponseHeaders, uploadSseOf } from "../sse/request.ts";
import { EncryptedJoin } from "../sse/stored.ts";
import { expectedObjectChecksum, uploadChecksum } from "./checksums.ts";
import { writePrecondition } from "./conditions.ts";
import { afterWrite, commitWrite, qualifiesForCompression, type WriteContext, type Written } from "./path.ts";
import { settingsFromHeaders } from "./settings.ts";

/** CreateMultipartUpload: steps 1, 3, 4 and the checksum and compression every part will get. */
export async function startUpload(
  ctx: WriteContext,
): Promise<{ upload: UploadInfo; sseHeaders: Record<string, string> }> {
  const state = ctx.store.bucket(ctx.bucket);
  const headers = ctx.request.headers;
  const settings = await settingsFromHeaders(ctx, state, headers);
  const checksum = uploadChecksum(headers);
  writePrecondition(headers)?.(state.objects.get(ctx.key)?.versions[0]);
  const sse = await sseForWrite(ctx, headers);
  if (sse?.write.key.type === "SSE-C" && checksum?.type === "FULL_OBJECT") {
    throw new StoreError(
      "NotImplemented",
      "Full-object checksums are not supported for multipart uploads with customer-provided keys",
      501,
    );
  }
  // Decided here, on the key and content type; encrypted objects never are.
  const compress = !sse && qualifiesForCompression(ctx, settings);
  const upload = await initiateUpload(ctx.store, state, {
    key: ctx.key,
    options: settings,
    checksum,
    ...(sse ? { sse: uploadSseOf(sse.write) } : compress ? { compress } : {}),
  });
  return { upload, sseHeaders: sse?.headers ?? {} };
}

/**
 * CompleteMultipartUpload: step 3 again, the parts joined as stored (encrypted parts are never decrypted,
 * compressed ones stay gzip members), then steps 7 to 12. The object is dated when it is committed.
 */
export async function completeUpload(
  ctx: WriteContext,
  ref: UploadRef,
  parts: RequestedPart[],
): Promise<Written> {
  const state = ctx.store.bucket(ctx.bucket);
  const upload = await readUpload(ctx.store, ref);
  const precondition = writePrecondition(ctx.request.headers);
  precondition?.(state.objects.get(ctx.key)?.versions[0]);
  const completion = upload.sse ? await sseForCompletion(ctx, upload.sse) : undefined;
  const join = completion ? new EncryptedJoin(completion.write, completion.objectKey) : undefined;
  const replication = await replicationOnWrite(ctx, ctx.key, upload.options.tags);
  // Its x-amz-checksum-* headers describe the object, not the request's XML body.
  const expected = expectedObjectChecksum(ctx.request.headers);
  const joined = await joinParts(ctx.store, ref, parts, { expected, join });
  const version = await commitWrite(ctx, state, {
    staged: joined.staged,
    settings: joined.upload.options,
    compress: false,
    sse: join?.finish(joined.storedSize),
    etag: joined.etag,
    checksum: joined.checksum,
    parts: {
      sizes: joined.partSizes,
      checksums: joined.partChecksums,
      storedSizes: joined.compressed ? joined.storedPartSizes : undefined,
    },
    replication,
    precondition,
  });
  await clearUpload(ctx.store, ref);
  const lifecycleHeaders = await afterWrite(ctx, state, version, "s3:ObjectCreated:CompleteMultipartUpload");
  return {
    version,
    checksum: version.checksum ?? joined.checksum,
    sseHeaders: sseResponseHeaders(version.sse),
    lifecycleHeaders,
  };
}
