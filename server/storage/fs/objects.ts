/**
 * Object versions on disk: write (streamed to a temp file, fsynced, renamed, then the key's record committed),
 * read, delete with versioning semantics and object-lock enforcement, tags, retention and legal hold.
 */
import { COMPRESSED, compressStaged, decompressedParts, decompressedSlice } from "./compression.ts";
import { removeDurable } from "./durable.ts";
import type { Store } from "./store.ts";
import { encryptForCommit, readDecrypted, type SseWrite } from "../sse/stored.ts";
import { osCall } from "../streams/calls.ts";

export interface WriteOptions {
  contentType?: string;
  userMetadata?: Record<string, string>;
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  retention?: VersionRecord["retention"];
  legalHold?: boolean;
  storageClass?: string;
  /** The verified checksum the writer sent (or the upload's combined one). */
  checksum?: StoredChecksum;
  /** Expected byte count (Content-Length / decoded length); a mismatch fails the write. */
  expectedSize?: number;
  /** Refuses the write when this returns an error (quota check with the final size). */
  beforeCommit?: (size: number) => Promise<void>;
  /** Refuses the write by throwing, given the key's latest version, checked under the key's lock (If-Match). */
  precondition?: (latest: VersionRecord | undefined) => void;
  /** Precomputed ETag (multipart); otherwise the MD5 of the data. */
  etag?: string;
  /** Sizes of the parts a multipart ETag was computed over. */
  partSizes?: number[];
  /** The checksums of those parts (VersionRecord.partChecksums). */
  partChecksums?: string[];
  now?: Date;
  /** Store the bytes compressed (the server's compression settings say this object qualifies). */
  compress?: boolean;
  /** The staged bytes are compressed parts already (multipart.ts), each this many bytes on disk. */
  compressedParts?: number[];
  // --- replication hooks (server/storage/replication/) ---
  /** The version id a replicating source gives this version (otherwise a new one). */
  versionId?: string;
  /** Marks the version as a replica. */
  replica?: boolean;
  /** Per-target replication status the new version starts with. */
  replication?: VersionRecord["replication"];
  /** SSE: encrypt the bytes (server/storage/sse). */
  sse?: SseWrite;
}

// Staging (receiving a body before it is committed) lives in staging.ts.
export { commitStagedTo, discardStaged, INLINE_LIMIT, stageData, type StagedData } from "./staging.ts";
import { discardStaged, type StagedData } from "./staging.ts";
import { StoreError } from "../core/errors.ts";
import type { BucketState, ObjectRecord, StoredChecksum, VersionRecord } from "../core/records.ts";

function isExcluded(state: BucketState, key: string): boolean {
  if (state.meta.excludeFolders && key.endsWith("/")) return true;
  return (state.meta.excludedPrefixes ?? []).some((p) => key.startsWith(p));
}

/** The version id a new write gets: a UUID when versioning is on, else the null version. */
function newVersionId(state: BucketState, key: string): string {
  return state.meta.versioning === "Enabled" && !isExcluded(state, key) ? crypto.randomUUID() : "null";
}

/** Commits staged data as the newest version of `key`; returns the new version. */
export async function commitVersion(
  store: Store,
  state: BucketState,
  key: string,
  staged: StagedData,
  options: WriteOptions = {},
): Promise<VersionRecord> {
  try {
    if (options.expectedSize !== undefined && staged.size !== options.expectedSize) {
      throw new StoreError(
        "IncompleteBody",
        "You did not provide the number of bytes specified by the Content-Length HTTP header.",
        400,
      );
    }
    if (options.beforeCommit) await options.beforeCommit(staged.size);
  } catch (error) {
    await discardStaged(staged);
    throw error;
  }
  let storedSize = options.compressedParts?.reduce((sum, n) => sum + n, 0);
  // Encrypted objects are not compressed (MinIO without compression allow_encryption).
  if (options.compress && staged.size > 0 && !options.sse) {
    ({ staged, storedSize } = await compressStaged(store.tmpDir, staged));
  }
  // SSE hook: encrypt the staged bytes; the ETag and checksum are kept sealed (server/storage/sse).
  let etag = options.etag ?? staged.md5Hex;
  let sse: VersionRecord["sse"];
  if (options.sse) {
    ({ staged, sse, etag } = await encryptForCommit(store.tmpDir, staged, options.sse, {
      etag,
      checksum: options.checksum,
    }));
  }
  // Traced under StorageAPI names for what happens here: a data file renamed into place with its record
  // (RenameData), or a record carrying the bytes inline, one log append (WriteMetadata).
  const committed = staged;
  return await store.traced(
    staged.temp ? "RenameData" : "WriteMetadata",
    `${state.name}/${key}`,
    () => commitLocked(store, state, key, committed, options, { etag, sse, storedSize }),
    staged.size,
  );
}

