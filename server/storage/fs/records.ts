/**
 * What the store's in-memory index holds, as the records log and bucket.json persist it: a bucket's state
 * and settings, each key's versions and each version's facts (data location, checksums, encryption,
 * replication status, tier). The store that keeps them is store.ts.
 */
import type { SseRecord } from "../sse/seal.ts";

export type VersioningState = "" | "Enabled" | "Suspended";

export interface BucketMeta {
  created: string;
  versioning: VersioningState;
  objectLock: boolean;
  excludedPrefixes?: string[];
  excludeFolders?: boolean;
}

/** A flexible checksum kept with a version or part (minio-protocol-2 §8); composite values end in "-<parts>". */
export interface StoredChecksum {
  algorithm: "CRC32" | "CRC32C" | "CRC64NVME" | "SHA1" | "SHA256";
  value: string;
  type: "FULL_OBJECT" | "COMPOSITE";
}

/** One version of an object (or a delete marker). */
export interface VersionRecord {
  versionId: string;
  deleteMarker?: boolean;
  /** Data file name inside the object's directory; absent for delete markers and inline data. */
  dataFile?: string;
  /** The bytes live in the bucket's records log rather than in a data file. */
  inline?: boolean;
  size: number;
  etag: string;
  lastModified: string;
  contentType?: string;
  userMetadata: Record<string, string>;
  /** Stored response headers: cache-control, content-disposition, content-encoding, content-language, expires. */
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  retention?: { mode: "GOVERNANCE" | "COMPLIANCE"; until: string };
  legalHold?: boolean;
  storageClass?: string;
  /** How the stored bytes are compressed (compression.ts); `size` stays the original size. */
  compression?: "gzip";
  /** Bytes on disk when compressed. */
  storedSize?: number;
  /**
   * A compressed multipart object: bytes on disk of each part, compressed on its own (one gzip member per
   * part, `partSizes` giving their original sizes), so a range decompresses only the parts it touches.
   */
  storedPartSizes?: number[];
  checksum?: StoredChecksum;
  /** Part sizes of a multipart upload, so its composite ETag can be verified against the data (heal). */
  partSizes?: number[];
  /** Each part's checksum (base64, the object's algorithm) of an unencrypted multipart object (?partNumber=N). */
  partChecksums?: string[];
  /** Lifecycle: the bytes were moved to a remote tier (no local data; `storageClass` is the tier name). */
  transition?: TransitionRef;
  /** Replication (server/storage/replication/): this version's status per remote-target ARN, on the source. */
  replication?: Record<string, "PENDING" | "COMPLETED" | "FAILED">;
  /** Replication: this version was written by a replicating source (x-amz-replication-status REPLICA). */
  replica?: boolean;
  /** Server-side encryption (server/storage/sse): sealed keys and metadata; the bytes on disk are encrypted. */
  sse?: SseRecord;
}

/** Where a transitioned version's bytes live on its tier (server/storage/tiers/). */
export interface TransitionRef {
  tier: string;
  /** Object name in the tier's bucket (prefix included). */
  object: string;
  /** The tier bucket's version id of the copy, when that bucket is versioned. */
  remoteVersionId?: string;
}

/** Lifecycle hook: reads transitioned versions from their tier and removes remote copies no version needs. */
export interface TieredData {
  read(version: VersionRecord, start: number, length: number): Promise<ReadableStream<Uint8Array>>;
  /** The version is gone from the index: its remote copy goes too (retried until the tier answers). */
  forget(version: VersionRecord): void;
}

/** Lifecycle hook: the response headers announcing a version's next lifecycle action (lifecycle/predict.ts). */
export interface LifecyclePredictions {
  headers(state: BucketState, key: string, version: VersionRecord): Promise<Record<string, string>>;
}

/** All versions of one key, newest first. */
export interface ObjectRecord {
  key: string;
  versions: VersionRecord[];
}

export interface BucketState {
  name: string;
  meta: BucketMeta;
  /** Keys in byte order, for listing. */
  keys: string[];
  objects: Map<string, ObjectRecord>;
}
