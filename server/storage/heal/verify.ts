/**
 * What heal does on this single-drive store: re-reads what a path holds and checks it against what was
 * recorded when it was written, and restores what can be restored without a second copy.
 *
 * - system metadata (`.deck/*.json`, `/heal/` only): each file must parse.
 * - a bucket: its directory, `bucket.json`, `objects/` and `config/`. Missing directories are recreated; a
 *   lost or unreadable `bucket.json` is rebuilt (versioning inferred from the records) and the bucket is
 *   loaded again with its objects — the records log, not bucket.json, is what holds the data.
 * - bucket metadata: each configuration document must parse; a records log that was cut at start (kept
 *   aside as `records.log.damaged-*`) is reported, since records after the cut are no longer listed.
 * - every version of every object: its bytes must exist, have the recorded size and hash to the recorded
 *   ETag (MD5, or for multipart uploads the MD5 of the parts' MD5s over the recorded part sizes).
 *   Nothing is dropped: a version whose data is missing or corrupt stays listed and is reported.
 *
 * - data files that no version references (a write whose record was never logged, a removal that failed):
 *   reported in a whole-bucket heal.
 *
 * Without parity there is no second copy to rebuild object bytes from, so corrupt or missing data stays
 * corrupt or missing after heal, and says so. With `remove` (madmin HealOpts.Remove), what heal cannot
 * restore is removed instead, as MinIO removes dangling objects: a version whose data is missing or corrupt
 * (its record goes; before it reads corrupt/missing, after "missing", the detail starts "removed"), and an
 * unreferenced data file at least ORPHAN_MIN_AGE_MS old (a younger one may belong to a write in progress,
 * whose file is renamed into place just before its record is logged). A dry run only says what it would remove.
 */
import { parseXml } from "../../lib/s3/xml.ts";
import { mkdirDurable, removeDurable, syncDir, writeFileDurable } from "../fs/durable.ts";
import { keyPathStem } from "../fs/names.ts";
import type { Store } from "../fs/store.ts";
import type { BucketMeta, BucketState, VersionRecord } from "../core/records.ts";
import { type DriveState, verifyVersion } from "./version_check.ts";

/** Unreferenced data files younger than this are left alone (a write may be about to log their record). */
export const ORPHAN_MIN_AGE_MS = 10 * 60_000;

export type HealItemType = "metadata" | "bucket" | "bucket-metadata" | "object";

export interface HealFinding {
  type: HealItemType;
  bucket: string;
  object: string;
  versionId: string;
  detail: string;
  before: DriveState;
  after: DriveState;
  /** Bytes of an object version, -1 when unknown. */
  objectSize: number;
  /** Set when heal removed this dangling version (`remove`), which MinIO audits as DeleteDanglingObject. */
  removed?: boolean;
}

