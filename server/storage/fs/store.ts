/**
 * The embedded server's disk store: buckets, their configuration documents, and the in-memory index of
 * objects rebuilt from disk at start. Layout under the data directory:
 *
 *   buckets/<bucket>/bucket.json              created, versioning, object lock
 *   buckets/<bucket>/records.log              every key's versions, small objects' bytes inline (record_log.ts)
 *   buckets/<bucket>/config/<document>        policy.json, lifecycle.xml, quota.json, ...
 *   buckets/<bucket>/objects/<h2>/            larger objects' bytes, named by the SHA-256 of the key:
 *       <sha256>.<uuid>.data                  a version's bytes (unreferenced ones go at load)
 *   buckets/<bucket>/uploads/<uploadId>/      multipart upload state and parts
 *   .deck/tmp/                                other temp files, renamed into place once durable
 *
 * The index's record types are in core/records.ts; object operations live in objects.ts, listing in listing.ts,
 * multipart in multipart.ts.
 */
import { KeyedMutex, mkdirDurable, removeDurable, syncDir, writeFileDurable } from "./durable.ts";
import { type FanDirContents, scanFanDir } from "./record_files.ts";
import { RecordLog } from "./record_log.ts";
import { keyPathStem } from "./names.ts";
import { SpillWriters } from "./spill.ts";
import type { Hub } from "../streams/hub.ts";
import { type CallRecord, STORAGE_CALL, traceCall } from "../streams/calls.ts";
import { StoreError } from "../core/errors.ts";

import type { BucketMeta, BucketState, ObjectRecord, VersionRecord } from "../core/records.ts";

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

