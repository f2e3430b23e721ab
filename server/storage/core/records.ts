/**
 * What the storage keeps, as the records log, bucket.json and each upload's upload.json/part.N.json persist
 * it: a bucket's state and settings, each key's versions and each version's facts (data location,
 * checksums, encryption, replication status, tier), and a multipart upload with its parts. Every part of
 * the storage reads these shapes from here; fs/store.ts keeps them, the features fill in their fields.
 */
import type { ChecksumAlgorithm } from "../../lib/s3/checksums.ts";

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
  algorithm: ChecksumAlgorithm;
  value: string;
  type: "FULL_OBJECT" | "COMPOSITE";
}

/** What a write sets on a version besides its bytes: metadata, stored headers, tags and object lock. */
export interface VersionSettings {
  contentType?: string;
  userMetadata?: Record<string, string>;
  /** Stored response headers: cache-control, content-disposition, content-encoding, content-language, expires. */
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  retention?: { mode: "GOVERNANCE" | "COMPLIANCE"; until: string };
  legalHold?: boolean;
  storageClass?: string;
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
  retention?: VersionSettings["retention"];
  legalHold?: boolean;
  storageClass?: string;
  /** How the stored bytes are compressed (fs/compression.ts); `size` stays the original size. */
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
  replication?: ReplicationStatus;
  /** Replication: this version was written by a replicating source (x-amz-replication-status REPLICA). */
  replica?: boolean;
  /** Server-side encryption (server/storage/sse): sealed keys and metadata; the bytes on disk are encrypted. */
  sse?: SseRecord;
}

/** A version's replication status per remote-target ARN. */
export type ReplicationStatus = Record<string, "PENDING" | "COMPLETED" | "FAILED">;

/** Where a transitioned version's bytes live on its tier (server/storage/tiers/). */
export interface TransitionRef {
  tier: string;
  /** Object name in the tier's bucket (prefix included). */
  object: string;
  /** The tier bucket's version id of the copy, when that bucket is versioned. */
  remoteVersionId?: string;
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

export type SseType = "SSE-S3" | "SSE-KMS" | "SSE-C";

/** What an encrypted version (or upload) keeps about its encryption. */
export interface SseKeyRecord {
  type: SseType;
  /** The key store's key name (SSE-S3, SSE-KMS). */
  keyId?: string;
  /** The client's SSE-KMS context, base64 as sent. */
  context?: string;
  /** Base64: random bytes the SSE-C key-encryption key is derived with. */
  iv?: string;
  /** Base64: the object key, sealed. */
  sealedKey: string;
}

/** The record an encrypted version carries (VersionRecord.sse). */
export interface SseRecord extends SseKeyRecord {
  /** Base64: nonce || AES-GCM of the JSON SealedMeta (sse/seal.ts). */
  sealedMeta: string;
  /** Bytes on disk. */
  storedSize: number;
  /** SHA-256 (hex) of the stored bytes of SSE-C objects, so heal can check them without the key. */
  storedDigest?: string;
}

/** What a multipart upload keeps about its encryption (UploadInfo.sse). */
export interface UploadSse {
  key: SseKeyRecord;
  /**
   * SSE-C only, base64: kept while the upload runs so completion, which carries no customer key, can seal the
   * ETag and checksum (SSE-S3/KMS derive it from the object key the key store opens).
   */
  metaKey?: string;
  plainEtag: boolean;
}

/** A multipart upload (upload.json in its directory). */
export interface UploadInfo {
  uploadId: string;
  key: string;
  initiated: string;
  /** What the completed version gets (CreateMultipartUpload's headers). */
  options: VersionSettings;
  /** The checksum every part carries and the object gets (x-amz-checksum-algorithm at creation). */
  checksum?: { algorithm: ChecksumAlgorithm; type: StoredChecksum["type"] };
  /** SSE: the upload's sealed object key; its parts are stored encrypted (server/storage/sse). */
  sse?: UploadSse;
  /** The object qualifies for compression (never with SSE): each part is stored compressed. */
  compress?: boolean;
}

/** One part of an upload (part.N.json beside its bytes). */
export interface PartInfo {
  partNumber: number;
  etag: string;
  size: number;
  lastModified: string;
  /** The part's verified checksum (base64), with its algorithm. */
  checksum?: { algorithm: ChecksumAlgorithm; value: string };
}
