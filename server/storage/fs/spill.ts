/**
 * Large upload bodies "spill" from memory to a temp file. Their MD5 (the ETag) runs at about 500 MiB/s on
 * one core; computed on the request thread, next to reading the network, checking chunk signatures and
 * writing, it cost a third of upload speed, so a worker thread hashes instead.
 *
 * The request thread gathers the body into 1 MiB batches, writes each to the file and hands it to the
 * worker through a ring of batch slots in shared memory, so the worker hashes without a copy or a system
 * call. The request thread never waits for the worker while a body arrives (pausing a body read lets the
 * sender's window close, and Deno's fetch then takes tens of milliseconds to resume): when every slot still
 * waits to be hashed, the batch is gathered in private memory and the worker reads it back from the file
 * (page cache) instead, so a lagging worker costs a little CPU, never memory or a stall. Without a worker
 * (one failed to start or stopped) hashing runs in-thread.
 */
import { Md5 } from "../../lib/s3/md5.ts";
import { TempFile } from "./durable.ts";

/** Bytes per write to the temp file and per hand-over to the worker. */
const BATCH_BYTES = 1024 * 1024;
/** Batches the worker may lag behind before later ones are read back from the file. */
const RING_SLOTS = 8;

export type HashRequest =
  /** `ring` holds `slots` batch slots of `batchBytes`, then one Int32 counting the slot batches hashed so far. */
  | { id: number; op: "open"; path: string; ring: SharedArrayBuffer; slots: number; batchBytes: number }
  | { id: number; op: "slot"; slot: number; length: number }
  | { id: number; op: "file"; total: number }
  | { id: number; op: "digest"; total: number }
  | { id: number; op: "drop" };

export type HashReply =
  | { id: number; op: "digest"; md5Hex: string }
  | { id: number; op: "failed"; message: string };

/** A body being written to a temp file; finish() makes it durable there and gives its MD5. */
export interface SpillFile {
  /** Takes `piece` (the caller may reuse it once this returns) to be written and hashed. */
  write(piece: Uint8Array): void;
  finish(): Promise<{ temp: TempFile; md5Hex: string }>;
  discard(): Promise<void>;
}

/** Hashes batches in order; it owns the memory batches are gathered in. */
interface Md5Hasher {
  /** Where the next batch is gathered (BATCH_BYTES long). */
  nextBatch(): Uint8Array;
  /** The last batch given out holds `length` bytes and is written: the file is now `total` bytes. */
  written(length: number, total: number): void;
  digest(total: number): Promise<string>;
  drop(): void;
}

/** One hashing worker per store, started on the first large upload and stopped with the store. */
export class SpillWriters {
  #worker: Worker | null = null;
  #failed = false;
  readonly #hashers = new Map<number, WorkerMd5>();
  readonly #slots: number;
  #nextId = 1;

  /**
   * `worker: false` hashes in-thread (what happens when a worker cannot start); `slots: 0` makes the worker
   * read every batch back from the file (what happens while it lags).
   */
  constructor(private readonly tmpDir: string, options: { worker?: boolean; slots?: number } = {}) {
    this.#failed = options.worker === false;
    this.#slots = options.slots ?? RING_SLOTS;
  }

  async create(): Promise<SpillFile> {
    const temp = await TempFile.create(this.tmpDir);
    const worker = this.#ensureWorker();
    if (!worker) return new Spill(temp, new LocalMd5());
    const id = this.#nextId++;
    // Shared memory is reserved, not touched: a small upload makes resident only the pages it fills.
    const ring = new SharedArrayBuffer(this.#slots * BATCH_BYTES + 4);
    const hasher = new WorkerMd5(
      id,
      ring,
      this.#slots,
      (request) => worker.postMessage(request),
      () => this.#hashers.delete(id),
    );
    this.#hashers.set(id, hasher);
    worker.postMessage(
      {
        id,
        op: "open",
        path: temp.path,
        ring,
        slots: this.#slots,
        batchBytes: BATCH_BYTES,
      } satisfies HashRequest,
    );
    return new Spill(temp, hasher);
  }

  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#failAll(new Error("storage is shutting down"));
  }

  #ensureWorker(): Worker | null {
    if (this.#worker || this.#failed) return this.#worker;
    try {
      const worker = new Worker(new URL("./spill_worker.ts", import.meta.url), { type: "module" });
      worker.onmessage = ({ data }: MessageEvent<HashReply>) => this.#hashers.get(data.id)?.onReply(data);
      worker.onerror = (event) => {
        event.preventDefault();
        // A worker that cannot run fails the uploads it holds; later uploads hash in-thread.
        this.#failed = true;
        this.#worker?.terminate();
        this.#worker = null;
        this.#failAll(new Error(`upload hashing stopped: ${event.message}`));
      };
      this.#worker = worker;
    } catch {
      this.#failed = true;
    }
    return this.#worker;
  }

