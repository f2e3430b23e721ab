/**
 * S2 streams decompressed: the framing klauspost/compress's s2 writes (Snappy's framing format with S2's own
 * stream identifier), which minio-go's PutObjectsSnowball compresses its archives with and MinIO's untar
 * reads. A stream of Snappy's own framing is read too (S2 blocks are a superset of Snappy's).
 *
 * A stream is chunks of [type, 3-byte little-endian length, body]: the stream identifier, compressed blocks
 * and stored blocks (each after a masked CRC-32C of its decompressed bytes), and skippable chunks. A block
 * is its decompressed length (uvarint) then literals and copies; S2 adds the "repeat" copy, a copy at the
 * previous copy's offset, written as a one-byte-offset copy with offset 0. Memory holds one chunk and its
 * block, at most a few MiB, never the stream.
 */
import { createChecksum } from "../s3/checksums.ts";

export class S2Error extends Error {}

const STREAM_IDENTIFIER = 0xff;
const COMPRESSED = 0x00;
const STORED = 0x01;
/** The largest decompressed block S2 writes (its maxBlockSize); a larger claim is a broken stream. */
const MAX_BLOCK = 4 << 20;
const IDENTIFIERS = ["S2sTwO", "sNaPpY"];

/** Bytes that open an S2 (or Snappy) framed stream: the stream identifier chunk. */
export const S2_HEAD_LENGTH = 10;

export function isS2Stream(head: Uint8Array): boolean {
  if (head.length < S2_HEAD_LENGTH) return false;
  if (head[0] !== STREAM_IDENTIFIER || head[1] !== 6 || head[2] !== 0 || head[3] !== 0) return false;
  return IDENTIFIERS.includes(String.fromCharCode(...head.subarray(4, 10)));
}

/** Snappy framing's masked CRC-32C, which guards against checksumming data that embeds CRCs. */
function maskedCrc(bytes: Uint8Array): number {
  const hasher = createChecksum("CRC32C");
  hasher.update(bytes);
  const crc = new DataView(hasher.digest().buffer).getUint32(0);
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

/** Exact reads from a stream; null only when it ends before the first byte. */
class Bytes {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #parts: Uint8Array[] = [];
  #size = 0;
  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  async take(n: number): Promise<Uint8Array | null> {
    if (n === 0) return new Uint8Array(0);
    while (this.#size < n) {
      const next = await this.#reader.read();
      if (next.done) {
        if (this.#size === 0) return null;
        throw new S2Error("unexpected EOF");
      }
      this.#parts.push(next.value);
      this.#size += next.value.length;
    }
    const first = this.#parts[0];
    if (first.length >= n) {
      this.#parts[0] = first.subarray(n);
      this.#size -= n;
      return first.subarray(0, n);
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const part = this.#parts[0];
      const used = Math.min(part.length, n - filled);
      out.set(part.subarray(0, used), filled);
      filled += used;
      if (used === part.length) this.#parts.shift();
      else this.#parts[0] = part.subarray(used);
    }
    this.#size -= n;
    return out;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel().catch(() => {});
  }
}

/** A block's uvarint length prefix: [value, bytes read]. */
function uvarint(src: Uint8Array): [number, number] {
  let value = 0;
  for (let i = 0; i < 5 && i < src.length; i++) {
    value += (src[i] & 0x7f) * 2 ** (7 * i);
    if (src[i] < 0x80) return [value, i + 1];
  }
  throw new S2Error("corrupt block length");
}

/** Little-endian unsigned integer of `n` bytes at `at`. */
function littleEndian(src: Uint8Array, at: number, n: number): number {
  if (at + n > src.length) throw new S2Error("corrupt block");
  let value = 0;
  for (let i = n - 1; i >= 0; i--) value = value * 256 + src[at + i];
  return value;
}

/** One compressed block decompressed. */
export function decodeBlock(src: Uint8Array): Uint8Array {
  const [length, start] = uvarint(src);
  if (length > MAX_BLOCK) throw new S2Error("block too large");
  const dst = new Uint8Array(length);
  let d = 0;
  let s = start;
  let offset = 0;
  while (s < src.length) {
    const tag = src[s];
    const m = tag >> 2;
    let copyLength: number;
    if ((tag & 3) === 0) {
      // A literal: 1 + m bytes, or m - 59 bytes of length follow.
      const extra = m < 60 ? 0 : m - 59;
      const literal = (extra ? littleEndian(src, s + 1, extra) : m) + 1;
      s += 1 + extra;
      if (literal > length - d || literal > src.length - s) throw new S2Error("corrupt literal");
      dst.set(src.subarray(s, s + literal), d);
      d += literal;
      s += literal;
      continue;
    } else if ((tag & 3) === 1) {
      const given = ((tag & 0xe0) << 3) | littleEndian(src, s + 1, 1);
      copyLength = (m & 7) + 4;
      s += 2;
      if (given === 0) {
        // S2's repeat: the previous offset again; lengths 5-7 say how many more length bytes follow.
        const code = m & 7;
        if (code === 5) (copyLength = littleEndian(src, s, 1) + 8, s += 1);
        else if (code === 6) (copyLength = littleEndian(src, s, 2) + 260, s += 2);
        else if (code === 7) (copyLength = littleEndian(src, s, 3) + 65540, s += 3);
      } else offset = given;
    } else {
      const width = (tag & 3) === 2 ? 2 : 4;
      offset = littleEndian(src, s + 1, width);
      copyLength = m + 1;
      s += 1 + width;
    }
    if (offset <= 0 || offset > d || copyLength > length - d) throw new S2Error("corrupt copy");
    if (offset >= copyLength) dst.copyWithin(d, d - offset, d - offset + copyLength);
    else for (let i = 0; i < copyLength; i++) dst[d + i] = dst[d - offset + i]; // overlapping: a run
    d += copyLength;
  }
  if (d !== length) throw new S2Error("corrupt block: short");
  return dst;
}

/** The decompressed bytes of an S2 (or Snappy) framed stream; fails with S2Error when it is broken. */
export function s2Decompressed(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const bytes = new Bytes(stream);
  let identified = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const header = await bytes.take(4);
        if (!header) {
          if (!identified) throw new S2Error("empty stream");
          return controller.close();
        }
        const type = header[0];
        const size = littleEndian(header, 1, 3);
        const body = await bytes.take(size) ?? new Uint8Array(0);
        if (body.length < size) throw new S2Error("unexpected EOF");
        if (type === STREAM_IDENTIFIER) {
          if (size !== 6 || !IDENTIFIERS.includes(String.fromCharCode(...body))) {
            throw new S2Error("bad stream identifier");
          }
          identified = true;
          continue;
        }
        if (!identified) throw new S2Error("no stream identifier");
        if (type >= 0x80) continue; // skippable: padding, index
        if ((type !== COMPRESSED && type !== STORED) || size < 4) throw new S2Error(`bad chunk type ${type}`);
        const data = type === STORED ? body.subarray(4) : decodeBlock(body.subarray(4));
        if (data.length > MAX_BLOCK) throw new S2Error("block too large");
        if (maskedCrc(data) !== littleEndian(body, 0, 4)) throw new S2Error("checksum mismatch");
        if (data.length === 0) continue;
        return controller.enqueue(data.slice());
      }
    },
    cancel: () => bytes.cancel(),
  }, { highWaterMark: 0 });
}
