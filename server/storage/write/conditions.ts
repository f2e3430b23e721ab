/**
 * Conditional writes as MinIO evaluates them: If-Match and If-None-Match against the key's current version,
 * for PutObject and both ends of a multipart upload (checked before the body is read, and again under the
 * key's lock at commit); the ETag matching that reads and copy sources share.
 */
import { noSuchKey, StoreError } from "../core/errors.ts";
import type { VersionRecord } from "../core/records.ts";

export const preconditionFailed = () =>
  new StoreError("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", 412);

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
