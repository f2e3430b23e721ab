/**
 * Flexible checksums as the S3 front answers them (minio-protocol-2 §8): the headers and XML elements that
 * return a stored checksum, and the Content-MD5 check every request gets. Verifying a write's checksum is
 * the write path's (write/checksums.ts).
 */
import { checksumElement, checksumHeader } from "../../lib/s3/checksums.ts";
import { StoreError } from "../core/errors.ts";
import type { StoredChecksum } from "../core/records.ts";

/**
 * A Content-MD5 header that is present must be the base64 of 16 bytes: an empty or malformed one is
 * InvalidDigest (MinIO's etag.FromContentMD5), never taken as "no digest".
 */
export function checkContentMd5(headers: Headers): void {
  const value = headers.get("content-md5");
  if (value === null) return;
  let bytes: Uint8Array | null = null;
  try {
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(value)) bytes = Uint8Array.fromBase64(value);
  } catch { /* not base64 */ }
  if (bytes?.length !== 16) {
    throw new StoreError("InvalidDigest", "The Content-Md5 you specified is not valid.", 400);
  }
}

/** Response headers announcing a stored checksum (PUT answers; GET/HEAD with checksum mode). */
export function checksumHeaders(checksum: StoredChecksum | undefined): Record<string, string> {
  if (!checksum) return {};
  return { [checksumHeader(checksum.algorithm)]: checksum.value, "x-amz-checksum-type": checksum.type };
}

/** The XML element carrying a checksum (ListParts, CompleteMultipartUpload results). */
export function checksumXml(
  checksum: Pick<StoredChecksum, "algorithm" | "value"> | undefined,
): Record<string, string> {
  return checksum ? { [checksumElement(checksum.algorithm)]: checksum.value } : {};
}
