/**
 * A bucket's object records as one append-only log with group commit (`buckets/<bucket>/records.log`).
 *
 * Why a log: a small PUT used to cost a file of its own (create, fsync, rename, directory fsync), and on
 * two cores that file-system work, not the request, bounded small-object throughput. Here every record
 * change appends an entry; the entries of concurrent writes go out in one write and share one fdatasync,
 * and none is acknowledged before that sync returns. Small objects' bytes sit in the entry that added them.
 *
 * An entry (format in record_entries.ts) replaces its key's record; one without versions removes the key.
 * Inline versions an entry carries no bytes for keep those an earlier entry brought. A crash can only tear
 * the last batch (nothing after it was written), so replay stops at the first entry that fails its length
 * or CRC and cuts the file there; the cut bytes are kept first in `records.log.damaged-<time>`, in case
 * they were more than a torn tail.
 *
 * When the log holds more than twice its live bytes, it is rewritten with one entry per key into a temp
 * file, fsynced and renamed over the old one: the only other write to the file, and atomic.
 */
import { syncDir } from "./durable.ts";
import { osCall } from "../streams/calls.ts";
import { concatBytes } from "../../lib/s3/bytes.ts";
import { decodePayload, encodeEntry, HEADER, type Located, totalLength } from "./record_entries.ts";
import type { ObjectRecord } from "../core/records.ts";

/** Replay reads the log in pieces of this size. */
const READ_SIZE = 1024 * 1024;
/** Compaction starts only past this size, so small buckets never rewrite. */
const COMPACT_MIN_BYTES = 16 * 1024 * 1024;

/** A key's record, where its inline bytes are, and the log bytes of its latest entry without them. */
interface KeyEntry {
  record: ObjectRecord;
  entryBytes: number;
  data: Map<string, Located>;
}

/** A record with the bytes of some of its inline versions. */
export interface RecordWithData {
  record: ObjectRecord;
  data: Map<string, Uint8Array>;
}

interface Pending {
  record: ObjectRecord;
  bytes: Uint8Array;
  /** Offsets of the entry's data within `bytes`, per version id. */
  data: Map<string, Located>;
  settle: (error?: unknown) => void;
}

class RecordLogError extends Error {}

/**
 * The log holds no descriptor between uses: a server with thousands of buckets would otherwise hold two
 * per bucket and run into the process's file limit (often 1,024 in containers). Opening costs microseconds
 * beside a batch's fdatasync or a read.
 */
export class RecordLog {
  readonly #path: string;
  #size = 0;
  #liveBytes = 0;
  readonly #keys = new Map<string, KeyEntry>();
  #queue: Pending[] = [];
  /** Whether #drain is running; cleared inside it, so an append right after its last batch starts it again. */
  #draining = false;
  /** Set when a sync failed or the log was closed: nothing more can be acknowledged. */
  #broken: Error | null = null;

  private constructor(path: string) {
    this.#path = path;
  }