/** Byte-order comparison of keys (UTF-16 order differs for astral characters; S3 lists in UTF-8 byte order). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const ea = new TextEncoder().encode(a), eb = new TextEncoder().encode(b);
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) if (ea[i] !== eb[i]) return ea[i] - eb[i];
  return ea.length - eb.length;
}

/** Index of the first key ≥ `key` in a sorted list. */
export function lowerBound(keys: string[], key: string): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(keys[mid], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Store {
  readonly buckets = new Map<string, BucketState>();
  readonly locks = new KeyedMutex();
  readonly tmpDir: string;
  /** Writes large upload bodies to temp files off the request thread. */
  readonly spill: SpillWriters;
  /** Lifecycle hook: set by server.ts to the tier backends (server/storage/tiers/). */
  tiered: TieredData | null = null;
  /** Lifecycle hook: set by server.ts to the rules' predictions (x-amz-expiration, X-Minio-Transition). */
  lifecycle: LifecyclePredictions | null = null;
  /** Trace hook: set by server.ts to the hub of `storage` trace records (streams/calls.ts). */
  calls: Hub<CallRecord> | null = null;

  private constructor(readonly root: string) {
    this.tmpDir = `${root}/.deck/tmp`;
    this.spill = new SpillWriters(this.tmpDir);
  }

  /** Each bucket's records log, opened when the bucket is loaded or created. */
  readonly #logs = new Map<string, RecordLog>();

  close(): void {
    this.spill.close();
    for (const log of this.#logs.values()) log.close();
    this.#logs.clear();
  }

  /** Opens (or initialises) the store, cleaning what a crash left behind. */
  static async open(root: string): Promise<Store> {
    const store = new Store(root.replace(/\/+$/, ""));
    await Deno.mkdir(store.tmpDir, { recursive: true, mode: 0o700 });
    await Deno.mkdir(`${store.root}/buckets`, { recursive: true, mode: 0o700 });
    for await (const entry of Deno.readDir(store.tmpDir)) {
      await Deno.remove(`${store.tmpDir}/${entry.name}`, { recursive: true });
    }
    for await (const entry of Deno.readDir(`${store.root}/buckets`)) {
      if (entry.isDirectory) await store.#loadBucket(entry.name);
    }
    return store;
  }

  /**
   * Runs `work` as one call into the store (`storage.<name>` on `path`, MinIO's StorageAPI names), traced
   * when a trace subscriber wants storage records; otherwise it only runs `work`.
   */
  traced<T>(name: string, path: string, work: () => T, bytes?: number | ((result: Awaited<T>) => number)): T {
    return traceCall(this.calls, STORAGE_CALL, `storage.${name}`, path, work, bytes);
  }

  bucketDir(bucket: string): string {
    return `${this.root}/buckets/${bucket}`;
  }

  /** A key's data files share this path stem: `<stem>.<uuid>.data`. */
  objectStem(bucket: string, key: string): string {
    return `${this.bucketDir(bucket)}/objects/${keyPathStem(key)}`;
  }

  /** Where a version's data file lives. */
  dataPath(bucket: string, key: string, dataFile: string): string {
    return `${this.objectStem(bucket, key)}.${dataFile}`;
  }

  async #loadBucket(name: string): Promise<void> {
    const dir = this.bucketDir(name);
    let meta: BucketMeta;
    try {
      meta = JSON.parse(await Deno.readTextFile(`${dir}/bucket.json`));
    } catch {
      return; // a bucket whose creation never committed
    }
    const { log, records } = await RecordLog.open(dir);
    const state: BucketState = { name, meta, keys: [], objects: records };
    const objectsDir = `${dir}/objects`;
    await Deno.mkdir(objectsDir, { recursive: true, mode: 0o700 });
    const fans = new Map<string, FanDirContents>();
    for await (const fan of Deno.readDir(objectsDir)) {
      if (!fan.isDirectory) continue;
      const fanDir = `${objectsDir}/${fan.name}`;
      this.#fans.set(fanDir, Promise.resolve());
      fans.set(fanDir, await scanFanDir(fanDir));
    }
    // Record files of earlier versions join the log first; only then do they go.
    const legacy = [...fans.values()].flatMap((contents) => contents.legacy);
    if (legacy.length) { for (const record of await log.adopt(legacy)) records.set(record.key, record); }
    const referenced = new Set(
      [...records.values()].flatMap((r) => r.versions.map((v) => v.dataFile).filter((f) => f !== undefined)),
    );
    for (const [fanDir, contents] of fans) {
      const unreferenced = contents.dataFiles.filter((d) => !referenced.has(d.dataFile)).map((d) => d.path);
      const leftovers = [...contents.legacyFiles, ...contents.junk, ...unreferenced];
      for (const path of leftovers) await Deno.remove(path).catch(() => {});
      if (leftovers.length) await syncDir(fanDir);
    }
    await removeIncompleteUploads(`${dir}/uploads`);
    state.keys = [...records.keys()].sort(compareKeys);
    this.#logs.set(name, log);
    this.buckets.set(name, state);
  }

  /** Loads a bucket found on disk after start (heal, once it has restored a lost bucket.json); true when loaded. */
  async loadBucket(name: string): Promise<boolean> {
    if (!this.buckets.has(name)) await this.#loadBucket(name);
    return this.buckets.has(name);
  }

  bucket(name: string): BucketState {
    const state = this.buckets.get(name);
    if (!state) throw new StoreError("NoSuchBucket", "The specified bucket does not exist", 404);
    return state;
  }

  async createBucket(name: string, options: { objectLock?: boolean; now?: Date } = {}): Promise<BucketState> {
    return await this.traced("MakeVol", name, () => this.#createBucket(name, options));
  }

  async #createBucket(name: string, options: { objectLock?: boolean; now?: Date }): Promise<BucketState> {
    return await this.locks.run(`bucket:${name}`, async () => {
      if (this.buckets.has(name)) {
        throw new StoreError(
          "BucketAlreadyOwnedByYou",
          "Your previous request to create the named bucket succeeded and you already own it.",
          409,
        );
      }
      const dir = this.bucketDir(name);
      // What a deletion interrupted by a crash left (it removes bucket.json first) must not come back.
      if (await Deno.stat(dir).then(() => true, () => false)) {
        await Deno.remove(dir, { recursive: true });
        await syncDir(`${this.root}/buckets`);
      }
      await mkdirDurable(`${dir}/config`);
      await mkdirDurable(`${dir}/objects`);
      const { log } = await RecordLog.open(dir);
      this.#logs.set(name, log);
      const meta: BucketMeta = {
        created: (options.now ?? new Date()).toISOString(),
        versioning: options.objectLock ? "Enabled" : "",
        objectLock: !!options.objectLock,
      };
      // bucket.json is written last: a bucket exists once it is durable.
      await writeFileDurable(this.tmpDir, `${dir}/bucket.json`, JSON.stringify(meta));
      const state: BucketState = { name, meta, keys: [], objects: new Map() };
      this.buckets.set(name, state);
      return state;
    });
  }

  async saveBucketMeta(state: BucketState): Promise<void> {
    await this.traced(
      "WriteAll",
      `${state.name}/bucket.json`,
      () =>
        writeFileDurable(
          this.tmpDir,
          `${this.bucketDir(state.name)}/bucket.json`,
          JSON.stringify(state.meta),
        ),
    );
  }

  /** Deletes a bucket; without `force` it must hold no versions and no uploads. */
  async deleteBucket(name: string, options: { force?: boolean } = {}): Promise<void> {
    await this.traced("DeleteVol", name, () => this.#deleteBucket(name, options));
  }

  async #deleteBucket(name: string, options: { force?: boolean }): Promise<void> {
    await this.locks.run(`bucket:${name}`, async () => {
      const state = this.bucket(name);
      if (!options.force) {
        if (state.objects.size > 0) {
          const onlyMarkers = [...state.objects.values()].every((o) =>
            o.versions.every((v) => v.deleteMarker)
          );
          throw new StoreError(
            "BucketNotEmpty",
            onlyMarkers || state.meta.versioning
              ? "The bucket you tried to delete is not empty. You must delete all versions in the bucket."
              : "The bucket you tried to delete is not empty",
            409,
          );
        }
      }
      this.buckets.delete(name);
      // Lifecycle hook: a forced deletion lets go of the remote copies of transitioned versions.
      for (const record of state.objects.values()) {
        for (const v of record.versions) if (v.transition) this.tiered?.forget(v);
      }
      this.#documentWrites++;
      for (const key of this.#documents.keys()) if (key.startsWith(`${name}/`)) this.#documents.delete(key);
      for (const fan of this.#fans.keys()) {
        if (fan.startsWith(`${this.bucketDir(name)}/`)) this.#fans.delete(fan);
      }
      this.#logs.get(name)?.close();
      this.#logs.delete(name);
      // Remove bucket.json first so a crash mid-delete leaves no half-visible bucket.
      await removeDurable(`${this.bucketDir(name)}/bucket.json`);
      await Deno.remove(this.bucketDir(name), { recursive: true }).catch(() => {});
    });
  }

  /**
   * Configuration documents are small and read on most requests (policy, lock, quota), so each is read from
   * disk once and kept; putDocument and deleteBucket keep the cache in step (this process is the only writer).
   */
  readonly #documents = new Map<string, string | undefined>();
  /** Bumped by every write, so a read that raced a write never caches what it read. */
  #documentWrites = 0;

  async getDocument(bucket: string, name: string): Promise<string | undefined> {
    this.bucket(bucket);
    const cacheKey = `${bucket}/${safeDocName(name)}`;
    if (this.#documents.has(cacheKey)) return this.#documents.get(cacheKey);
    const writes = this.#documentWrites;
    const read = () =>
      Deno.readTextFile(`${this.bucketDir(bucket)}/config/${safeDocName(name)}`).catch(() => undefined);
    const value = await this.traced("ReadAll", `${bucket}/config/${name}`, read, (text) => text?.length ?? 0);
    // A write or a bucket deletion while reading must not leave a stale entry behind.
    if (writes === this.#documentWrites && this.buckets.has(bucket)) this.#documents.set(cacheKey, value);
    return value;
  }

  async putDocument(bucket: string, name: string, value: string | undefined): Promise<void> {
    this.bucket(bucket);
    const path = `${this.bucketDir(bucket)}/config/${safeDocName(name)}`;
    const cacheKey = `${bucket}/${safeDocName(name)}`;
    this.#documentWrites++;
    this.#documents.delete(cacheKey);
    try {
      if (value === undefined) {
        await this.traced("Delete", `${bucket}/config/${name}`, () => removeDurable(path));
      } else {await this.traced("WriteAll", `${bucket}/config/${name}`, () =>
          writeFileDurable(this.tmpDir, path, value), value.length);}
    } finally {
      this.#documentWrites++;
      this.#documents.delete(cacheKey);
    }
  }

  /** Fan-out directories, each settled once it exists durably (a write into one waits for that). */
  readonly #fans = new Map<string, Promise<void>>();

  /** Creates the key's fan-out directory when missing; resolves once it is durable. */
  ensureFanDir(bucket: string, key: string): Promise<void> {
    const stem = this.objectStem(bucket, key);
    const fan = stem.slice(0, stem.lastIndexOf("/"));
    let ready = this.#fans.get(fan);
    if (!ready) {
      ready = mkdirDurable(fan);
      // A failed creation is tried again by the next write.
      ready.catch(() => this.#fans.delete(fan));
      this.#fans.set(fan, ready);
    }
    return ready;
  }

  #log(bucket: string): RecordLog {
    const log = this.#logs.get(bucket);
    if (!log) throw new StoreError("NoSuchBucket", "The specified bucket does not exist", 404);
    return log;
  }

  /** The inline bytes of one version, read from the bucket's records log. */
  // deno-lint-ignore require-await -- async so that a missing bucket rejects like every other read
  async readInline(bucket: string, key: string, versionId: string): Promise<Uint8Array> {
    const data = this.#log(bucket).readInline(key, versionId);
    if (!data) throw new StoreError("InternalError", "Object data is missing", 500);
    return data;
  }

  /**
   * Persists one key's record (or removes it when no versions remain) and updates the index once durable.
   * Inline versions kept from before keep their bytes; `added` brings the new version's.
   */
  async saveRecord(
    state: BucketState,
    record: ObjectRecord,
    added?: { versionId: string; data: Uint8Array },
  ): Promise<void> {
    await this.#log(state.name).append(record, added);
    if (record.versions.length === 0) {
      if (state.objects.delete(record.key)) state.keys.splice(lowerBound(state.keys, record.key), 1);
      return;
    }
    if (!state.objects.has(record.key)) state.keys.splice(lowerBound(state.keys, record.key), 0, record.key);
    state.objects.set(record.key, record);
  }
}

function safeDocName(name: string): string {
  if (!/^[a-z][a-z0-9_.-]*$/.test(name) || name.includes("..")) {
    throw new Error(`invalid bucket document name ${name}`);
  }
  return name;
}

/**
 * Removes multipart upload directories whose initiation never committed (a crash between creating the
 * directory and writing its upload.json): no client knows their upload ids, and they would linger for ever.
 */
async function removeIncompleteUploads(uploadsDir: string): Promise<void> {
  let removed = false;
  try {
    for await (const entry of Deno.readDir(uploadsDir)) {
      const dir = `${uploadsDir}/${entry.name}`;
      const committed = await Deno.stat(`${dir}/upload.json`).then(() => true, () => false);
      if (!committed) {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
        removed = true;
      }
    }
  } catch { /* no uploads directory */ }
  if (removed) await syncDir(uploadsDir);
}
