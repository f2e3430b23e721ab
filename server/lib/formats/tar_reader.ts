/**
 * A streaming tar reader (POSIX ustar and pax, with GNU long names), plain, gzip or S2 (minio-go's
 * PutObjectsSnowball compresses with S2; s2_reader.ts), sniffed by its magic bytes as MinIO's untar does. Entries come one at a time and each one's body is read straight from the
 * archive stream, so memory holds one 512-byte header and the chunk in hand, never an entry or the archive.
 *
 *   for await (const entry of readTar(body)) {
 *     if (entry.type === "file") await store(entry.name, entry.body);   // read or cancel it before the next
 *   }
 *
 * A damaged archive (bad header checksum, a body cut short, a corrupt gzip or S2 stream) throws TarError once the
 * entries before the damage have been handed out.
 */

import { isS2Stream, S2_HEAD_LENGTH, s2Decompressed, S2Error } from "./s2_reader.ts";

const BLOCK = 512;
const GZIP_MAGIC = [0x1f, 0x8b, 0x08];

export class TarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TarError";
  }
}

export interface TarEntry {
  /** The name as the archive gives it (pax path, GNU long name, or ustar prefix + name). */
  name: string;
  /** Regular files (and devices, FIFOs: MinIO stores them as files), directories, and the rest (links…). */
  type: "file" | "directory" | "other";
  /** For links: their target (never followed). */
  linkName: string;
  size: number;
  modified: Date;
  /** Exactly `size` bytes; the reader skips whatever is left of it when the next entry is asked for. */
  body: ReadableStream<Uint8Array>;
  /** The whole body at once, without a stream (small files): `size` bytes held in memory. */
  bytes(): Promise<Uint8Array>;
}

/** A byte source over a stream that can hand back exact counts. */
class Source {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #pending: Uint8Array | null = null;
  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /** The next chunk of at most `max` bytes; null at the end of the stream. */
  async chunk(max: number): Promise<Uint8Array | null> {
    let piece = this.#pending;
    this.#pending = null;
    while (!piece || piece.length === 0) {
      // A corrupt gzip stream fails with a TypeError; the body's own failures (its signature) pass as they are.
      const next = await this.#reader.read().catch((error) => {
        if (error instanceof S2Error) throw new TarError(`corrupt S2 stream: ${error.message}`);
        throw error instanceof TypeError ? new TarError(`corrupt gzip stream: ${error.message}`) : error;
      });
      if (next.done) return null;
      piece = next.value;
    }
    if (piece.length > max) {
      this.#pending = piece.subarray(max);
      return piece.subarray(0, max);
    }
    return piece;
  }

  /** Exactly `n` bytes; null when the stream ends before the first one, TarError when it ends midway. */
  async exact(n: number): Promise<Uint8Array | null> {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const piece = await this.chunk(n - filled);
      if (!piece) {
        if (filled === 0) return null;
        throw new TarError("unexpected EOF");
      }
      out.set(piece, filled);
      filled += piece.length;
    }
    return out;
  }

  /** Reads and drops `n` bytes. */
  async skip(n: number): Promise<void> {
    while (n > 0) {
      const piece = await this.chunk(n);
      if (!piece) throw new TarError("unexpected EOF");
      n -= piece.length;
    }
  }

  /** The next `n` bytes (fewer at the end of the stream), left to be read again. */
  async peek(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let filled = 0;
    for (let piece = await this.chunk(n); piece; piece = filled < n ? await this.chunk(n - filled) : null) {
      out.set(piece, filled);
      filled += piece.length;
    }
    const head = out.subarray(0, filled);
    if (filled) this.unread(head);
    return head;
  }

  /** Puts bytes back in front (used once, after sniffing the magic bytes). */
  unread(bytes: Uint8Array): void {
    this.#pending = this.#pending ? concat(bytes, this.#pending) : bytes;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel().catch(() => {});
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Starts with gzip's or S2's magic bytes: decompressed as it streams. */
async function unpacked(stream: ReadableStream<Uint8Array>): Promise<Source> {
  const source = new Source(stream);
  const head = await source.peek(Math.max(GZIP_MAGIC.length, S2_HEAD_LENGTH));
  const gzip = head.length >= GZIP_MAGIC.length && GZIP_MAGIC.every((b, i) => head[i] === b);
  if (!gzip && !isS2Stream(head)) return source;
  const raw = new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      const piece = await source.chunk(64 * 1024);
      if (piece) controller.enqueue(piece.slice());
      else controller.close();
    },
    cancel: () => source.cancel(),
  });
  return new Source(gzip ? raw.pipeThrough(new DecompressionStream("gzip")) : s2Decompressed(raw));
}

