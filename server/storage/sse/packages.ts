/**
 * The encrypted form of object bytes on disk, in the manner of MinIO's DARE: a stream is a 16-byte random
 * salt followed by packages of up to 64 KiB of plaintext, each sealed with AES-256-GCM (ciphertext then a
 * 16-byte tag). The stream key is HMAC-SHA256(object key, salt), so no two streams share a key even when
 * they share an object key (the parts of one multipart upload, a part uploaded twice). The nonce holds the
 * package's sequence number and whether it is the last one, so packages cannot be reordered, dropped or cut
 * off without failing authentication. A range decrypts only the packages it touches.
 *
 * A multipart object is its parts' streams one after another; `segments` (the parts' plaintext sizes) say
 * where each starts.
 */
import { TempFile } from "../fs/durable.ts";
import type { StoredBytes } from "../fs/stored_bytes.ts";

export const PACKAGE_SIZE = 64 * 1024;
const TAG = 16;
const SALT = 16;
/** Packages handled per read, write and batch of parallel WebCrypto calls (1 MiB of plaintext). */
const BATCH = 16;

const packagesOf = (plain: number) => Math.max(1, Math.ceil(plain / PACKAGE_SIZE));

/** Stored bytes of one stream holding `plain` bytes. */
export const streamStoredSize = (plain: number) => SALT + plain + packagesOf(plain) * TAG;

function nonce(sequence: number, final: boolean): Uint8Array<ArrayBuffer> {
  const n = new Uint8Array(12);
  const view = new DataView(n.buffer);
  view.setUint32(0, final ? 1 : 0);
  view.setBigUint64(4, BigInt(sequence));
  return n;
}

async function streamKey(objectKey: Uint8Array, salt: Uint8Array): Promise<CryptoKey> {
  const hmac = await crypto.subtle.importKey(
    "raw",
    objectKey as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const raw = await crypto.subtle.sign("HMAC", hmac, salt as Uint8Array<ArrayBuffer>);
  return await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** Encrypts one stream whose plaintext arrives in pieces that are whole packages except the last. */
export class StreamSealer {
  #sequence = 0;
  private constructor(
    private readonly key: CryptoKey,
    readonly salt: Uint8Array,
    private readonly total: number,
  ) {}

  static async create(objectKey: Uint8Array, total: number): Promise<StreamSealer> {
    const salt = crypto.getRandomValues(new Uint8Array(SALT));
    return new StreamSealer(await streamKey(objectKey, salt), salt, total);
  }

  /** Seals `plain` (a whole number of packages, or the stream's remainder) as consecutive packages. */
  async seal(plain: Uint8Array): Promise<Uint8Array> {
    const count = packagesOf(this.total);
    const jobs: Promise<ArrayBuffer>[] = [];
    for (let at = 0; at < plain.length || (plain.length === 0 && jobs.length === 0); at += PACKAGE_SIZE) {
      const sequence = this.#sequence++;
      jobs.push(
        crypto.subtle.encrypt(
          { name: "AES-GCM", iv: nonce(sequence, sequence === count - 1) },
          this.key,
          plain.subarray(at, at + PACKAGE_SIZE) as Uint8Array<ArrayBuffer>,
        ),
      );
      if (plain.length === 0) break;
    }
    const sealed = await Promise.all(jobs);
    const out = new Uint8Array(sealed.reduce((n, s) => n + s.byteLength, 0));
    let at = 0;
    for (const s of sealed) {
      out.set(new Uint8Array(s), at);
      at += s.byteLength;
    }
    return out;
  }
}

/**
 * All of `jobs`' results, or the first failure once every job has finished: a caller may reuse the buffers
 * the jobs read only when none of them still reads it.
 */
async function settled<T>(jobs: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(jobs);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** The stored form of `plain` as one stream. */
export async function encryptBytes(objectKey: Uint8Array, plain: Uint8Array): Promise<Uint8Array> {
  const sealer = await StreamSealer.create(objectKey, plain.length);
  const body = await sealer.seal(plain);
  const out = new Uint8Array(SALT + body.length);
  out.set(sealer.salt);
  out.set(body, SALT);
  return out;
}

/**
 * Encrypts the `size` bytes of the file at `path` into a new temp file (made durable by the caller's
 * commit), feeding each stored piece to `observe` (a digest of the stored bytes). Returns the stored size.
 */
export async function encryptFile(
  objectKey: Uint8Array,
  path: string,
  size: number,
  temp: TempFile,
  observe?: (stored: Uint8Array) => void,
): Promise<number> {
  const sealer = await StreamSealer.create(objectKey, size);
  const file = await Deno.open(path, { read: true });
  let stored = 0;
  const emit = async (piece: Uint8Array) => {
    observe?.(piece);
    await temp.write(piece);
    stored += piece.length;
  };
  try {
    await emit(sealer.salt);
    const buffer = new Uint8Array(BATCH * PACKAGE_SIZE);
    let left = size;
    // The next batch is read while the previous one is sealed and written.
    let pending: Promise<Uint8Array> | null = null;
    do {
      let filled = 0;
      const want = Math.min(buffer.length, left);
      while (filled < want) {
        const n = await file.read(buffer.subarray(filled, want));
        if (n === null) throw new Error("staged data ended early");
        filled += n;
      }
      left -= filled;
      const sealing = sealer.seal(buffer.slice(0, filled));
      if (pending) await emit(await pending);
      pending = sealing;
    } while (left > 0);
    await emit(await pending!);
  } finally {
    file.close();
  }
  return stored;
}

export class TamperedError extends Error {
  constructor() {
    super("the stored object data failed authentication");
    this.name = "TamperedError";
  }
}

/**
 * The plaintext bytes [start, start+length) of stored streams (one per segment), decrypting only the
 * packages the range touches. The stream errors with TamperedError when a package fails authentication.
 */
export function decryptedRange(
  stored: StoredBytes,
  segments: number[],
  objectKey: Uint8Array,
  start: number,
  length: number,
): ReadableStream<Uint8Array> {
  async function* pieces(): AsyncGenerator<Uint8Array> {
    let plainOffset = 0;
    let storedOffset = 0;
    const end = start + length;
    for (const segment of segments) {
      const segmentEnd = plainOffset + segment;
      if (segmentEnd > start && plainOffset < end) {
        yield* segmentPieces(
          stored,
          storedOffset,
          segment,
          objectKey,
          Math.max(start, plainOffset) - plainOffset,
          Math.min(end, segmentEnd) - plainOffset,
        );
      }
      if (segmentEnd >= end) return;
      plainOffset = segmentEnd;
      storedOffset += streamStoredSize(segment);
    }
  }
  const iterator = pieces();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) {
          stored.close();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        stored.close();
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return(undefined);
      stored.close();
    },
  }, { highWaterMark: 0 });
}

