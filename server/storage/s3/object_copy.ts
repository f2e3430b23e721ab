/** CopyObject (minio-protocol §5.14): a version copied whole, its metadata and tags copied or replaced. */
import { commitVersion, stageData, type WriteOptions } from "../fs/objects.ts";
import { isCompressible } from "../fs/compression.ts";
import { replicateAfterWrite, replicationOnWrite } from "../replication/hooks.ts"; // replication hooks
import { sseForWrite } from "../sse/request.ts";
import { stageForWrite } from "../sse/staging.ts";
import { bucketOf, notifyObject, type S3Request, versionIdHeader, xmlResponse, xmlTime } from "./context.ts";
import { copySourceVersionHeader, readCopySource, resolveCopySource } from "./copy_source.ts";
import { checkKey } from "./object_read.ts";
import { quotaGuard, writeOptionsFromHeaders } from "./objects.ts";
import { invalidArgument, StoreError } from "../core/errors.ts";

export async function copyObject(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  const target = bucketOf(ctx);
  const source = await resolveCopySource(ctx);
  const { version } = source;
  const h = ctx.request.headers;
  const metadataDirective = h.get("x-amz-metadata-directive") ?? "COPY";
  const taggingDirective = h.get("x-amz-tagging-directive") ?? "COPY";
  if (!["COPY", "REPLACE"].includes(metadataDirective) || !["COPY", "REPLACE"].includes(taggingDirective)) {
    throw invalidArgument("Unknown metadata directive.");
  }
  // SSE hook: the copy is encrypted as the request or the target bucket's default says, with a key of its own.
  const sse = await sseForWrite(ctx, h);
  const sameObject = source.bucket === ctx.bucket && source.key === ctx.key && !source.versionId;
  if (
    sameObject && metadataDirective === "COPY" && taggingDirective === "COPY" && !target.meta.versioning &&
    !sse && !version.sse
  ) {
    throw new StoreError(
      "InvalidRequest",
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
      400,
    );
  }
  const fromHeaders = await writeOptionsFromHeaders(ctx, target, h);
  const options: WriteOptions = metadataDirective === "REPLACE" ? fromHeaders : {
    ...fromHeaders,
    contentType: version.contentType,
    userMetadata: version.userMetadata,
    headers: version.headers,
  };
  if (taggingDirective === "COPY") options.tags = version.tags;
  // The bytes are the same, so a whole-object checksum still holds; a composite one described the parts.
  const sourceChecksum = source.sse.meta ? source.sse.meta.checksum : version.checksum;
  if (sourceChecksum?.type === "FULL_OBJECT") options.checksum = sourceChecksum;
  const sourceBytes = await readCopySource(ctx, source);
  const staged = sse
    ? await stageForWrite(ctx.store, sourceBytes, sse.write, version.size)
    : await stageData(ctx.store, sourceBytes);
  const compress = isCompressible(ctx.key, options.contentType, ctx.facts.compression());
  const replication = await replicationOnWrite(ctx, ctx.key, options.tags); // replication hook
  const written = await commitVersion(ctx.store, target, ctx.key, staged, {
    ...options,
    beforeCommit: quotaGuard(ctx, target),
    compress,
    replication,
    sse: sse?.write,
  });
  await replicateAfterWrite(ctx, ctx.key, written); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:Copy", ctx.key, written);
  const lifecycle = await ctx.store.lifecycle?.headers(target, ctx.key, written); // lifecycle hook
  return xmlResponse("CopyObjectResult", {
    LastModified: xmlTime(written.lastModified),
    ETag: `"${written.etag}"`,
  }, {
    headers: {
      ...versionIdHeader(written.versionId),
      ...sse?.headers,
      ...lifecycle,
      ...copySourceVersionHeader(source),
    },
  });
}