async function commitLocked(
  store: Store,
  state: BucketState,
  key: string,
  staged: StagedData,
  options: WriteOptions,
  { etag, sse, storedSize }: { etag: string; sse: VersionRecord["sse"]; storedSize: number | undefined },
): Promise<VersionRecord> {
  return await store.locks.run(`${state.name}/${key}`, async () => {
    const dataFile = staged.temp ? `${crypto.randomUUID()}.data` : undefined;
    try {
      options.precondition?.(state.objects.get(key)?.versions[0]);
      if (staged.temp && dataFile) {
        await store.ensureFanDir(state.name, key);
        await staged.temp.commit(store.dataPath(state.name, key, dataFile));
      }
    } catch (error) {
      await discardStaged(staged);
      throw error;
    }
    const version: VersionRecord = {
      versionId: options.versionId ?? newVersionId(state, key),
      dataFile,
      inline: staged.temp ? undefined : true,
      size: staged.size,
      etag,
      lastModified: (options.now ?? new Date()).toISOString(),
      contentType: options.contentType || "application/octet-stream",
      userMetadata: options.userMetadata ?? {},
      headers: options.headers && Object.keys(options.headers).length ? options.headers : undefined,
      tags: options.tags && Object.keys(options.tags).length ? options.tags : undefined,
      retention: options.retention,
      legalHold: options.legalHold || undefined,
      storageClass: options.storageClass,
      ...(storedSize !== undefined ? { compression: COMPRESSED, storedSize } : {}),
      ...(options.compressedParts ? { storedPartSizes: options.compressedParts } : {}),
      checksum: sse ? undefined : options.checksum,
      partSizes: options.partSizes,
      partChecksums: sse ? undefined : options.partChecksums,
      replication: options.replication,
      replica: options.replica || undefined,
      ...(sse ? { sse } : {}),
    };
    const previous = state.objects.get(key);
    const replaced = version.versionId === "null" || options.versionId
      ? previous?.versions.find((v) => v.versionId === version.versionId)
      : undefined;
    const record: ObjectRecord = {
      key,
      versions: placeVersion(
        previous?.versions.filter((v) => v !== replaced) ?? [],
        version,
        !!options.versionId,
      ),
    };
    await store.saveRecord(
      state,
      record,
      staged.inline ? { versionId: version.versionId, data: staged.inline } : undefined,
    );
    if (replaced?.dataFile) await removeDurable(store.dataPath(state.name, key, replaced.dataFile));
    if (replaced?.transition) store.tiered?.forget(replaced); // lifecycle hook: the tier's copy goes too
    return version;
  });
}

/**
 * Puts a new version first; a replica (given version id and source mtime) goes where its mtime places it, so
 * versions arriving out of order from a replicating source still list newest first (replication hook).
 */
function placeVersion(others: VersionRecord[], version: VersionRecord, byTime: boolean): VersionRecord[] {
  if (!byTime) return [version, ...others];
  const at = others.findIndex((v) => v.lastModified <= version.lastModified);
  return at < 0 ? [...others, version] : [...others.slice(0, at), version, ...others.slice(at)];
}

/** The version a read addresses: a specific id, or the latest (404 when the latest is a delete marker). */
export function findVersion(state: BucketState, key: string, versionId?: string): VersionRecord {
  const record = state.objects.get(key);
  if (versionId) {
    const version = record?.versions.find((v) => v.versionId === versionId);
    if (!version) {
      if (!/^(null|[0-9a-f-]{36})$/.test(versionId)) {
        throw new StoreError("InvalidArgument", "Invalid version id specified", 400);
      }
      throw new StoreError("NoSuchVersion", "The specified version does not exist.", 404);
    }
    return version;
  }
  const latest = record?.versions[0];
  if (!latest || latest.deleteMarker) {
    const headers: Record<string, string> = latest
      ? { "x-amz-delete-marker": "true", "x-amz-version-id": latest.versionId }
      : {};
    throw new StoreError("NoSuchKey", "The specified key does not exist.", 404, headers);
  }
  return latest;
}