/** Batches read and decrypted ahead of the one being sent (reads stay in order; decryption overlaps). */
const READ_AHEAD = 3;

/** Plaintext [from, to) of one stream that starts at `base` and holds `plain` bytes. */
async function* segmentPieces(
  stored: StoredBytes,
  base: number,
  plain: number,
  objectKey: Uint8Array,
  from: number,
  to: number,
): AsyncGenerator<Uint8Array> {
  if (from >= to) return;
  const key = await streamKey(objectKey, await stored.read(base, SALT));
  const count = packagesOf(plain);
  const first = Math.floor(from / PACKAGE_SIZE);
  const last = Math.floor((to - 1) / PACKAGE_SIZE);
  // Read buffers are reused once their batch is decrypted (fresh megabyte buffers cost page faults).
  const free: Uint8Array[] = [];
  const openBatch = async (batch: number): Promise<Uint8Array[]> => {
    const upTo = Math.min(last, batch + BATCH - 1);
    const offset = base + SALT + batch * (PACKAGE_SIZE + TAG);
    const lastPlain = Math.min(PACKAGE_SIZE, plain - upTo * PACKAGE_SIZE);
    const buffer = free.pop() ?? new Uint8Array(BATCH * (PACKAGE_SIZE + TAG));
    const bytes = await stored.read(offset, (upTo - batch) * (PACKAGE_SIZE + TAG) + lastPlain + TAG, buffer);
    const jobs: Promise<ArrayBuffer>[] = [];
    for (let p = batch; p <= upTo; p++) {
      const at = (p - batch) * (PACKAGE_SIZE + TAG);
      const size = Math.min(PACKAGE_SIZE, plain - p * PACKAGE_SIZE) + TAG;
      jobs.push(
        crypto.subtle.decrypt(
          { name: "AES-GCM", iv: nonce(p, p === count - 1) },
          key,
          bytes.subarray(at, at + size) as Uint8Array<ArrayBuffer>,
        ),
      );
    }
    let opened: ArrayBuffer[];
    try {
      opened = await settled(jobs);
    } catch {
      throw new TamperedError();
    }
    free.push(buffer);
    // Each package's plaintext goes out as it is: joining them into one larger piece cost more (a fresh
    // megabyte and its copy) than the extra writes to the connection (measured: ~15% of a GET's CPU).
    const pieces: Uint8Array[] = [];
    for (const [i, plaintext] of opened.entries()) {
      const packageStart = (batch + i) * PACKAGE_SIZE;
      const piece = new Uint8Array(plaintext).subarray(
        Math.max(0, from - packageStart),
        Math.min(plaintext.byteLength, to - packageStart),
      );
      if (piece.length) pieces.push(piece);
    }
    return pieces;
  };
  let next = first;
  const ahead: Promise<Uint8Array[]>[] = [];
  const fill = () => {
    while (next <= last && ahead.length < READ_AHEAD) {
      ahead.push(openBatch(next));
      next += BATCH;
    }
  };
  try {
    fill();
    while (ahead.length) {
      const pieces = await ahead.shift()!;
      fill();
      yield* pieces;
    }
  } finally {
    // Batches read ahead for a reader that stopped: their failures have nobody to report to.
    for (const pending of ahead) pending.catch(() => {});
  }
}
