/**
 * A tar writer (POSIX ustar; a pax record carries a name that ustar cannot hold: longer than its fields, or
 * not ASCII), in two shapes over the same headers:
 *
 *   tarBlob(files)      the object browser's: a Blob made of header bytes and the chosen File objects
 *                       themselves, so the browser reads each file from disk while the request is sent and
 *                       the page holds only the headers (about 1.5 KiB a file), never file contents. XHR
 *                       sends it with a Content-Length and upload progress; fetch cannot stream a request
 *                       body over HTTP/1.1 in Chromium, which the console often runs.
 *   tarStream(entries)  a ReadableStream that opens each entry as the reader gets to it (tests, benchmark).
 */

const BLOCK = 512;
const encoder = new TextEncoder();

export interface TarSource {
  /** Path inside the archive, "/"-separated. */
  name: string;
  size: number;
  modified?: Date;
  /** The entry's bytes: exactly `size` of them. */
  open(): ReadableStream<Uint8Array>;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0");
}

function put(block: Uint8Array, at: number, value: string | Uint8Array, width: number): void {
  const bytes = typeof value === "string" ? encoder.encode(value) : value;
  block.set(bytes.subarray(0, width), at);
}

/** One ustar header block. */
function header(name: string, size: number, mtime: number, flag: string): Uint8Array<ArrayBuffer> {
  const block = new Uint8Array(BLOCK);
  put(block, 0, name, 100);
  put(block, 100, octal(0o644, 8), 8);
  put(block, 108, octal(0, 8), 8);
  put(block, 116, octal(0, 8), 8);
  put(block, 124, octal(size, 12), 12);
  put(block, 136, octal(mtime, 12), 12);
  block.fill(0x20, 148, 156);
  put(block, 156, flag, 1);
  put(block, 257, "ustar\u000000", 8);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(block, 148, `${octal(sum, 7)}\u0000 `, 8);
  return block;
}

/** A pax record "<length> path=<name>\n", whose length counts itself. */
function paxPath(name: string): Uint8Array {
  const body = ` path=${name}\n`;
  const bodyBytes = encoder.encode(body).length;
  let length = bodyBytes + 1;
  while (String(length).length + bodyBytes !== length) length = String(length).length + bodyBytes;
  return encoder.encode(`${length}${body}`);
}

/** Header blocks for an entry: a pax header first when the name does not fit ustar's ASCII field. */
export function entryHeader(name: string, size: number, modified = new Date(0)): Uint8Array<ArrayBuffer>[] {
  const mtime = Math.max(0, Math.floor(modified.getTime() / 1000));
  const fits = /^[\x20-\x7e]*$/.test(name) && name.length <= 100;
  if (fits) return [header(name, size, mtime, "0")];
  const record = paxPath(name);
  const short = `PaxHeaders/${name.replace(/[^\x20-\x7e]/g, "_")}`.slice(0, 99);
  return [header(short, record.length, mtime, "x"), padded(record), header(short, size, mtime, "0")];
}

function padded(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.ceil(bytes.length / BLOCK) * BLOCK);
  out.set(bytes);
  return out;
}

/** Zero bytes that pad an entry of `size` to a whole block. */
export function entryPadding(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The archive's end: two zero blocks. */
export const END_OF_ARCHIVE = new Uint8Array(BLOCK * 2);

/** The archive's exact size for entries of these name and sizes (for a Content-Length). */
export function tarSize(entries: Iterable<{ name: string; size: number }>): number {
  let total = END_OF_ARCHIVE.length;
  for (const entry of entries) {
    for (const block of entryHeader(entry.name, 0)) total += block.length;
    total += entry.size + entryPadding(entry.size).length;
  }
  return total;
}

/** The archive as a stream, pulling each entry's bytes only when the reader gets to them. */
export function tarStream(
  entries: AsyncIterable<TarSource> | Iterable<TarSource>,
): ReadableStream<Uint8Array> {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for await (const entry of entries) {
      for (const block of entryHeader(entry.name, entry.size, entry.modified)) yield block;
      let written = 0;
      const reader = entry.open().getReader();
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        written += value.length;
        if (written > entry.size) throw new Error(`${entry.name} grew while it was archived`);
        yield value;
      }
      if (written !== entry.size) throw new Error(`${entry.name} changed size while it was archived`);
      const pad = entryPadding(entry.size);
      if (pad.length) yield pad;
    }
    yield END_OF_ARCHIVE;
  }
  const iterator = chunks();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  }, { highWaterMark: 0 });
}

/** The archive as a Blob over the files themselves (nothing is read until the Blob is sent). */
export function tarBlob(files: { name: string; file: Blob; modified?: Date }[]): Blob {
  const parts: BlobPart[] = [];
  for (const { name, file, modified } of files) {
    parts.push(...entryHeader(name, file.size, modified), file);
    const pad = entryPadding(file.size);
    if (pad.length) parts.push(pad);
  }
  parts.push(END_OF_ARCHIVE);
  return new Blob(parts, { type: "application/x-tar" });
}
