/**
 * A streaming ZIP writer (APPNOTE 6.3.x): entries are stored (no compression, so the writer never waits on
 * a compressor and objects that are already compressed do not grow), each followed by a data descriptor
 * carrying the CRC-32 computed as the bytes pass. ZIP64 records are written for entries of 4 GiB or more,
 * offsets past 4 GiB and more than 65,534 entries. Memory holds the central directory only (about 100
 * bytes per entry), never an entry's data.
 *
 *   const body = zipStream(entries);   // entries: AsyncIterable<ZipEntry>
 *   return new Response(body, { headers: { "content-type": "application/zip" } });
 */
import { crc32 } from "node:zlib";

export interface ZipEntry {
  /** Path inside the archive ("/"-separated; a trailing "/" makes a directory entry). */
  name: string;
  modified: Date;
  /** Opens the entry's bytes and their exact length; called when the entry's turn comes. */
  open(): Promise<{ size: number; body: ReadableStream<Uint8Array> | null }>;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const FLAGS = 0x0808; // bit 3: sizes and CRC in a data descriptor; bit 11: UTF-8 names

/** A little-endian record builder. */
class Bytes {
  readonly #view: DataView;
  readonly bytes: Uint8Array;
  #at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.#view = new DataView(this.bytes.buffer);
  }
  u16(v: number) {
    this.#view.setUint16(this.#at, v, true);
    this.#at += 2;
    return this;
  }
  u32(v: number) {
    this.#view.setUint32(this.#at, v >>> 0, true);
    this.#at += 4;
    return this;
  }
  u64(v: number) {
    this.#view.setBigUint64(this.#at, BigInt(v), true);
    this.#at += 8;
    return this;
  }
  raw(b: Uint8Array) {
    this.bytes.set(b, this.#at);
    this.#at += b.length;
    return this;
  }
}

/** MS-DOS date and time (local fields are taken in UTC: archives carry no zone). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * A relative path that extracts inside the folder it is extracted into, on any system: backslashes are
 * separators too (Windows tools read them so), and no segment is empty, a drive ("C:"), or made only of
 * dots and spaces (Windows drops trailing dots and spaces, so ".. " would climb out there).
 */
export function safeEntryName(name: string): string {
  const isDir = /[/\\]$/.test(name);
  const parts = name.replace(/^[A-Za-z]:/, "").split(/[/\\]/).filter((p) =>
    !/^[. ]*$/.test(p) && !/^[A-Za-z]:$/.test(p)
  );
  return parts.join("/") + (isDir && parts.length ? "/" : "");
}

/** `name`, or when an earlier entry took it, "name (2).ext", "name (3).ext"…: no entry hides another. */
function uniqueName(name: string, taken: Set<string>): string {
  let unique = name;
  const dot = name.lastIndexOf(".");
  const cut = dot > name.lastIndexOf("/") + 1 ? dot : name.length;
  for (let n = 2; taken.has(unique); n++) unique = `${name.slice(0, cut)} (${n})${name.slice(cut)}`;
  taken.add(unique);
  return unique;
}

interface Written {
  name: Uint8Array;
  isDir: boolean;
  crc: number;
  size: number;
  offset: number;
  when: { time: number; date: number };
}

function localHeader(entry: Written, zip64: boolean): Uint8Array {
  const extra = zip64 ? 20 : 0;
  const b = new Bytes(30 + entry.name.length + extra)
    .u32(0x04034b50).u16(zip64 ? 45 : 20).u16(FLAGS).u16(0).u16(entry.when.time).u16(entry.when.date)
    .u32(0).u32(zip64 ? MAX32 : 0).u32(zip64 ? MAX32 : 0).u16(entry.name.length).u16(extra).raw(entry.name);
  // A ZIP64 extra field in the local header tells streaming readers the descriptor has 8-byte sizes.
  if (zip64) b.u16(0x0001).u16(16).u64(0).u64(0);
  return b.bytes;
}

function dataDescriptor(entry: Written, zip64: boolean): Uint8Array {
  const b = new Bytes(zip64 ? 24 : 16).u32(0x08074b50).u32(entry.crc);
  return (zip64 ? b.u64(entry.size).u64(entry.size) : b.u32(entry.size).u32(entry.size)).bytes;
}

function centralHeader(entry: Written, limit: number): Uint8Array {
  const bigSize = entry.size >= limit, bigOffset = entry.offset >= limit;
  const extraFields = (bigSize ? 16 : 0) + (bigOffset ? 8 : 0);
  const extra = extraFields ? 4 + extraFields : 0;
  const b = new Bytes(46 + entry.name.length + extra)
    .u32(0x02014b50).u16(0x031e).u16(bigSize || bigOffset ? 45 : 20).u16(FLAGS).u16(0).u16(entry.when.time)
    .u16(entry.when.date)
    .u32(entry.crc).u32(bigSize ? MAX32 : entry.size).u32(bigSize ? MAX32 : entry.size)
    .u16(entry.name.length).u16(extra).u16(0).u16(0).u16(0)
    .u32((entry.isDir ? 0o40755 : 0o100644) * 0x10000)
    .u32(bigOffset ? MAX32 : entry.offset).raw(entry.name);
  if (extra) {
    b.u16(0x0001).u16(extraFields);
    if (bigSize) b.u64(entry.size).u64(entry.size);
    if (bigOffset) b.u64(entry.offset);
  }
  return b.bytes;
}

function endRecords(count: number, cdOffset: number, cdSize: number, limit: number): Uint8Array {
  const zip64 = count >= MAX16 || cdOffset >= limit || cdSize >= limit;
  const parts: Uint8Array[] = [];
  if (zip64) {
    const end64At = cdOffset + cdSize;
    parts.push(
      new Bytes(56).u32(0x06064b50).u64(44).u16(45).u16(45).u32(0).u32(0).u64(count).u64(count).u64(cdSize)
        .u64(cdOffset).bytes,
      new Bytes(20).u32(0x07064b50).u32(0).u64(end64At).u32(1).bytes,
    );
  }
  parts.push(
    new Bytes(22).u32(0x06054b50).u16(0).u16(0).u16(Math.min(count, MAX16)).u16(Math.min(count, MAX16))
      .u32(Math.min(cdSize, MAX32)).u32(Math.min(cdOffset, MAX32)).u16(0).bytes,
  );
  return concat(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

/**
 * The archive as a byte stream, pulled as the reader consumes it (backpressure reaches each entry's source).
 * `zip64Above` lowers the 4 GiB threshold for ZIP64 records (tests exercise them without 4 GiB of data).
 */
export function zipStream(
  entries: AsyncIterable<ZipEntry>,
  options: { zip64Above?: number } = {},
): ReadableStream<Uint8Array> {
  const limit = Math.min(options.zip64Above ?? MAX32, MAX32);
  const encoder = new TextEncoder();
  const iterator = entries[Symbol.asyncIterator]();
  const written: Written[] = [];
  const names = new Set<string>();
  let offset = 0;
  let current: {
    entry: Written;
    zip64: boolean;
    reader: ReadableStreamDefaultReader<Uint8Array> | null;
    expected: number;
  } | null = null;
  let done = false;
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    offset += bytes.length;
    controller.enqueue(bytes);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return controller.close();
      if (current?.reader) {
        const { value, done: finished } = await current.reader.read();
        if (!finished) {
          current.entry.crc = crc32(value, current.entry.crc);
          current.entry.size += value.length;
          return emit(controller, value);
        }
        if (current.entry.size !== current.expected) {
          throw new Error(
            `${
              new TextDecoder().decode(current.entry.name)
            }: expected ${current.expected} bytes, got ${current.entry.size}`,
          );
        }
      }
      if (current) {
        emit(controller, dataDescriptor(current.entry, current.zip64));
        current = null;
      }
      const next = await iterator.next();
      if (next.done) {
        const cdOffset = offset;
        const central = concat(written.map((w) => centralHeader(w, limit)));
        emit(controller, central);
        emit(controller, endRecords(written.length, cdOffset, central.length, limit));
        done = true;
        return;
      }
      const safe = safeEntryName(next.value.name);
      // Nothing left of the name, or a folder already there: skipped.
      if (!safe || (safe.endsWith("/") && names.has(safe))) return;
      const name = uniqueName(safe, names);
      const { size, body } = await next.value.open();
      const entry: Written = {
        name: encoder.encode(name),
        isDir: name.endsWith("/"),
        crc: 0,
        size: 0,
        offset,
        when: dosDateTime(next.value.modified),
      };
      const zip64 = size >= limit;
      written.push(entry);
      current = {
        entry,
        zip64,
        reader: entry.isDir ? (await body?.cancel(), null) : body?.getReader() ?? null,
        expected: entry.isDir ? 0 : size,
      };
      emit(controller, localHeader(entry, zip64));
    },
    async cancel(reason) {
      await current?.reader?.cancel(reason).catch(() => {});
      await iterator.return?.();
    },
  }, { highWaterMark: 0 });
}