  /** Opens (creating durably if missing) the log of `bucketDir`, replays it and returns the live records. */
  static async open(bucketDir: string): Promise<{ log: RecordLog; records: Map<string, ObjectRecord> }> {
    const path = `${bucketDir}/records.log`;
    if (!(await Deno.stat(path).then(() => true, () => false))) {
      const file = await Deno.open(path, { write: true, create: true, mode: 0o600 });
      try {
        await file.sync();
      } finally {
        file.close();
      }
      await syncDir(bucketDir);
    }
    // Temp files of a rewrite that a crash interrupted (the log itself was not touched by it).
    for await (const entry of Deno.readDir(bucketDir)) {
      if (entry.name.startsWith("records.log.") && entry.name.endsWith(".tmp")) {
        await Deno.remove(`${bucketDir}/${entry.name}`);
      }
    }
    const log = new RecordLog(path);
    const file = await Deno.open(path, { read: true, write: true });
    try {
      return { log, records: await log.#replay(file) };
    } finally {
      file.close();
    }
  }

  async #replay(file: Deno.FsFile): Promise<Map<string, ObjectRecord>> {
    const fileSize = (await file.stat()).size;
    let buffer = new Uint8Array(0);
    let bufferStart = 0;
    let offset = 0;
    /** At least `n` bytes from `offset` in `buffer`, or false at the end of the file. */
    const have = async (n: number): Promise<boolean> => {
      while (bufferStart + buffer.length < offset + n) {
        if (bufferStart + buffer.length >= fileSize) return false;
        const keep = buffer.subarray(offset - bufferStart);
        const chunk = new Uint8Array(Math.max(READ_SIZE, n));
        const read = await file.read(chunk);
        if (read === null) return false;
        const joined = new Uint8Array(keep.length + read);
        joined.set(keep);
        joined.set(chunk.subarray(0, read), keep.length);
        buffer = joined;
        bufferStart = offset;
      }
      return true;
    };
    while (offset < fileSize) {
      if (!(await have(HEADER))) break;
      const view = new DataView(buffer.buffer, buffer.byteOffset + offset - bufferStart);
      const length = view.getUint32(0);
      const checksum = view.getUint32(4);
      if (length < 4 || offset + HEADER + length > fileSize || !(await have(HEADER + length))) break;
      const payload = buffer.subarray(offset - bufferStart + HEADER, offset - bufferStart + HEADER + length);
      const entry = decodePayload(payload, checksum, offset + HEADER);
      if (!entry) break;
      this.#apply(entry.record, HEADER + length - entry.dataBytes, entry.data);
      offset += HEADER + length;
    }
    if (offset < fileSize) await this.#cutDamagedTail(file, offset, fileSize);
    this.#size = offset;
    return new Map([...this.#keys].map(([key, entry]) => [key, entry.record]));
  }

  /**
   * Copies the bytes past the last whole entry beside the log (in pieces: they are one torn batch after a
   * crash, but could be most of a damaged file), then cuts them off, durably.
   */
  async #cutDamagedTail(file: Deno.FsFile, offset: number, fileSize: number): Promise<void> {
    const copyPath = `${this.#path}.damaged-${Date.now()}`;
    const copy = await Deno.open(copyPath, { write: true, createNew: true, mode: 0o600 });
    try {
      await file.seek(offset, Deno.SeekMode.Start);
      const piece = new Uint8Array(READ_SIZE);
      for (let read; (read = await file.read(piece)) !== null;) {
        for (let at = 0; at < read;) at += await copy.write(piece.subarray(at, read));
      }
      await copy.sync();
    } finally {
      copy.close();
    }
    console.error(
      `records: ${this.#path} ends in ${
        fileSize - offset
      } unreadable bytes (a write torn by a crash, or damage); they are kept in ${copyPath} and cut off`,
    );
    await file.truncate(offset);
    await file.sync();
  }

  /** Updates the index for an entry now in the log: its new inline versions and the ones it keeps. */
  #apply(record: ObjectRecord, entryBytes: number, added: Map<string, Located>): void {
    const previous = this.#keys.get(record.key);
    if (previous) this.#liveBytes -= previous.entryBytes + totalLength(previous.data.values());
    if (record.versions.length === 0) {
      this.#keys.delete(record.key);
      return;
    }
    const data = new Map<string, Located>();
    for (const version of record.versions) {
      if (!version.inline) continue;
      const at = added.get(version.versionId) ?? previous?.data.get(version.versionId);
      if (at) data.set(version.versionId, at);
    }
    this.#keys.set(record.key, { record, entryBytes, data });
    this.#liveBytes += entryBytes + totalLength(data.values());
  }

