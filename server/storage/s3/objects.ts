/** Object handlers: put, get (ranges, conditions), head, delete, copy (minio-protocol §5.14). */
import {
  commitVersion,
  deleteVersion,
  findVersion,
  readVersion,
  stageData,
  type WriteOptions,
} from "../fs/objects.ts";
import { isCompressible } from "../fs/compression.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { type BucketState, StoreError, type VersionRecord } from "../fs/store.ts";
import { defaultRetention } from "./buckets.ts";
import { checksumHeaders, checksummedBody, declaredChecksum } from "./checksums.ts";
// replication hooks (server/storage/replication/)
import {
  replicaDeleteOptions,
  replicateAfterDelete,
  replicateAfterWrite,
  replicationOnDelete,
  replicationOnWrite,
  replicationStatusHeader,
  replicaWriteOptions,
} from "../replication/hooks.ts";
import { sseForRead, sseForWrite } from "../sse/request.ts";
import { stageForWrite } from "../sse/staging.ts";
import {
  bucketOf,
  deleteEventName,
  emptyResponse,
  httpTime,
  invalidArgument,
  notifyObject,
  type S3Request,
  xmlResponse,
  xmlTime,
} from "./context.ts";

const MAX_OBJECT_SIZE = 5 * 1024 ** 4;
const STORED_HEADERS = [
  "cache-control",
  "content-disposition",
  "content-encoding",
  "content-language",
  "expires",
];

function checkKey(key: string): void {
  const problem = objectKeyProblem(key);
  if (problem) {
    throw new StoreError(
      problem.includes("1024") ? "KeyTooLongError" : "XMinioInvalidObjectName",
      problem,
      400,
    );
  }
}

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
      stored[name] = name === "content-encoding"
        ? value.split(",").map((s) => s.trim()).filter((s) => s !== "aws-chunked").join(",")
        : value;
    }
  });
  if (stored["content-encoding"] === "") delete stored["content-encoding"];
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

function checkWritePreconditions(ctx: S3Request, state: BucketState): void {
  const latest = state.objects.get(ctx.key)?.versions[0];
  const exists = latest && !latest.deleteMarker;
  const noneMatch = ctx.request.headers.get("if-none-match");
  const match = ctx.request.headers.get("if-match");
  if (noneMatch === "*" && exists) {
    throw new StoreError(
      "PreconditionFailed",
      "At least one of the pre-conditions you specified did not hold",
      412,
    );
  }
  if (match && (!exists || !etagMatches(match, latest!.etag))) {
    throw new StoreError(
      "PreconditionFailed",
      "At least one of the pre-conditions you specified did not hold",
      412,
    );
  }
}

function versionHeaders(state: BucketState, version: VersionRecord): Record<string, string> {
  return state.meta.versioning ? { "x-amz-version-id": version.versionId } : {};
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
  checkWritePreconditions(ctx, state);
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
    ...versionHeaders(state, version),
    ...checksumHeaders(version.checksum ?? stored),
    ...sse?.headers,
    ...lifecycle,
  });
}