export interface HealScope {
  /** "" heals everything. */
  bucket: string;
  prefix: string;
  recursive: boolean;
  dryRun: boolean;
  /** Remove what cannot be restored (dangling versions, unreferenced data files). */
  remove: boolean;
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Yields one finding per item under the scope; stops between items once `signal` aborts. */
export async function* healScope(
  store: Store,
  scope: HealScope,
  signal: AbortSignal,
): AsyncGenerator<HealFinding> {
  if (!scope.bucket) {
    yield* systemMetadata(store);
    for (const name of await bucketDirs(store)) {
      if (signal.aborted) return;
      yield* healBucket(store, name, { ...scope, bucket: name, prefix: "" }, signal);
    }
    return;
  }
  yield* healBucket(store, scope.bucket, scope, signal);
}

async function bucketDirs(store: Store): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${store.root}/buckets`)) {
    if (entry.isDirectory) names.push(entry.name);
  }
  return names.sort();
}

async function* systemMetadata(store: Store): AsyncGenerator<HealFinding> {
  const dir = `${store.root}/.deck`;
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".json")) files.push(entry.name);
  }
  for (const name of files.sort()) {
    const state = await Deno.readTextFile(`${dir}/${name}`).then(
      (text) => (JSON.parse(text), "ok" as const),
      () => "corrupt" as const,
    );
    yield {
      type: "metadata",
      bucket: "",
      object: "",
      versionId: "",
      detail: name,
      before: state,
      after: state,
      objectSize: -1,
    };
  }
}

/** The bucket item, then its metadata documents, then its objects. */
async function* healBucket(
  store: Store,
  name: string,
  scope: HealScope,
  signal: AbortSignal,
): AsyncGenerator<HealFinding> {
  const bucket = await healBucketDirectory(store, name, scope.dryRun);
  yield bucket;
  if (!store.buckets.has(name)) return;
  yield* bucketMetadata(store, name);
  const state = store.buckets.get(name)!;
  const keys = scope.recursive
    ? state.keys.filter((k) => k.startsWith(scope.prefix))
    : scope.prefix && state.objects.has(scope.prefix)
    ? [scope.prefix]
    : [];
  for (const key of keys) {
    if (signal.aborted) return;
    // The key may have changed since the snapshot: verify what it holds now.
    for (const version of state.objects.get(key)?.versions ?? []) {
      const { state: found, detail } = await verifyVersion(store, name, key, version);
      const finding: HealFinding = {
        type: "object",
        bucket: name,
        object: key,
        versionId: version.versionId === "null" ? "" : version.versionId,
        detail,
        before: found,
        after: found,
        objectSize: version.deleteMarker ? 0 : version.size,
      };
      if (found !== "ok" && scope.remove) {
        if (scope.dryRun) finding.detail = `would be removed (dry run): ${detail}`;
        else if (await removeDangling(store, state, key, version)) {
          Object.assign(finding, { after: "missing", detail: `removed: ${detail}`, removed: true });
        }
      }
      yield finding;
    }
  }
  if (scope.recursive && !scope.prefix && !signal.aborted) yield* unreferencedDataFiles(store, state, scope);
}

/** Removes one dangling version, if the key still holds it; true when removed. */
function removeDangling(
  store: Store,
  state: BucketState,
  key: string,
  version: VersionRecord,
): Promise<boolean> {
  return store.locks.run(`${state.name}/${key}`, async () => {
    const record = state.objects.get(key);
    if (!record?.versions.includes(version)) return false;
    await store.saveRecord(state, { key, versions: record.versions.filter((v) => v !== version) });
    if (version.dataFile) {
      await removeDurable(store.dataPath(state.name, key, version.dataFile)).catch(() => {});
    }
    return true;
  });
}

/** Data files no version points at: reported, and removed with `remove` once old enough. */
async function* unreferencedDataFiles(
  store: Store,
  state: BucketState,
  scope: HealScope,
): AsyncGenerator<HealFinding> {
  const objectsDir = `${store.bucketDir(state.name)}/objects`;
  const referenced = new Set<string>();
  for (const record of state.objects.values()) {
    for (const v of record.versions) if (v.dataFile) referenced.add(v.dataFile);
  }
  let keyOfStem: Map<string, string> | null = null;
  const fans: string[] = [];
  for await (const entry of Deno.readDir(objectsDir)) if (entry.isDirectory) fans.push(entry.name);
  for (const fan of fans.sort()) {
    const names: string[] = [];
    for await (const entry of Deno.readDir(`${objectsDir}/${fan}`)) if (entry.isFile) names.push(entry.name);
    for (const name of names.sort()) {
      // `<sha256 of the key>.<uuid>.data`, as the store names data files.
      const m = /^([0-9a-f]{64})\.(.+\.data)$/.exec(name);
      if (!m || referenced.has(m[2])) continue;
      const [path, dataFile, stem] = [`${objectsDir}/${fan}/${name}`, m[2], `${fan}/${m[1]}`];
      keyOfStem ??= new Map([...state.objects.keys()].map((k) => [keyPathStem(k), k]));
      const key = keyOfStem.get(stem) ?? "";
      const mtime = (await Deno.stat(path).catch(() => null))?.mtime?.getTime();
      if (mtime === undefined) continue; // gone meanwhile
      const finding: HealFinding = {
        type: "object",
        bucket: state.name,
        object: key,
        versionId: "",
        detail: `data file objects/${fan}/${name} belongs to no object version`,
        before: "corrupt",
        after: "corrupt",
        objectSize: -1,
      };
      if (scope.remove) {
        if (Date.now() - mtime < ORPHAN_MIN_AGE_MS) {
          finding.detail += "; left in place: it is too recent to rule out a write in progress";
        } else if (scope.dryRun) finding.detail = `would be removed (dry run): ${finding.detail}`;
        else if (await removeUnreferenced(store, state, key, path, dataFile)) {
          Object.assign(finding, { after: "missing", detail: `removed: ${finding.detail}` });
        }
      }
      yield finding;
    }
  }
}

/** Removes an unreferenced data file, checked again under its key's lock; true when removed. */
function removeUnreferenced(
  store: Store,
  state: BucketState,
  key: string,
  path: string,
  dataFile: string,
): Promise<boolean> {
  const remove = async () => {
    if (key && state.objects.get(key)?.versions.some((v) => v.dataFile === dataFile)) return false;
    await Deno.remove(path);
    await syncDir(path.slice(0, path.lastIndexOf("/")));
    return true;
  };
  return (key ? store.locks.run(`${state.name}/${key}`, remove) : remove()).catch(() => false);
}

async function healBucketDirectory(store: Store, name: string, dryRun: boolean): Promise<HealFinding> {
  const dir = store.bucketDir(name);
  const item = (before: DriveState, after: DriveState, detail: string): HealFinding => ({
    type: "bucket",
    bucket: name,
    object: "",
    versionId: "",
    detail,
    before,
    after,
    objectSize: -1,
  });
  if (!(await exists(dir))) return item("missing", "missing", "the bucket's directory does not exist");
  const problems: string[] = [];
  const missingDirs = [];
  for (const sub of ["objects", "config"]) if (!(await exists(`${dir}/${sub}`))) missingDirs.push(sub);
  if (missingDirs.length) {
    problems.push(`missing ${missingDirs.join(" and ")} director${missingDirs.length > 1 ? "ies" : "y"}`);
  }
  const metaReadable = await Deno.readTextFile(`${dir}/bucket.json`).then(
    (t) => (JSON.parse(t), true),
    () => false,
  );
  if (!metaReadable) problems.push("bucket.json is missing or unreadable");
  if (problems.length === 0) return item("ok", "ok", "");
  if (dryRun) return item("corrupt", "corrupt", problems.join("; "));
  for (const sub of missingDirs) await mkdirDurable(`${dir}/${sub}`);
  if (!metaReadable) {
    if (!(await exists(`${dir}/records.log`))) {
      return item("corrupt", "corrupt", `${problems.join("; ")}; no records log to rebuild it from`);
    }
    await rebuildBucketMeta(store, name);
  }
  return item("corrupt", "ok", `restored: ${problems.join("; ")}`);
}

/** A lost bucket.json is rebuilt from what the records show; object lock settings cannot be recovered. */
async function rebuildBucketMeta(store: Store, name: string): Promise<void> {
  const dir = store.bucketDir(name);
  const created = (await Deno.stat(dir)).mtime ?? new Date();
  const meta: BucketMeta = { created: created.toISOString(), versioning: "", objectLock: false };
  await writeFileDurable(store.tmpDir, `${dir}/bucket.json`, JSON.stringify(meta));
  if (!(await store.loadBucket(name))) return;
  const state = store.bucket(name);
  const versioned = [...state.objects.values()].some((r) => r.versions.some((v) => v.versionId !== "null"));
  if (versioned) {
    state.meta.versioning = "Enabled";
    await store.saveBucketMeta(state);
  }
}

async function* bucketMetadata(store: Store, name: string): AsyncGenerator<HealFinding> {
  const dir = store.bucketDir(name);
  const item = (state: DriveState, object: string, detail: string): HealFinding => ({
    type: "bucket-metadata",
    bucket: name,
    object,
    versionId: "",
    detail,
    before: state,
    after: state,
    objectSize: -1,
  });
  const documents: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/config`)) if (entry.isFile) documents.push(entry.name);
  for (const document of documents.sort()) {
    const text = await Deno.readTextFile(`${dir}/config/${document}`).catch(() => null);
    yield item(
      text !== null && parses(document, text) ? "ok" : "corrupt",
      document,
      text === null ? "unreadable" : "",
    );
  }
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.startsWith("records.log.damaged-")) continue;
    const size = (await Deno.stat(`${dir}/${entry.name}`)).size;
    yield item(
      "corrupt",
      "records.log",
      `at start the records log was cut at a damaged entry; ${size} bytes after it are kept in ${entry.name}`,
    );
  }
}

function parses(document: string, text: string): boolean {
  try {
    if (document.endsWith(".json")) JSON.parse(text);
    else if (document.endsWith(".xml")) parseXml(text);
    return true;
  } catch {
    return false;
  }
}
