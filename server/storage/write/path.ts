/**
 * The write path: every write of an object's bytes (PutObject, CopyObject, PostObject, CreateMultipartUpload,
 * UploadPart, UploadPartCopy, CompleteMultipartUpload) goes through these steps, always in this order. The
 * S3 handlers parse the request and answer with what the path returns; the path decides.
 *
 *   1. settings      metadata, stored headers, tags, object lock (retention and legal hold asked for, else
 *                    the bucket's default retention)                                        settings.ts
 *   2. replica       a replicating source's version id, mtime and ETag (PutObject only)    replication/
 *   3. conditions    If-Match / If-None-Match against the key's latest version (PutObject and both ends of
 *                    a multipart upload), checked now and again under the key's lock at 9  conditions.ts
 *   4. encryption    what SSE the request or the bucket's default asks for, its key sealed   sse/
 *   5. checksum      the declared checksum (header, trailer or form field), verified while the body
 *                    streams; a copy keeps its source's full-object one                      checksums.ts
 *   6. staging       the body received: sealed as it arrives when encrypted and its length is known,
 *                    otherwise kept in memory or spilled to a temp file                       fs/staging.ts
 *   7. replication   the per-target status (PENDING) the version starts with               replication/
 *   8. size, quota   the body holds the bytes announced; the bucket's hard quota holds
 *   9. commit        compression (when the object qualifies and is not encrypted), encryption of what was
 *                    staged in clear with the ETag and checksum sealed, then the version: its id
 *                    (versioning, or the replica's), the conditions again, the record made durable
 *                                                                                       fs/objects.ts
 *  10. replicate     the version queued for its targets (sync targets: the first attempt awaited)
 *  11. notify        the bucket event (published once the request has succeeded)            events/
 *  12. lifecycle     the headers announcing the version's next lifecycle action             lifecycle/
 *
 * Multipart uploads take steps 1-4 at creation (write/upload.ts), 4-6 for each part (write/part.ts), and
 * 3 and 7-12 at completion, where the parts are joined as stored. Metadata changes and deletes take 10 and 11
 * (write/changes.ts). Steps 1-7 only decide and can refuse; nothing is visible before step 9.
 */
import { compressStaged, isCompressible } from "../fs/compression.ts";
import { type CommitOptions, commitVersion } from "../fs/objects.ts";
import { discardStaged, type StagedData } from "../fs/staging.ts";
import type { Store } from "../fs/store.ts";
import { incompleteBody, StoreError } from "../core/errors.ts";
import type { ServerFacts } from "../core/contracts.ts";
import type {
  BucketState,
  ReplicationStatus,
  StoredChecksum,
  VersionRecord,
  VersionSettings,
} from "../core/records.ts";
import { type EventSource, notifyObject } from "../events/records.ts";
import { replicateAfterWrite, type ReplicationRequest, type ReplicaWrite } from "../replication/hooks.ts";
import type { SseRequest } from "../sse/request.ts";
import { encryptForCommit, type SseWrite } from "../sse/stored.ts";
import type { SettingsRequest } from "./settings.ts";

/**
 * What the write path reads of a request: its headers, target and caller, the server's facts (quota,
 * compression) and where its events go. The S3 front's request (s3/context.ts S3Request) has all of it.
 */
export interface WriteContext extends SseRequest, ReplicationRequest, EventSource, SettingsRequest {
  store: Store;
  facts: ServerFacts;
  now: Date;
}

/** A write's outcome, for the handler to answer with. */
export interface Written {
  version: VersionRecord;
  /** The checksum to report: the version's, or the one sealed with an encrypted version. */
  checksum?: StoredChecksum;
  /** SSE's response headers (the customer key's MD5 for SSE-C). */
  sseHeaders: Record<string, string>;
  /** The version's next lifecycle action (x-amz-expiration or X-Minio-Transition). */
  lifecycleHeaders: Record<string, string>;
}

