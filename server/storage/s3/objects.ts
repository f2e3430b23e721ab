/**
 * PutObject and DeleteObject (minio-protocol §5.14), and what writes share: options from request headers,
 * the bucket quota, governance bypass. Reads are object_read.ts, copies object_copy.ts.
 */
import { commitVersion, deleteVersion, stageData, type WriteOptions } from "../fs/objects.ts";
import { isCompressible } from "../fs/compression.ts";
import { defaultRetention } from "./buckets.ts";
import { checksumHeaders, checksummedBody, declaredChecksum } from "./checksums.ts";
// replication hooks (server/storage/replication/)
import {
  replicaDeleteOptions,
  replicateAfterDelete,
  replicateAfterWrite,
  replicationOnDelete,
  replicationOnWrite,
  replicaWriteOptions,
} from "../replication/hooks.ts";
import { sseForWrite } from "../sse/request.ts";
import { stageForWrite } from "../sse/staging.ts";
import {
  bucketOf,
  deleteEventName,
  emptyResponse,
  notifyObject,
  type S3Request,
  versionIdHeader,
} from "./context.ts";
import { checkKey } from "./object_read.ts";
import { writePrecondition } from "./preconditions.ts";
import { invalidArgument, StoreError } from "../core/errors.ts";
import type { BucketState } from "../core/records.ts";

const MAX_OBJECT_SIZE = 5 * 1024 ** 4;
const STORED_HEADERS = [
  "cache-control",
  "content-disposition",
  "content-encoding",
  "content-language",
  "expires",
];

/** Object lock and tagging and metadata from request headers (shared by put, copy, multipart). */
export async function writeOptionsFromHeaders(
  ctx: S3Request,
  state: BucketState,
  headers: Headers,
): Promise<WriteOptions> {
  const userMetadata: Record<string, string> = {};
  const stored: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith("x-amz-meta-")) userMetadata[name.slice(11)] = value;
    else if (STORED_HEADERS.includes(name)) {
      // aws-chunked describes this request's framing, not the object: it goes, the rest stays as sent.
      stored[name] = name === "content-encoding"
        ? value.split(",").filter((s) => s.trim().toLowerCase() !== "aws-chunked").join(",").trim()
        : value;
    }
  });
  if (stored["content-encoding"]?.trim() === "") delete stored["content-encoding"];
  if (JSON.stringify(userMetadata).length > 8192) {
    throw new StoreError(
      "MetadataTooLarge",
      "Your metadata headers exceed the maximum allowed metadata size.",
      400,
    );
  }
  const options: WriteOptions = {
    contentType: headers.get("content-type") ?? undefined,
    userMetadata,
    headers: stored,
    now: ctx.now,
  };
  const tagging = headers.get("x-amz-tagging");
  if (tagging) {
    const tags = Object.fromEntries(new URLSearchParams(tagging));
    if (Object.keys(tags).length > 10) {
      throw new StoreError("BadRequest", "Object tags cannot be greater than 10", 400);
    }
    options.tags = tags;
  }
  const mode = headers.get("x-amz-object-lock-mode");
  const until = headers.get("x-amz-object-lock-retain-until-date");
  const hold = headers.get("x-amz-object-lock-legal-hold");
  if ((mode || until || hold) && !state.meta.objectLock) {
    throw new StoreError("InvalidRequest", "Bucket is missing ObjectLockConfiguration", 400);
  }
  if (mode || until) {
    if (!mode || !until) {
      throw invalidArgument(
        "x-amz-object-lock-mode and x-amz-object-lock-retain-until-date must both be supplied",
      );
    }
    if (mode !== "GOVERNANCE" && mode !== "COMPLIANCE") throw invalidArgument("Unknown wormMode directive.");
    if (Number.isNaN(Date.parse(until)) || Date.parse(until) <= ctx.now.getTime()) {
      throw invalidArgument("The retain until date must be in the future");
    }
    options.retention = { mode, until: new Date(until).toISOString() };
  } else if (state.meta.objectLock) {
    const fallback = await defaultRetention(ctx);
    if (fallback) {
      const until = new Date(ctx.now);
      if (fallback.days) until.setUTCDate(until.getUTCDate() + fallback.days);
      if (fallback.years) until.setUTCFullYear(until.getUTCFullYear() + fallback.years);
      options.retention = { mode: fallback.mode, until: until.toISOString() };
    }
  }
  if (hold) {
    if (hold !== "ON" && hold !== "OFF") throw invalidArgument("Unknown legal hold status");
    options.legalHold = hold === "ON";
  }
  return options;
}

