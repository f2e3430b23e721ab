/**
 * Trace records below the request: MinIO's `storage` type (one record per call into the store layer, named as
 * MinIO's StorageAPI names them: `storage.ReadVersion`, `storage.RenameData`, `storage.DeleteVersion`...) and
 * its `os` type (one per file-system call the durable-write helpers make: `os.OpenFileW`, `os.Write`,
 * `os.Fdatasync`, `os.Rename`...). Shapes: minio-protocol §3.14 (TraceInfo without `http`).
 *
 * Cost when no one traces these types: one `hub.active` check per call (the hubs have no sinks, only trace
 * subscribers), nothing built, no clock read. The store holds its storage hub; the durable helpers know only
 * paths, so each server registers its os hub for its data directory and a call finds the hub by path.
 */
import type { Hub } from "./hub.ts";

export type CallType = 1 | 2;
export const OS_CALL: CallType = 1;
export const STORAGE_CALL: CallType = 2;

export interface CallRecord {
  type: CallType;
  /** `storage.<Name>` or `os.<Name>`. */
  funcname: string;
  /** When the call started. */
  time: Date;
  durationNs: number;
  /** Storage: `bucket/key` (or `bucket`, `bucket/config/<document>`); os: the file's path, `from -> to` for a rename. */
  path: string;
  bytes: number;
  /** What the call failed with ("" when it succeeded). */
  error: string;
}

/** The text a failed call shows: the S3 error code of a store refusal, else the system's message. */
function errorText(error: unknown): string {
  if (
    error instanceof Error && error.name === "StoreError" && "code" in error && typeof error.code === "string"
  ) return error.code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs `work` (sync or async) as one traced call: when `hub` has listeners, publishes its record once it
 * settles; otherwise only runs it. `bytes` is a count, or computed from the result.
 */
export function traceCall<T>(
  hub: Hub<CallRecord> | null | undefined,
  type: CallType,
  funcname: string,
  path: string,
  work: () => T,
  bytes?: number | ((result: Awaited<T>) => number),
): T {
  if (!hub?.active) return work();
  const time = new Date();
  const start = performance.now();
  const publish = (error: unknown, result?: Awaited<T>) => {
    let count = 0;
    if (typeof bytes === "number") count = bytes;
    else if (bytes && error === null) {
      try {
        count = bytes(result as Awaited<T>);
      } catch { /* a count is best effort */ }
    }
    hub.publish({
      type,
      funcname,
      time,
      durationNs: Math.round((performance.now() - start) * 1e6),
      path,
      bytes: count,
      error: error === null ? "" : errorText(error),
    });
  };
  let result: T;
  try {
    result = work();
  } catch (error) {
    publish(error);
    throw error;
  }
  if (result instanceof Promise) {
    return result.then((value) => {
      publish(null, value);
      return value;
    }, (error) => {
      publish(error);
      throw error;
    }) as T;
  }
  publish(null, result as Awaited<T>);
  return result;
}

/** Data directories (with a trailing slash) whose server has an os-call hub. */
const osHubs = new Map<string, Hub<CallRecord>>();

/** Sends os calls on paths under `dataDir` to `hub`; returns the removal. */
export function registerOsCalls(dataDir: string, hub: Hub<CallRecord>): () => void {
  const prefix = `${dataDir.replace(/\/+$/, "")}/`;
  osHubs.set(prefix, hub);
  return () => {
    if (osHubs.get(prefix) === hub) osHubs.delete(prefix);
  };
}

/** The os-call hub that wants a record of a call on `path` now, or null. */
function osHubFor(path: string): Hub<CallRecord> | null {
  for (const [prefix, hub] of osHubs) if (hub.active && path.startsWith(prefix)) return hub;
  return null;
}

/** One traced file-system call on `path` (`os.<name>`); `shown` is the path the record shows (a rename's both ends). */
export function osCall<T>(
  name: string,
  path: string,
  work: () => T,
  bytes?: number | ((result: Awaited<T>) => number),
  shown = path,
): T {
  if (osHubs.size === 0) return work();
  return traceCall(osHubFor(path), OS_CALL, `os.${name}`, shown, work, bytes);
}
