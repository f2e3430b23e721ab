/**
 * What S3 accepts as bucket names and object keys (minio-protocol §1.1), and how they map to disk. Bucket
 * names pass a strict pattern before they become directory names; object keys never touch the filesystem:
 * each key's files are named by the SHA-256 of the key, so no key can address anything outside the data
 * directory, whatever it contains (`..`, `%2F`, NUL, unicode, 1024 bytes).
 */
import { createHash } from "node:crypto";
export { bucketNameProblem } from "../../lib/contract/bucket_names.ts";

export const MAX_KEY_BYTES = 1024;

/** Null when valid, else the reason (for InvalidBucketName's message). */
/** Null when valid, else the reason. */
export function objectKeyProblem(key: string): string | null {
  if (key.length === 0) return "Object name must not be empty";
  if (new TextEncoder().encode(key).length > MAX_KEY_BYTES) return "Object name is longer than 1024 bytes";
  if (key.startsWith("/")) return "Object name must not start with /";
  if (key.includes("\u0000")) return "Object name contains a NUL character";
  // As MinIO: "." and ".." path components are refused (they also cannot survive URL normalisation).
  if (key.split("/").some((part) => part === "." || part === "..")) {
    return "Object name contains unsupported characters.";
  }
  return null;
}

/** The on-disk path stem of a key's files: a fan-out directory and its SHA-256 ("ab/ab12…"). */
export function keyPathStem(key: string): string {
  const hash = createHash("sha256").update(key).digest("hex");
  return `${hash.slice(0, 2)}/${hash}`;
}
