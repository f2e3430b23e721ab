/**
 * The source of CopyObject and UploadPartCopy: `x-amz-copy-source` (`/bucket/key[?versionId=]`, URL-encoded),
 * the caller's right to read it, its x-amz-copy-source-if-* conditions and its SSE-C key
 * (x-amz-copy-source-server-side-encryption-customer-*).
 */
import { findVersion } from "../fs/objects.ts";
import { sseForRead, type SseRead } from "../sse/request.ts";
import type { S3Request } from "./context.ts";
import { checkCopySourceConditions } from "./preconditions.ts";
import { invalidArgument, StoreError } from "../core/errors.ts";
import type { VersionRecord } from "../core/records.ts";
import { readVersion } from "../fs/read.ts";

export interface CopySource {
  bucket: string;
  key: string;
  /** The version the header named (echoed as x-amz-copy-source-version-id). */
  versionId?: string;
  version: VersionRecord;
  sse: SseRead;
}

const invalidCopySource = () =>
  invalidArgument("Copy Source must mention the source bucket and key: sourcebucket/sourcekey");

function parseCopySource(header: string): { bucket: string; key: string; versionId?: string } {
  const [pathPart, queryPart] = header.split("?", 2);
  let path: string;
  try {
    path = decodeURIComponent(pathPart).replace(/^\/+/, "");
  } catch {
    throw invalidCopySource();
  }
  const slash = path.indexOf("/");
  if (slash <= 0 || slash === path.length - 1) throw invalidCopySource();
  const versionId = queryPart ? new URLSearchParams(queryPart).get("versionId") ?? undefined : undefined;
  return { bucket: path.slice(0, slash), key: path.slice(slash + 1), versionId };
}

/** The version a copy reads, once the caller may read it and its conditions hold. */
export async function resolveCopySource(ctx: S3Request): Promise<CopySource> {
  const source = parseCopySource(ctx.request.headers.get("x-amz-copy-source") ?? "");
  if (!ctx.allowed("s3:GetObject", source.bucket, source.key)) {
    throw new StoreError("AccessDenied", "Access Denied.", 403);
  }
  const version = findVersion(ctx.store.bucket(source.bucket), source.key, source.versionId);
  if (version.deleteMarker) throw new StoreError("NoSuchKey", "The specified key does not exist.", 404);
  checkCopySourceConditions(ctx.request.headers, version);
  // SSE hook: an SSE-C source opens with the copy-source key.
  const sse = await sseForRead(ctx, version, { copySource: true, bucket: source.bucket, key: source.key });
  return { ...source, version, sse };
}

/** The plaintext of `length` bytes of the source from `start`. */
export function readCopySource(
  ctx: S3Request,
  source: CopySource,
  start = 0,
  length = source.version.size,
): Promise<ReadableStream<Uint8Array>> {
  return readVersion(
    ctx.store,
    source.bucket,
    source.key,
    source.version,
    start,
    length,
    source.sse.decrypt,
  );
}

/** x-amz-copy-source-version-id, when the copy source named a version. */
export const copySourceVersionHeader = (source: CopySource): Record<string, string> =>
  source.versionId ? { "x-amz-copy-source-version-id": source.versionId } : {};