/** Steps 8 and 9 of a write: what the staged bytes become and under which version. */
export interface Commit {
  staged: StagedData;
  settings: VersionSettings;
  /** The byte count the body had to have (step 8). */
  expectedSize?: number;
  /** The object qualifies for compression (ignored when encrypted). */
  compress: boolean;
  sse?: SseWrite;
  /** The ETag when not the staged bytes' MD5 (a multipart object's), and the checksum. */
  etag?: string;
  checksum?: StoredChecksum;
  /** A multipart object's parts: sizes, checksums, and their gzip members' sizes when compressed. */
  parts?: { sizes: number[]; checksums?: string[]; storedSizes?: number[] };
  replica?: ReplicaWrite;
  replication?: ReplicationStatus;
  precondition?: (latest: VersionRecord | undefined) => void;
  /** When the version is dated; undefined: when it is committed. */
  now?: Date;
}

/** Whether the key's object qualifies for compression (never a form's upload, see object.ts). */
export function qualifiesForCompression(ctx: WriteContext, settings: VersionSettings): boolean {
  return isCompressible(ctx.key, settings.contentType, ctx.facts.compression());
}

/** Steps 8 and 9: checks the size and quota, compresses or encrypts what was staged, commits the version. */
export async function commitWrite(
  ctx: WriteContext,
  state: BucketState,
  commit: Commit,
): Promise<VersionRecord> {
  const { staged } = commit;
  try {
    if (commit.expectedSize !== undefined && staged.size !== commit.expectedSize) throw incompleteBody();
    await checkQuota(ctx, state, staged.size);
  } catch (error) {
    await discardStaged(staged);
    throw error;
  }
  let stored = staged;
  const storedSizes = commit.parts?.storedSizes;
  let compressed: CommitOptions["compressed"] = storedSizes
    ? { storedSize: storedSizes.reduce((sum, n) => sum + n, 0), storedPartSizes: storedSizes }
    : undefined;
  // Encrypted objects are not compressed (MinIO without compression allow_encryption).
  if (commit.compress && staged.size > 0 && !commit.sse) {
    const packed = await compressStaged(ctx.store.tmpDir, staged);
    stored = packed.staged;
    compressed = { storedSize: packed.storedSize };
  }
  let etag = commit.replica?.etag ?? commit.etag ?? staged.md5Hex;
  let sse: CommitOptions["sse"];
  if (commit.sse) {
    ({ staged: stored, sse, etag } = await encryptForCommit(ctx.store.tmpDir, stored, commit.sse, {
      etag,
      checksum: commit.checksum,
    }));
  }
  return await commitVersion(ctx.store, state, ctx.key, stored, {
    ...commit.settings,
    etag,
    checksum: commit.checksum,
    partSizes: commit.parts?.sizes,
    partChecksums: commit.parts?.checksums,
    compressed,
    sse,
    versionId: commit.replica?.versionId,
    replica: commit.replica?.replica,
    replication: commit.replication,
    // A replica is dated by its source's mtime (else when committed).
    now: commit.replica ? commit.replica.now : commit.now,
    precondition: commit.precondition,
  });
}

/** Steps 10 to 12, once the version is committed: replication, the event, the lifecycle prediction. */
export async function afterWrite(
  ctx: WriteContext,
  state: BucketState,
  version: VersionRecord,
  event: string,
): Promise<Record<string, string>> {
  await replicateAfterWrite(ctx, ctx.key, version);
  notifyObject(ctx, event, ctx.key, version);
  return await ctx.store.lifecycle?.headers(state, ctx.key, version) ?? {};
}

/** Refuses a write that would take the bucket over its hard quota (minio-protocol §3.10). */
export async function checkQuota(ctx: WriteContext, state: BucketState, size: number): Promise<void> {
  const quota = await ctx.facts.bucketQuota(state.name);
  if (quota <= 0) return;
  let used = 0;
  for (const record of state.objects.values()) for (const v of record.versions) used += v.size;
  if (used + size > quota) {
    throw new StoreError("XMinioAdminBucketQuotaExceeded", "Bucket quota exceeded", 400);
  }
}
