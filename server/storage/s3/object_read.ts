/**
 * GetObject and HeadObject (minio-protocol §5.14): the version asked for, its headers, conditional requests,
 * byte ranges and `?partNumber=N` (one part of a multipart object; an object of one PUT is one part).
 */
import { findVersion } from "../fs/objects.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { replicationStatusHeader } from "../replication/hooks.ts"; // replication hook
import { sseForRead } from "../sse/request.ts";
import { checksumHeaders } from "./checksums.ts";
import { bucketOf, httpTime, type S3Request, versionIdHeader } from "./context.ts";
import { readPreconditions } from "./preconditions.ts";
import { StoreError } from "../core/errors.ts";
import type { BucketState, StoredChecksum, VersionRecord } from "../core/records.ts";
import { readVersion } from "../fs/read.ts";
import { notifyObject } from "../events/records.ts";

const MAX_PART_NUMBER = 10000;

export function checkKey(key: string): void {
  const problem = objectKeyProblem(key);
  if (problem) {
    throw new StoreError(
      problem.includes("1024") ? "KeyTooLongError" : "XMinioInvalidObjectName",
      problem,
      400,
    );
  }
}

/** Response headers describing a version (get and head), with the checksum to report if any. */
function objectHeaders(version: VersionRecord, query: URLSearchParams, checksum?: StoredChecksum) {
  const headers: Record<string, string> = {
    ...checksumHeaders(checksum),
    etag: `"${version.etag}"`,
    "last-modified": httpTime(version.lastModified),
    "content-type": version.contentType ?? "application/octet-stream",
    "accept-ranges": "bytes",
    ...versionIdHeader(version.versionId),
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

const unsatisfiable = (size: number) =>
  new StoreError("InvalidRange", "The requested range is not satisfiable", 416, {
    "content-range": `bytes */${size}`,
  });

/** Parses a single `bytes=` range against the size; null when absent or not satisfiable as multi-range. */
export function parseRange(header: string | null, size: number): [number, number] | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number, end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size) throw unsatisfiable(size);
  return [start, end];
}

/** `?partNumber=`: an integer from 1 to 10000 (MinIO's errors), or undefined when absent. */
function partNumberOf(query: URLSearchParams, request: Request): number | undefined {
  const text = query.get("partNumber");
  if (text === null) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PART_NUMBER) {
    throw new StoreError(
      "InvalidArgument",
      "Part number must be an integer between 1 and 10000, inclusive",
      400,
    );
  }
  if (request.headers.get("range")) {
    throw new StoreError(
      "InvalidRequest",
      "Cannot specify both Range header and partNumber query parameter",
      400,
    );
  }
  return n;
}

/** Where part N lies in the object: a multipart object's parts, or the whole object as its only part. */
function partRange(version: VersionRecord, partNumber: number): { start: number; length: number } {
  const sizes = version.partSizes ?? [version.size];
  if (partNumber > sizes.length) {
    throw new StoreError("InvalidPartNumber", "The requested partnumber is not satisfiable", 416);
  }
  const start = sizes.slice(0, partNumber - 1).reduce((sum, n) => sum + n, 0);
  return { start, length: sizes[partNumber - 1] };
}

/** The version a read names (`?versionId=`, else the latest); a delete marker cannot be read. */
export function readTarget(ctx: S3Request, state: BucketState): VersionRecord {
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
 * The checksum a read reports: only when asked (x-amz-checksum-mode: ENABLED) and not for a range
 * (minio-protocol-2 §8.3); a part of a multipart object reports that part's, when one was stored.
 */
function reportedChecksum(
  request: Request,
  version: VersionRecord,
  sealed: { checksum?: StoredChecksum } | undefined,
  partNumber: number | undefined,
): StoredChecksum | undefined {
  if (request.headers.get("x-amz-checksum-mode") !== "ENABLED" || request.headers.has("range")) return;
  const stored = sealed ? sealed.checksum : version.checksum;
  if (!stored || !partNumber || !version.partSizes) return stored;
  const value = version.partChecksums?.[partNumber - 1];
  return value ? { ...stored, value } : undefined;
}

/**
 * What GET and HEAD share: the version asked for, its decryptor (the customer key checked), the bytes
 * to send (a range or a part), and the response headers, or the early answer its preconditions call for.
 */
async function readAnswer(ctx: S3Request) {
  checkKey(ctx.key);
  const partNumber = partNumberOf(ctx.query, ctx.request);
  const state = bucketOf(ctx);
  const version = readTarget(ctx, state);
  const sse = await sseForRead(ctx, version);
  const lifecycle = await ctx.store.lifecycle?.headers(state, ctx.key, version); // lifecycle hook
  const part = partNumber === undefined ? undefined : partRange(version, partNumber);
  const headers: Record<string, string> = {
    ...objectHeaders(version, ctx.query, reportedChecksum(ctx.request, version, sse.meta, partNumber)),
    ...sse.headers,
    ...lifecycle,
  };
  // A multipart object's part count comes with a part (MinIO sends it only for multipart ETags).
  if (part && version.partSizes) headers["x-amz-mp-parts-count"] = String(version.partSizes.length);
  const early = readPreconditions(ctx.request, version, headers);
  const range = part
    ? (part.length > 0 ? [part.start, part.start + part.length - 1] as [number, number] : null)
    : parseRange(ctx.request.headers.get("range"), version.size);
  return { version, decrypt: sse.decrypt, headers, early, range, partial: !!part || !!range };
}

export async function getObject(ctx: S3Request): Promise<Response> {
  const { version, decrypt, headers, early, range, partial } = await readAnswer(ctx);
  if (early) return early;
  notifyObject(ctx, "s3:ObjectAccessed:Get", ctx.key, version);
  const [start, end] = range ?? [0, version.size - 1];
  const length = end - start + 1;
  const body = await readVersion(ctx.store, ctx.bucket, ctx.key, version, start, length, decrypt);
  if (range) headers["content-range"] = `bytes ${start}-${end}/${version.size}`;
  return new Response(body, {
    status: partial ? 206 : 200,
    headers: { ...headers, "content-length": String(length) },
  });
}

export async function headObject(ctx: S3Request): Promise<Response> {
  const { version, headers, early, range, partial } = await readAnswer(ctx);
  if (early) return early;
  notifyObject(ctx, "s3:ObjectAccessed:Head", ctx.key, version);
  const length = range ? range[1] - range[0] + 1 : version.size;
  if (range) headers["content-range"] = `bytes ${range[0]}-${range[1]}/${version.size}`;
  return new Response(null, {
    status: partial ? 206 : 200,
    headers: { ...headers, "content-length": String(length) },
  });
}