function etagMatches(header: string, etag: string): boolean {
  return header.split(",").map((t) => t.trim().replace(/^W\//, "").replace(/"/g, "")).some((t) =>
    t === "*" || t === etag
  );
}

/** Response headers describing a version (get and head). */
function objectHeaders(
  state: BucketState,
  version: VersionRecord,
  query: URLSearchParams,
  request: Request,
): Record<string, string> {
  // Checksums only for whole-object reads that ask for them (minio-protocol-2 §8.3).
  const withChecksum = request.headers.get("x-amz-checksum-mode") === "ENABLED" &&
    !request.headers.has("range");
  const headers: Record<string, string> = {
    ...(withChecksum ? checksumHeaders(version.checksum) : {}),
    etag: `"${version.etag}"`,
    "last-modified": httpTime(version.lastModified),
    "content-type": version.contentType ?? "application/octet-stream",
    "accept-ranges": "bytes",
    ...versionHeaders(state, version),
    ...(version.headers ?? {}),
    ...replicationStatusHeader(version), // replication hook
  };
  for (const [k, v] of Object.entries(version.userMetadata)) headers[`x-amz-meta-${k}`] = v;
  if (version.tags) headers["x-amz-tagging-count"] = String(Object.keys(version.tags).length);
  if (version.retention) {
    headers["x-amz-object-lock-mode"] = version.retention.mode;
    headers["x-amz-object-lock-retain-until-date"] = version.retention.until;
  }
  if (version.legalHold !== undefined) {
    headers["x-amz-object-lock-legal-hold"] = version.legalHold ? "ON" : "OFF";
  }
  if (version.storageClass) headers["x-amz-storage-class"] = version.storageClass;
  for (
    const name of [
      "content-type",
      "content-language",
      "expires",
      "cache-control",
      "content-disposition",
      "content-encoding",
    ]
  ) {
    const override = query.get(`response-${name}`);
    if (override) headers[name] = override;
  }
  return headers;
}

/** 304/412 per If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since (RFC 7232 order). */
function readPreconditions(
  request: Request,
  version: VersionRecord,
  headers: Record<string, string>,
): Response | null {
  const h = request.headers;
  const modified = Math.floor(Date.parse(version.lastModified) / 1000) * 1000;
  const match = h.get("if-match");
  const noneMatch = h.get("if-none-match");
  const since = h.get("if-modified-since");
  const unmodified = h.get("if-unmodified-since");
  if (match && !etagMatches(match, version.etag)) {
    throw new StoreError(
      "PreconditionFailed",
      "At least one of the pre-conditions you specified did not hold",
      412,
    );
  }
  if (!match && unmodified && modified > Date.parse(unmodified)) {
    throw new StoreError(
      "PreconditionFailed",
      "At least one of the pre-conditions you specified did not hold",
      412,
    );
  }
  if (noneMatch && etagMatches(noneMatch, version.etag)) {
    return new Response(null, {
      status: 304,
      headers: { etag: headers.etag, "last-modified": headers["last-modified"] },
    });
  }
  if (!noneMatch && since && modified <= Date.parse(since)) {
    return new Response(null, {
      status: 304,
      headers: { etag: headers.etag, "last-modified": headers["last-modified"] },
    });
  }
  return null;
}

/** Parses a single `bytes=` range against the size; null when absent or not satisfiable as multi-range. */
function parseRange(header: string | null, size: number): [number, number] | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number, end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) {
      throw new StoreError("InvalidRange", "The requested range is not satisfiable", 416, {
        "content-range": `bytes */${size}`,
      });
    }
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size) {
    throw new StoreError("InvalidRange", "The requested range is not satisfiable", 416, {
      "content-range": `bytes */${size}`,
    });
  }
  return [start, end];
}

function readTarget(ctx: S3Request, state: BucketState): VersionRecord {
  const versionId = ctx.query.get("versionId") ?? undefined;
  const version = findVersion(state, ctx.key, versionId);
  if (version.deleteMarker) {
    throw new StoreError(
      "MethodNotAllowed",
      "The specified method is not allowed against this resource.",
      405,
      {
        "x-amz-delete-marker": "true",
        "x-amz-version-id": version.versionId,
      },
    );
  }
  return version;
}

/**
 * What GET and HEAD share: the version asked for, its SSE object key (the customer key checked) and the
 * response headers (sealed checksum, lifecycle prediction), or the early answer its preconditions call for.
 */
async function readAnswer(ctx: S3Request) {
  checkKey(ctx.key);
  const state = bucketOf(ctx);
  const version = readTarget(ctx, state);
  const sse = await sseForRead(ctx, version);
  const lifecycle = await ctx.store.lifecycle?.headers(state, ctx.key, version); // lifecycle hook
  const headers = {
    ...objectHeaders(
      state,
      sse.meta ? { ...version, checksum: sse.meta.checksum } : version,
      ctx.query,
      ctx.request,
    ),
    ...sse.headers,
    ...lifecycle,
  };
  return {
    version,
    objectKey: sse.objectKey,
    headers,
    early: readPreconditions(ctx.request, version, headers),
  };
}

export async function getObject(ctx: S3Request): Promise<Response> {
  const { version, objectKey, headers, early } = await readAnswer(ctx);
  if (early) return early;
  const range = parseRange(ctx.request.headers.get("range"), version.size);
  notifyObject(ctx, "s3:ObjectAccessed:Get", ctx.key, version);
  if (range) {
    const [start, end] = range;
    return new Response(
      await readVersion(ctx.store, ctx.bucket, ctx.key, version, start, end - start + 1, objectKey),
      {
        status: 206,
        headers: {
          ...headers,
          "content-length": String(end - start + 1),
          "content-range": `bytes ${start}-${end}/${version.size}`,
        },
      },
    );
  }
  return new Response(
    await readVersion(ctx.store, ctx.bucket, ctx.key, version, 0, version.size, objectKey),
    { status: 200, headers: { ...headers, "content-length": String(version.size) } },
  );
}