  /** Appends a key's record (no versions: removes the key); resolves once it is durable. */
  append(record: ObjectRecord, added?: { versionId: string; data: Uint8Array }): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken);
    const data = new Map<string, Uint8Array>();
    if (added) data.set(added.versionId, added.data);
    const { bytes, located } = encodeEntry(record, data);
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({
        record,
        bytes,
        data: located,
        settle: (error) => (error ? reject(error) : resolve()),
      });
      if (!this.#draining) void this.#drain();
    });
  }

  /** Writes queued entries in batches: one write and one fdatasync per batch. */
  async #drain(): Promise<void> {
    this.#draining = true;
    while (true) {
      // Cleared in the same step that finds the queue empty: had it waited for another await, an append
      // made meanwhile (by a caller just acknowledged) would find it set and never be written.
      if (!this.#queue.length) return void (this.#draining = false);
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#writeBatch(batch);
        for (const pending of batch) pending.settle();
      } catch (error) {
        for (const pending of batch) pending.settle(error);
      }
      if (this.#size > COMPACT_MIN_BYTES && this.#size > 2 * this.#liveBytes) {
        await this.#compact([]).catch((error) =>
          console.error(`records: compaction of ${this.#path} failed: ${error}`)
        );
      }
    }
  }

  /** Writes and syncs one batch, then indexes its entries. */
  async #writeBatch(batch: Pending[]): Promise<void> {
    if (this.#broken) throw this.#broken;
    const start = this.#size;
    const bytes = concatBytes(batch.map((p) => p.bytes));
    const path = this.#path;
    const file = osCall("OpenFileW", path, () => Deno.openSync(path, { write: true }));
    try {
      try {
        file.seekSync(start, Deno.SeekMode.Start);
        osCall("Write", path, () => {
          for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
        }, bytes.length);
      } catch (error) {
        // Nothing of a failed batch may stay: a later batch after it would be unreadable at replay.
        file.truncateSync(start);
        throw error;
      }
      try {
        await osCall("Fdatasync", path, () => file.syncData());
      } catch (error) {
        // After a failed fsync the kernel may have dropped the dirty pages: nothing written since can be
        // trusted to be durable, so the log refuses further writes until the server restarts.
        this.#broken = new RecordLogError(
          `records of this bucket cannot be made durable: ${error instanceof Error ? error.message : error}`,
        );
        throw this.#broken;
      }
    } finally {
      file.close();
    }
    this.#size = start + bytes.length;
    let at = start;
    for (const pending of batch) {
      this.#apply(
        pending.record,
        pending.bytes.length - totalLength(pending.data.values()),
        shifted(pending.data, at),
      );
      at += pending.bytes.length;
    }
  }

  /** The inline bytes of one version. */
  readInline(key: string, versionId: string): Uint8Array | undefined {
    const at = this.#keys.get(key)?.data.get(versionId);
    if (!at) return undefined;
    const path = this.#path;
    const file = osCall("OpenFileR", path, () => Deno.openSync(path, { read: true }));
    try {
      return readAt(file, at);
    } finally {
      file.close();
    }
  }

  /**
   * Records found outside the log (earlier versions of Deck kept one file per key) join it, where the log
   * has no newer record of their key: the log is rewritten with them, durably, before the caller removes
   * their old files. Called at load, before any append.
   */
  async adopt(records: RecordWithData[]): Promise<ObjectRecord[]> {
    const joining = records.filter((r) => r.record.versions.length && !this.#keys.has(r.record.key));
    await this.#compact(joining);
    return joining.map((r) => r.record);
  }

  /**
   * Rewrites the log with one entry per live key (plus `extra`): temp file, fsync, rename, directory fsync.
   * Runs between batches, so no append interleaves.
   */
  async #compact(extra: RecordWithData[]): Promise<void> {
    const bucketDir = this.#path.slice(0, this.#path.lastIndexOf("/"));
    const tempPath = `${this.#path}.${crypto.randomUUID()}.tmp`;
    const temp = await Deno.open(tempPath, { write: true, createNew: true, mode: 0o600 });
    const source = await Deno.open(this.#path, { read: true });
    const keys = new Map<string, KeyEntry>();
    let size = 0;
    try {
      const pieces: Uint8Array[] = [];
      let buffered = 0;
      const flush = async () => {
        const bytes = concatBytes(pieces.splice(0));
        for (let at = 0; at < bytes.length;) at += await temp.write(bytes.subarray(at));
        buffered = 0;
      };
      const add = async (record: ObjectRecord, data: Map<string, Uint8Array>) => {
        const { bytes, located } = encodeEntry(record, data);
        keys.set(record.key, {
          record,
          entryBytes: bytes.length - totalLength(located.values()),
          data: shifted(located, size),
        });
        size += bytes.length;
        pieces.push(bytes);
        buffered += bytes.length;
        if (buffered >= READ_SIZE) await flush();
      };
      for (const entry of this.#keys.values()) {
        await add(entry.record, new Map([...entry.data].map(([id, at]) => [id, readAt(source, at)])));
      }
      for (const { record, data } of extra) await add(record, data);
      await flush();
      await temp.syncData();
      temp.close();
      // Synchronous, with the index switched in the same step: a read must never pair the new file with
      // the old offsets.
      Deno.renameSync(tempPath, this.#path);
    } catch (error) {
      try {
        temp.close();
      } catch { /* closed already */ }
      await Deno.remove(tempPath).catch(() => {});
      throw error;
    } finally {
      source.close();
    }
    this.#size = size;
    this.#liveBytes = size;
    this.#keys.clear();
    for (const [key, entry] of keys) this.#keys.set(key, entry);
    try {
      await syncDir(bucketDir);
    } catch (error) {
      // The rename may not survive a crash, and the old log lacks what is appended from now on.
      this.#broken = new RecordLogError(
        `the rewritten records log of this bucket cannot be made durable: ${
          error instanceof Error ? error.message : error
        }`,
      );
      throw this.#broken;
    }
  }

  /** Stops accepting writes; writes still queued fail. */
  close(): void {
    this.#broken ??= new RecordLogError("the bucket's records log is closed");
  }
}

/** Locations within an entry, as locations in the file when the entry starts at `base`. */
function shifted(located: Map<string, Located>, base: number): Map<string, Located> {
  return new Map([...located].map(([id, at]) => [id, { offset: base + at.offset, length: at.length }]));
}

/** Synchronous on purpose: a seek and its read must not interleave with another read's. */
function readAt(file: Deno.FsFile, at: Located): Uint8Array {
  const out = new Uint8Array(at.length);
  file.seekSync(at.offset, Deno.SeekMode.Start);
  for (let done = 0; done < at.length;) {
    const read = file.readSync(out.subarray(done));
    if (read === null) throw new RecordLogError(`records log ended inside an entry at ${at.offset}`);
    done += read;
  }
  return out;
}
