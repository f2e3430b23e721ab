/**
 * Object versions on disk: commit (a staged body made the newest version under the key's lock, once durable),
 * find, delete with versioning semantics and object-lock enforcement, and metadata changes (tags, retention,
 * legal hold). What a write stores (compressed, encrypted, which ETag, which version id) is decided by the
 * write path (server/storage/write/) before it commits here; reads are read.ts.
 */
import { COMPRESSED } from "./compression.ts";
import { removeDurable } from "./durable.ts";
import { discardStaged, type StagedData } from "./staging.ts";
import type { Store } from "./store.ts";
import { StoreError } from "../core/errors.ts";
import type {
  BucketState,
  ObjectRecord,
  ReplicationStatus,
  SseRecord,
  StoredChecksum,
  VersionRecord,
  VersionSettings,
} from "../core/records.ts";

/** What a committed version records beside its bytes; every field is the write path's decision. */
export interface CommitOptions extends VersionSettings {
  /** The ETag the version shows. */
  etag: string;
  /** The checksum kept in clear (an encrypted version keeps it sealed in `sse`). */
  checksum?: StoredChecksum;
  /** Sizes of the parts a multipart ETag was computed over, and their checksums (VersionRecord.partChecksums). */
  partSizes?: number[];
  partChecksums?: string[];
  /** The staged bytes are gzip (fs/compression.ts): bytes stored, and each part's for a multipart object. */
  compressed?: { storedSize: number; storedPartSizes?: number[] };
  /** The staged bytes are encrypted (server/storage/sse): the version's encryption record. */
  sse?: SseRecord;
  /** The version id a replicating source gives this version (otherwise a new one), and its replica mark. */
  versionId?: string;
  replica?: boolean;
  /** Per-target replication status the new version starts with. */
  replication?: ReplicationStatus;
  now?: Date;
  /** Refuses the write by throwing, given the key's latest version, checked under the key's lock (If-Match). */
  precondition?: (latest: VersionRecord | undefined) => void;
}

function isExcluded(state: BucketState, key: string): boolean {
  if (state.meta.excludeFolders && key.endsWith("/")) return true;
  return (state.meta.excludedPrefixes ?? []).some((p) => key.startsWith(p));
}

/** The version id a new write gets: a UUID when versioning is on, else the null version. */
function newVersionId(state: BucketState, key: string): string {
  return state.meta.versioning === "Enabled" && !isExcluded(state, key) ? crypto.randomUUID() : "null";
}

/**
 * Commits staged bytes, in the form they are to be stored, as the newest version of `key`; returns the new
 * version. The staged data is discarded when the commit is refused.
 */
export async function commitVersion(
  store: Store,
  state: BucketState,
  key: string,
  staged: StagedData,
  options: CommitOptions,
): Promise<VersionRecord> {
  // Traced under StorageAPI names for what happens here: a data file renamed into place with its record
  // (RenameData), or a record carrying the bytes inline, one log append (WriteMetadata).
  return await store.traced(
    staged.temp ? "RenameData" : "WriteMetadata",
    `${state.name}/${key}`,
    () => commitLocked(store, state, key, staged, options),
    staged.size,
  );
}

async function commitLocked(
  store: Store,
  state: BucketState,
  key: string,
  staged: StagedData,
  options: CommitOptions,
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
    const version = newVersion(state, key, staged, dataFile, options);
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

/** The record of a version being committed. */
function newVersion(
  state: BucketState,
  key: string,
  staged: StagedData,
  dataFile: string | undefined,
  options: CommitOptions,
): VersionRecord {
  const { compressed, sse } = options;
  return {
    versionId: options.versionId ?? newVersionId(state, key),
    dataFile,
    inline: staged.temp ? undefined : true,
    size: staged.size,
    etag: options.etag,
    lastModified: (options.now ?? new Date()).toISOString(),
    contentType: options.contentType || "application/octet-stream",
    userMetadata: options.userMetadata ?? {},
    headers: options.headers && Object.keys(options.headers).length ? options.headers : undefined,
    tags: options.tags && Object.keys(options.tags).length ? options.tags : undefined,
    retention: options.retention,
    legalHold: options.legalHold || undefined,
    storageClass: options.storageClass,
    ...(compressed ? { compression: COMPRESSED, storedSize: compressed.storedSize } : {}),
    ...(compressed?.storedPartSizes ? { storedPartSizes: compressed.storedPartSizes } : {}),
    checksum: sse ? undefined : options.checksum,
    partSizes: options.partSizes,
    partChecksums: sse ? undefined : options.partChecksums,
    replication: options.replication,
    replica: options.replica || undefined,
    ...(sse ? { sse } : {}),
  };
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
    replication?: ReplicationStatus;
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