export async function headObject(ctx: S3Request): Promise<Response> {
  const { version, headers, early } = await readAnswer(ctx);
  if (early) return early;
  notifyObject(ctx, "s3:ObjectAccessed:Head", ctx.key, version);
  return new Response(null, { status: 200, headers: { ...headers, "content-length": String(version.size) } });
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
  const headers: Record<string, string> = {};
  if (outcome.versionId && state.meta.versioning) headers["x-amz-version-id"] = outcome.versionId;
  if (outcome.deleteMarker) headers["x-amz-delete-marker"] = "true";
  return emptyResponse(204, headers);
}

function parseCopySource(header: string): { bucket: string; key: string; versionId?: string } {
  const [pathPart, queryPart] = header.split("?", 2);
  let path: string;
  try {
    path = decodeURIComponent(pathPart).replace(/^\/+/, "");
  } catch {
    throw invalidArgument("Copy Source must mention the source bucket and key: sourcebucket/sourcekey");
  }
  const slash = path.indexOf("/");
  if (slash <= 0 || slash === path.length - 1) {
    throw invalidArgument("Copy Source must mention the source bucket and key: sourcebucket/sourcekey");
  }
  const versionId = queryPart ? new URLSearchParams(queryPart).get("versionId") ?? undefined : undefined;
  return { bucket: path.slice(0, slash), key: path.slice(slash + 1), versionId };
}

export async function copyObject(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  const target = bucketOf(ctx);
  const source = parseCopySource(ctx.request.headers.get("x-amz-copy-source")!);
  if (!ctx.allowed("s3:GetObject", source.bucket, source.key)) {
    throw new StoreError("AccessDenied", "Access Denied.", 403);
  }
  const sourceState = ctx.store.bucket(source.bucket);
  const version = findVersion(sourceState, source.key, source.versionId);
  if (version.deleteMarker) throw new StoreError("NoSuchKey", "The specified key does not exist.", 404);
  const h = ctx.request.headers;
  const cond = (name: string) => h.get(`x-amz-copy-source-${name}`);
  const fail = () =>
    new StoreError(
      "PreconditionFailed",
      "At least one of the pre-conditions you specified did not hold",
      412,
    );
  if (cond("if-match") && !etagMatches(cond("if-match")!, version.etag)) throw fail();
  if (cond("if-none-match") && etagMatches(cond("if-none-match")!, version.etag)) throw fail();
  if (
    cond("if-unmodified-since") &&
    Date.parse(version.lastModified) > Date.parse(cond("if-unmodified-since")!) + 999
  ) throw fail();
  if (
    cond("if-modified-since") && Date.parse(version.lastModified) <= Date.parse(cond("if-modified-since")!)
  ) throw fail();
  const metadataDirective = h.get("x-amz-metadata-directive") ?? "COPY";
  const taggingDirective = h.get("x-amz-tagging-directive") ?? "COPY";
  if (!["COPY", "REPLACE"].includes(metadataDirective) || !["COPY", "REPLACE"].includes(taggingDirective)) {
    throw invalidArgument("Unknown metadata directive.");
  }
  // SSE hooks: the source decrypts (SSE-C with the copy-source key); the copy is encrypted as the request or
  // the target bucket's default says, with a key of its own.
  const sourceSse = await sseForRead(ctx, version, {
    copySource: true,
    bucket: source.bucket,
    key: source.key,
  });
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
  const sourceChecksum = sourceSse.meta ? sourceSse.meta.checksum : version.checksum;
  if (sourceChecksum?.type === "FULL_OBJECT") options.checksum = sourceChecksum;
  const sourceBytes = await readVersion(
    ctx.store,
    source.bucket,
    source.key,
    version,
    0,
    version.size,
    sourceSse.objectKey,
  );
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
  const headers: Record<string, string> = {
    ...versionHeaders(target, written),
    ...sse?.headers,
    ...lifecycle,
  };
  if (source.versionId) headers["x-amz-copy-source-version-id"] = source.versionId;
  return xmlResponse("CopyObjectResult", {
    LastModified: xmlTime(written.lastModified),
    ETag: `"${written.etag}"`,
  }, { headers });
}