const decoder = new TextDecoder();

/** A NUL-terminated field. */
function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return decoder.decode(end < 0 ? field : field.subarray(0, end));
}

/** A numeric field: octal digits, or GNU's base-256 when the first byte's high bit is set. */
function number(block: Uint8Array, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  if (field[0] & 0x80) {
    let value = field[0] & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i];
    return value;
  }
  const digits = text(block, start, length).trim();
  if (digits === "") return 0;
  if (!/^[0-7]+$/.test(digits)) throw new TarError("invalid tar header");
  return parseInt(digits, 8);
}

/** The header's checksum holds: the sum of its bytes with the checksum field read as spaces. */
function checksumHolds(block: Uint8Array): boolean {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i];
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  const stored = number(block, 148, 8);
  return stored === unsigned || stored === signed;
}

/** pax extended records: "<length> <key>=<value>\n", each length counting the whole record. */
function paxRecords(bytes: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const length = space < 0 ? NaN : Number(decoder.decode(bytes.subarray(at, space)));
    if (!Number.isInteger(length) || length <= 0 || at + length > bytes.length) {
      throw new TarError("invalid pax header");
    }
    const record = decoder.decode(bytes.subarray(space + 1, at + length - 1));
    const equals = record.indexOf("=");
    if (equals < 0) throw new TarError("invalid pax header");
    records.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return records;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Metadata bodies (pax records, GNU long names) are small; a huge one is a damaged or hostile archive. */
const MAX_META = 1024 * 1024;

/** The archive's entries in order; ends at the end-of-archive block or the end of the stream. */
export async function* readTar(stream: ReadableStream<Uint8Array>): AsyncGenerator<TarEntry> {
  const source = await unpacked(stream);
  let pax = new Map<string, string>();
  let longName: string | null = null;
  let longLink: string | null = null;
  try {
    while (true) {
      const block = await source.exact(BLOCK);
      if (!block || block.every((b) => b === 0)) return;
      if (!checksumHolds(block)) throw new TarError("invalid tar header");
      const flag = String.fromCharCode(block[156] || 0x30);
      const size = number(block, 124, 12);
      if (flag === "x" || flag === "L" || flag === "K" || flag === "g") {
        if (size > MAX_META) throw new TarError("invalid tar header");
        const data = size > 0 ? await source.exact(size) : new Uint8Array();
        if (!data) throw new TarError("unexpected EOF");
        await source.skip(padding(size));
        if (flag === "x") pax = paxRecords(data);
        if (flag === "L") longName = text(data, 0, data.length);
        if (flag === "K") longLink = text(data, 0, data.length);
        continue; // global pax records describe no entry: MinIO skips them as well
      }
      const ustar = text(block, 257, 6) === "ustar";
      const prefix = ustar ? text(block, 345, 155) : "";
      const shortName = text(block, 0, 100);
      const name = pax.get("path") ?? longName ?? (prefix ? `${prefix}/${shortName}` : shortName);
      const bodySize = pax.has("size") ? Number(pax.get("size")) : size;
      if (!Number.isSafeInteger(bodySize) || bodySize < 0) throw new TarError("invalid tar header");
      const mtime = pax.has("mtime") ? Number(pax.get("mtime")) : number(block, 136, 12);
      const linkName = pax.get("linkpath") ?? longLink ?? text(block, 157, 100);
      pax = new Map();
      longName = longLink = null;
      let left = bodySize;
      const bytes = async () => {
        const all = left === 0 ? new Uint8Array() : await source.exact(left);
        if (!all) throw new TarError("unexpected EOF");
        left = 0;
        return all;
      };
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (left === 0) return controller.close();
          const piece = await source.chunk(Math.min(left, 64 * 1024));
          if (!piece) return controller.error(new TarError("unexpected EOF"));
          left -= piece.length;
          controller.enqueue(piece.slice());
          if (left === 0) controller.close();
        },
      }, { highWaterMark: 0 });
      const modified = new Date(mtime * 1000);
      yield { name, type: typeOf(flag), linkName, size: bodySize, modified, body, bytes };
      await source.skip(left + padding(bodySize));
    }
  } finally {
    await source.cancel();
  }
}

/** Typeflags: 0, NUL and 7 are files, 3/4/6 devices and FIFOs (stored as files, as MinIO does), 5 directories. */
function typeOf(flag: string): TarEntry["type"] {
  if ("07346".includes(flag)) return "file";
  if (flag === "5") return "directory";
  return "other";
}
