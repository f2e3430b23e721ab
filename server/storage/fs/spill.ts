/**
 * Large upload bodies "spill" from memory to a temp file. Their MD5 (the ETag) runs at about 600 MiB/s on
 * one core; computed on the request thread, next to reading the network, checking chunk signatures and
 * writing, it cost a third of upload speed. A worker thread hashes instead, reading back from the page cache
 * what the request thread has written, so it may lag by any amount without holding memory, and the request
 * thread never waits for it until the body has been received. (Pausing a body read is costly: Deno's own
 * fetch, which the console uploads with, takes tens of milliseconds to resume sending after the server's
 * receive window closes, so bounded hand-over buffers collapsed uploads to ~50 MiB/s whenever the worker
 * fell behind.) Without a worker (one failed to start or stopped) hashing runs in-thread.
 */
import { Md5 } from "../../s3/md5.ts";
import { TempFile } from "./durable.ts";

export type HashRequest =
  | { id: number; op: "open"; path: string }
  | { id: number; op: "written"; total: number }
  | { id: number; op: "digest"; total: number }
  | { id: number; op: "drop" };

export type HashReply =
  | { id: number; op: "digest"; md5Hex: string }
  | { id: number; op: "failed"; message: string };

/** A body being written to a temp file; finish() makes it durable there and gives its MD5. */
export interface SpillFile {
  /** Writes `piece` (the caller may reuse it once this returns) and has it hashed. */
  write(piece: Uint8Array): void;
  finish(): Promise<{ temp: TempFile; md5Hex: string }>;
  discard(): Promise<void>;
}

interface Md5Hasher {
  /** `piece` was just written to the file, making it `total` bytes long. */
  update(piece: Uint8Array, total: number): void;
  digest(total: number): Promise<string>;
  drop(): void;
}

/** Progress is reported to the worker every this many bytes. */
const REPORT_BYTES = 1024 * 1024;

/** One hashing worker per store, started on the first large upload and stopped with the store. */
export class SpillWriters {
  #worker: Worker | null = null;
  #failed = false;
  readonly #hashers = new Map<number, WorkerMd5>();
  #nextId = 1;

  /** `worker: false` hashes in-thread (what happens when a worker cannot start). */
  constructor(private readonly tmpDir: string, options: { worker?: boolean } = {}) {
    this.#failed = options.worker === false;
  }

  async create(): Promise<SpillFile> {
    const temp = await TempFile.create(this.tmpDir);
    const worker = this.#ensureWorker();
    if (!worker) return new Spill(temp, new LocalMd5());
    const id = this.#nextId++;
    const hasher = new WorkerMd5(id, (request) => worker.postMessage(request), () => this.#hashers.delete(id));
    this.#hashers.set(id, hasher);
    worker.postMessage({ id, op: "open", path: temp.path } satisfies HashRequest);
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

class Spill implements SpillFile {
  #size = 0;

  constructor(private readonly temp: TempFile, private readonly md5: Md5Hasher) {}

  write(piece: Uint8Array): void {
    this.temp.writeSync(piece);
    this.#size += piece.length;
    this.md5.update(piece, this.#size);
  }

  async finish(): Promise<{ temp: TempFile; md5Hex: string }> {
    let md5Hex: string;
    try {
      md5Hex = await this.md5.digest(this.#size);
    } catch {
      // The worker stopped (or could not start): hash what was written here instead of failing the upload.
      md5Hex = await md5OfFile(this.temp.path);
    }
    await this.temp.finish();
    return { temp: this.temp, md5Hex };
  }

  async discard(): Promise<void> {
    this.md5.drop();
    await this.temp.discard();
  }
}

class WorkerMd5 implements Md5Hasher {
  #reported = 0;
  #error: Error | null = null;
  #digest: PromiseWithResolvers<string> | null = null;

  constructor(
    private readonly id: number,
    private readonly post: (request: HashRequest) => void,
    private readonly forget: () => void,
  ) {}

  update(_piece: Uint8Array, total: number): void {
    if (this.#error || total - this.#reported < REPORT_BYTES) return;
    this.post({ id: this.id, op: "written", total });
    this.#reported = total;
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
    const buffer = new Uint8Array(REPORT_BYTES);
    for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) md5.update(buffer.subarray(0, n));
  } finally {
    file.close();
  }
  return md5.digestHex();
}

class LocalMd5 implements Md5Hasher {
  readonly #md5 = new Md5();
  update(piece: Uint8Array): void {
    this.#md5.update(piece);
  }
  digest(): Promise<string> {
    return Promise.resolve(this.#md5.digestHex());
  }
  drop(): void {}
}