  #failAll(error: Error): void {
    for (const hasher of this.#hashers.values()) hasher.fail(error);
    this.#hashers.clear();
  }
}

/** Gathers pieces into batches (few large writes cost the kernel far less than many small ones). */
class Spill implements SpillFile {
  #size = 0;
  #batch: Uint8Array | null = null;
  #batched = 0;

  constructor(private readonly temp: TempFile, private readonly md5: Md5Hasher) {}

  write(piece: Uint8Array): void {
    for (let at = 0; at < piece.length;) {
      this.#batch ??= this.md5.nextBatch();
      const n = Math.min(piece.length - at, this.#batch.length - this.#batched);
      this.#batch.set(piece.subarray(at, at + n), this.#batched);
      this.#batched += n;
      at += n;
      if (this.#batched === this.#batch.length) this.#writeBatch();
    }
  }

  #writeBatch(): void {
    if (!this.#batch) return;
    this.temp.writeSync(this.#batch.subarray(0, this.#batched));
    this.#size += this.#batched;
    this.md5.written(this.#batched, this.#size);
    this.#batch = null;
    this.#batched = 0;
  }

  async finish(): Promise<{ temp: TempFile; md5Hex: string }> {
    this.#writeBatch();
    // The worker finishes hashing while the file is synced: both wait on what the body's end left to do.
    const [digest] = await Promise.all([this.md5.digest(this.#size).catch(() => null), this.temp.finish()]);
    // The worker stopped (or could not start): hash what was written here instead of failing the upload.
    return { temp: this.temp, md5Hex: digest ?? await md5OfFile(this.temp.path) };
  }

  async discard(): Promise<void> {
    this.md5.drop();
    await this.temp.discard();
  }
}

class WorkerMd5 implements Md5Hasher {
  readonly #slots: Uint8Array[];
  /** Slot batches the worker has hashed (it counts them up). */
  readonly #hashedSlots: Int32Array;
  /** Slot batches handed over so far; the next one goes to slot `#handed % slots`. */
  #handed = 0;
  #inSlot = false;
  #private: Uint8Array | null = null;
  #error: Error | null = null;
  #digest: PromiseWithResolvers<string> | null = null;

  constructor(
    private readonly id: number,
    ring: SharedArrayBuffer,
    slots: number,
    private readonly post: (request: HashRequest) => void,
    private readonly forget: () => void,
  ) {
    this.#slots = Array.from({ length: slots }, (_, i) => new Uint8Array(ring, i * BATCH_BYTES, BATCH_BYTES));
    this.#hashedSlots = new Int32Array(ring, slots * BATCH_BYTES, 1);
  }

  nextBatch(): Uint8Array {
    this.#inSlot = this.#handed - Atomics.load(this.#hashedSlots, 0) < this.#slots.length;
    if (this.#inSlot) return this.#slots[this.#handed % this.#slots.length];
    return this.#private ??= new Uint8Array(BATCH_BYTES);
  }

  written(length: number, total: number): void {
    if (this.#error) return;
    if (this.#inSlot) {
      this.post({ id: this.id, op: "slot", slot: this.#handed++ % this.#slots.length, length });
    } else this.post({ id: this.id, op: "file", total });
  }

  async digest(total: number): Promise<string> {
    if (this.#error) throw this.#error;
    this.#digest = Promise.withResolvers();
    this.post({ id: this.id, op: "digest", total });
    return await this.#digest.promise;
  }

  drop(): void {
    if (!this.#error && !this.#digest) this.post({ id: this.id, op: "drop" });
    this.forget();
  }

  fail(error: Error): void {
    this.#error ??= error;
    this.#digest?.reject(error);
  }

  onReply(reply: HashReply): void {
    this.forget();
    if (reply.op === "digest") this.#digest?.resolve(reply.md5Hex);
    else this.fail(new Error(reply.message));
  }
}

async function md5OfFile(path: string): Promise<string> {
  const md5 = new Md5();
  const file = await Deno.open(path, { read: true });
  try {
    const buffer = new Uint8Array(BATCH_BYTES);
    for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
      md5.update(buffer.subarray(0, n));
    }
  } finally {
    file.close();
  }
  return md5.digestHex();
}

class LocalMd5 implements Md5Hasher {
  readonly #md5 = new Md5();
  readonly #batch = new Uint8Array(BATCH_BYTES);
  nextBatch(): Uint8Array {
    return this.#batch;
  }
  written(length: number): void {
    this.#md5.update(this.#batch.subarray(0, length));
  }
  digest(): Promise<string> {
    return Promise.resolve(this.#md5.digestHex());
  }
  drop(): void {}
}
