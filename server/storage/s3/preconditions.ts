/**
 * Conditional reads as MinIO evaluates them: If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since,
 * and a copy's source conditions (x-amz-copy-source-if-*). Conditional writes are the write path's
 * (write/conditions.ts).
 */
import type { VersionRecord } from "../core/records.ts";
import { etagMatches, preconditionFailed } from "../write/conditions.ts";

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