/** Refuses a write that would take the bucket over its hard quota (minio-protocol §3.10). */
export function quotaGuard(ctx: S3Request, state: BucketState): (size: number) => Promise<void> {
  return async (size) => {
    const quota = await ctx.facts.bucketQuota(state.name);
    if (quota <= 0) return;
    let used = 0;
    for (const record of state.objects.values()) for (const v of record.versions) used += v.size;
    if (used + size > quota) {
      throw new StoreError("XMinioAdminBucketQuotaExceeded", "Bucket quota exceeded", 400);
    }
  };
}

export async function putObject(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  const state = bucketOf(ctx);
  const length = ctx.auth.contentLength;
  if (length === undefined || Number.isNaN(length)) {
    throw new StoreError("MissingContentLength", "You must provide the Content-Length HTTP header.", 411);
  }
  if (length > MAX_OBJECT_SIZE) {
    throw new StoreError(
      "EntityTooLarge",
      "Your proposed upload exceeds the maximum allowed object size.",
      400,
    );
  }
  const options = await writeOptionsFromHeaders(ctx, state, ctx.request.headers);
  const replica = replicaWriteOptions(ctx); // replication hook
  // If-Match / If-None-Match: checked before the body is read, and again under the key's lock at commit.
  const precondition = writePrecondition(ctx.request.headers);
  precondition?.(state.objects.get(ctx.key)?.versions[0]);
  // SSE hook (server/storage/sse): the encryption the request asks for, or the bucket's default.
  const sse = await sseForWrite(ctx, ctx.request.headers);
  const spec = declaredChecksum(ctx.request.headers, ctx.auth.trailer);
  const checksum = checksummedBody(ctx.auth.body, spec, ctx.auth.trailer);
  // SSE hook: an encrypted body is sealed as it arrives (its plaintext never reaches the disk).
  const staged = sse
    ? await stageForWrite(ctx.store, checksum.body, sse.write, length)
    : await stageData(ctx.store, checksum.body, length);
  const stored = spec
    ? { algorithm: spec.algorithm, value: checksum.value()!, type: "FULL_OBJECT" as const }
    : undefined;
  const compress = isCompressible(ctx.key, options.contentType, ctx.facts.compression());
  const replication = await replicationOnWrite(ctx, ctx.key, options.tags); // replication hook
  const version = await commitVersion(ctx.store, state, ctx.key, staged, {
    ...options,
    checksum: stored,
    expectedSize: length,
    beforeCommit: quotaGuard(ctx, state),
    precondition,
    compress,
    ...replica,
    replication,
    sse: sse?.write,
  });
  await replicateAfterWrite(ctx, ctx.key, version); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:Put", ctx.key, version);
  const lifecycle = await ctx.store.lifecycle?.headers(state, ctx.key, version); // lifecycle hook
  return emptyResponse(200, {
    etag: `"${version.etag}"`,
    ...versionIdHeader(version.versionId),
    ...checksumHeaders(version.checksum ?? stored),
    ...sse?.headers,
    ...lifecycle,
  });
}

/** Whether the caller asked to bypass governance retention and may do so. */
export function bypassGovernance(ctx: S3Request, key: string): boolean {
  if (ctx.request.headers.get("x-amz-bypass-governance-retention")?.toLowerCase() !== "true") return false;
  return ctx.allowed("s3:BypassGovernanceRetention", ctx.bucket, key);
}

export async function deleteObject(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  const state = bucketOf(ctx);
  const requestedVersion = ctx.query.get("versionId") ?? undefined;
  const replication = await replicationOnDelete(ctx, ctx.key, requestedVersion); // replication hook
  const outcome = await deleteVersion(ctx.store, state, ctx.key, {
    versionId: requestedVersion,
    bypassGovernance: bypassGovernance(ctx, ctx.key),
    now: ctx.now,
    replication,
    ...replicaDeleteOptions(ctx), // replication hook
  });
  await replicateAfterDelete(ctx, ctx.key, requestedVersion, outcome, replication); // replication hook
  notifyObject(ctx, deleteEventName(requestedVersion, outcome), ctx.key, undefined, outcome.versionId);
  // As MinIO: a null delete marker (suspended bucket) is reported by neither header.
  const headers = versionIdHeader(outcome.versionId);
  if (outcome.deleteMarker && headers["x-amz-version-id"]) headers["x-amz-delete-marker"] = "true";
  return emptyResponse(204, headers);
}
