/**
 * Conditional requests as MinIO evaluates them: reads (If-Match, If-None-Match, If-Modified-Since,
 * If-Unmodified-Since), writes (If-Match and If-None-Match against the key's current version, for PutObject
 * and both ends of a multipart upload) and copy sources (x-amz-copy-source-if-*).
 */
import { StoreError } from "../core/errors.ts";
import type { VersionRecord } from "../core/records.ts";

export const preconditionFailed = () =>
  new StoreError("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", 412);

const noSuchKey = () => new StoreError("NoSuchKey", "The specified key does not exist.", 404);

/** Whether an If-Match style header names this ETag (`*` names any); quotes and W/ are ignored. */
export function etagMatches(header: string, etag: string): boolean {
  return header.split(",").map((t) => t.trim().replace(/^W\//, "").replace(/"/g, "")).some((t) =>
    t === "*" || t === etag
  );
}

/**
 * The check a conditional write makes against the key's latest version (absent or a delete marker: none).
 * If-None-Match refuses an existing object whose ETag it names (`*`: any); If-Match refuses one whose ETag
 * it does not name, and a missing key with NoSuchKey. Undefined when the request has neither header.
 */
export function writePrecondition(
  headers: Headers,
): ((latest: VersionRecord | undefined) => void) | undefined {
  const match = headers.get("if-match");
  const noneMatch = headers.get("if-none-match");
  if (!match && !noneMatch) return undefined;
  return (latest) => {
    const current = latest && !latest.deleteMarker ? latest : undefined;
    if (!current) {
      if (match) throw noSuchKey();
      return;
    }
    if (match && !etagMatches(match, current.etag)) throw preconditionFailed();
    if (noneMatch && etagMatches(noneMatch, current.etag)) throw preconditionFailed();
  };
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/** 304/412 per If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since (RFC 7232 order). */
export function readPreconditions(
  request: Request,
  version: VersionRecord,
  headers: Record<string, string>,
): Response | null {
  const h = request.headers;
  const modified = seconds(version.lastModified);
  const match = h.get("if-match");
  const noneMatch = h.get("if-none-match");
  const since = h.get("if-modified-since");
  const unmodified = h.get("if-unmodified-since");
  if (match && !etagMatches(match, version.etag)) throw preconditionFailed();
  if (!match && unmodified && modified > Date.parse(unmodified)) throw preconditionFailed();
  const notModified = () =>
    new Response(null, {
      status: 304,
      headers: { etag: headers.etag, "last-modified": headers["last-modified"] },
    });
  if (noneMatch && etagMatches(noneMatch, version.etag)) return notModified();
  if (!noneMatch && since && modified <= Date.parse(since)) return notModified();
  return null;
}

/** x-amz-copy-source-if-* of CopyObject and UploadPartCopy: 412 when one does not hold. */
export function checkCopySourceConditions(headers: Headers, version: VersionRecord): void {
  const cond = (name: string) => headers.get(`x-amz-copy-source-${name}`);
  const modified = Date.parse(version.lastModified);
  const match = cond("if-match"), noneMatch = cond("if-none-match");
  const unmodifiedSince = Date.parse(cond("if-unmodified-since") ?? "");
  const modifiedSince = Date.parse(cond("if-modified-since") ?? "");
  if (match && !etagMatches(match, version.etag)) throw preconditionFailed();
  if (noneMatch && etagMatches(noneMatch, version.etag)) throw preconditionFailed();
  // HTTP dates have whole seconds: "modified since t" means at or after t + 1 s (MinIO's ifModifiedSince).
  if (!Number.isNaN(unmodifiedSince) && modified >= unmodifiedSince + 1000) throw preconditionFailed();
  if (!Number.isNaN(modifiedSince) && modified < modifiedSince + 1000) throw preconditionFailed();
}