/**
 * A version's bytes from `start` for `length` bytes, streamed from its file or from its inline copy. An
 * encrypted version needs its object key (sse/request.ts objectKeyForRead).
 */
export async function readVersion(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
  start = 0,
  length = version.size,
  objectKey?: Uint8Array,
): Promise<ReadableStream<Uint8Array>> {
  // Lifecycle hook: a transitioned version's bytes are read through from its tier (encrypted versions stay local).
  if (version.transition) return await store.tiered!.read(version, start, length);
  // MinIO's names: inline data comes with the version's record (ReadVersion), a data file is opened (ReadFileStream).
  const read = () => readLocal(store, bucket, key, version, start, length, objectKey);
  return await store.traced(
    version.inline ? "ReadVersion" : "ReadFileStream",
    `${bucket}/${key}`,
    read,
    length,
  );
}

async function readLocal(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
  start: number,
  length: number,
  objectKey?: Uint8Array,
): Promise<ReadableStream<Uint8Array>> {
  if (version.compression) {
    const raw: VersionRecord = {
      ...version,
      compression: undefined,
      storedPartSizes: undefined,
      size: version.storedSize ?? 0,
    };
    const storedRange = (offset: number, bytes: number) =>
      readLocal(store, bucket, key, raw, offset, bytes, objectKey);
    // A multipart object's parts were compressed each on its own: a range reads only the parts it touches.
    if (version.storedPartSizes && version.partSizes) {
      return await decompressedParts(storedRange, version.partSizes, version.storedPartSizes, start, length);
    }
    return decompressedSlice(await storedRange(0, version.storedSize ?? 0), start, length);
  }
  // SSE hook: decrypt only the packages the range touches.
  if (version.sse) {
    if (!objectKey) throw new StoreError("InternalError", "reading an encrypted object needs its key", 500);
    return await readDecrypted(store, bucket, key, version, objectKey, start, length);
  }
  if (version.inline) {
    const data = await store.readInline(bucket, key, version.versionId);
    return new Blob([data.subarray(start, start + length) as Uint8Array<ArrayBuffer>]).stream();
  }
  const path = store.dataPath(bucket, key, version.dataFile!);
  const file = await osCall("OpenFileR", path, () => Deno.open(path, { read: true }));
  return fileSlice(file, start, length);
}

/** A stream of `length` bytes of a file from `start`; closes the file when done or cancelled. */
function fileSlice(file: Deno.FsFile, start: number, length: number): ReadableStream<Uint8Array> {
  let remaining = length;
  let positioned = start === 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!positioned) {
        await file.seek(start, Deno.SeekMode.Start);
        positioned = true;
      }
      if (remaining <= 0) {
        file.close();
        return controller.close();
      }
      // 1 MiB pieces: each piece costs a write to the connection, and larger ones send faster.
      const buffer = new Uint8Array(Math.min(remaining, 1024 * 1024));
      const read = await file.read(buffer);
      if (read === null || read === 0) {
        file.close();
        return controller.error(new Error("object data ended early"));
      }
      remaining -= read;
      controller.enqueue(buffer.subarray(0, read));
    },
    cancel() {
      try {
        file.close();
      } catch { /* already closed */ }
    },
  }, { highWaterMark: 0 });
}

/** Whether object lock forbids removing this version now. */
export function lockProblem(
  version: VersionRecord,
  options: { bypassGovernance: boolean; now: Date },
): string | null {
  if (version.legalHold) return "Object is WORM protected and cannot be overwritten or deleted (legal hold)";
  const r = version.retention;
  if (r && Date.parse(r.until) > options.now.getTime()) {
    if (r.mode === "COMPLIANCE" || !options.bypassGovernance) {
      return "Object is WORM protected and cannot be overwritten or deleted";
    }
  }
  return null;
}

export interface DeleteOutcome {
  versionId?: string;
  deleteMarker: boolean;
}

/** DeleteObject semantics: delete markers under versioning, permanent removal of a given version. */
export async function deleteVersion(
  store: Store,
  state: BucketState,
  key: string,
  options: {
    versionId?: string;
    bypassGovernance?: boolean;
    now?: Date;
    /** Lifecycle hook: the scanner deletes only while the key still looks as it did when evaluated. */
    onlyIf?: (record: ObjectRecord) => boolean;
    /** Replication hook: a delete marker a replicating source sends, created with its version id and mtime. */
    replicaMarker?: boolean;
    /** Replication hook: the status a new delete marker starts with. */
    replication?: VersionRecord["replication"];
  } = {},
): Promise<DeleteOutcome> {
  const now = options.now ?? new Date();
  return await store.traced(
    "DeleteVersion",
    `${state.name}/${key}`,
    () =>
      store.locks.run(`${state.name}/${key}`, async () => {
        const record = state.objects.get(key) ?? { key, versions: [] };
        // Lifecycle hook: the scanner deletes only while the key still looks as it did when evaluated.
        if (options.onlyIf && !options.onlyIf(record)) return { deleteMarker: false };
        if (options.replicaMarker && options.versionId) {
          const marker: VersionRecord = {
            versionId: options.versionId,
            deleteMarker: true,
            size: 0,
            etag: "",
            lastModified: now.toISOString(),
            userMetadata: {},
            replica: true,
          };
          await store.saveRecord(state, {
            key,
            versions: placeVersion(
              record.versions.filter((v) => v.versionId !== marker.versionId),
              marker,
              true,
            ),
          });
          return { versionId: marker.versionId, deleteMarker: true };
        }
        if (options.versionId) {
          const target = record.versions.find((v) => v.versionId === options.versionId);
          if (!target) {
            if (!/^(null|[0-9a-f-]{36})$/.test(options.versionId)) {
              throw new StoreError("InvalidArgument", "Invalid version id specified", 400);
            }
            return { versionId: options.versionId, deleteMarker: false };
          }
          const problem = lockProblem(target, { bypassGovernance: !!options.bypassGovernance, now });
          if (problem) {
            throw new StoreError("AccessDenied", problem, 403);
          }
          await store.saveRecord(state, { key, versions: record.versions.filter((v) => v !== target) });
          if (target.dataFile) await removeDurable(store.dataPath(state.name, key, target.dataFile));
          if (target.transition) store.tiered?.forget(target); // lifecycle hook
          return { versionId: target.versionId, deleteMarker: !!target.deleteMarker };
        }
        const versioning = isExcluded(state, key) ? "" : state.meta.versioning;
        if (versioning === "") {
          // Unversioned: the null version goes away.
          const nullVersion = record.versions.find((v) => v.versionId === "null");
          if (!nullVersion) return { deleteMarker: false };
          const problem = lockProblem(nullVersion, { bypassGovernance: !!options.bypassGovernance, now });
          if (problem) throw new StoreError("AccessDenied", problem, 403);
          await store.saveRecord(state, { key, versions: record.versions.filter((v) => v !== nullVersion) });
          if (nullVersion.dataFile) {
            await removeDurable(store.dataPath(state.name, key, nullVersion.dataFile));
          }
          if (nullVersion.transition) store.tiered?.forget(nullVersion); // lifecycle hook
          return { deleteMarker: false };
        }
        // Under versioning a delete always leaves a marker, also for a key that never existed (MinIO, AWS).
        const marker: VersionRecord = {
          versionId: versioning === "Enabled" ? crypto.randomUUID() : "null",
          deleteMarker: true,
          size: 0,
          etag: "",
          lastModified: now.toISOString(),
          userMetadata: {},
          replication: options.replication,
        };
        const replaced = marker.versionId === "null"
          ? record.versions.find((v) => v.versionId === "null")
          : undefined;
        await store.saveRecord(state, {
          key,
          versions: [marker, ...record.versions.filter((v) => v !== replaced)],
        });
        if (replaced?.dataFile) await removeDurable(store.dataPath(state.name, key, replaced.dataFile));
        if (replaced?.transition) store.tiered?.forget(replaced); // lifecycle hook
        return { versionId: marker.versionId, deleteMarker: true };
      }),
  );
}

/** Applies a change to one version's metadata (tags, retention, legal hold) and persists it. */
export async function updateVersion(
  store: Store,
  state: BucketState,
  key: string,
  versionId: string | undefined,
  change: (version: VersionRecord) => void,
): Promise<VersionRecord> {
  return await store.traced(
    "UpdateMetadata",
    `${state.name}/${key}`,
    () =>
      store.locks.run(`${state.name}/${key}`, async () => {
        const version = findVersion(state, key, versionId);
        if (version.deleteMarker) {
          throw new StoreError(
            "MethodNotAllowed",
            "The specified method is not allowed against this resource.",
            405,
          );
        }
        const record = state.objects.get(key)!;
        const updated = { ...version };
        change(updated);
        await store.saveRecord(state, {
          key,
          versions: record.versions.map((v) => (v === version ? updated : v)),
        });
        return updated;
      }),
  );
}
