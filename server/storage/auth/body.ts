/**
 * Request bodies as the signature says they are: plain bodies checked against their declared SHA-256 and
 * Content-MD5 while streaming, and aws-chunked bodies decoded with every chunk signature verified
 * (minio-protocol §1.4–1.5). Failures surface as S3 errors when the stream is read, before anything commits.
 */
import { createHash } from "node:crypto";
import {
  chunkStringToSign,
  constantTimeEqual,
  signatureOf,
  trailerStringToSign,
} from "../../lib/s3/sigv4.ts";
import { piecesOf, readSizeOf, streamOfPieces } from "../fs/pieces.ts";
import { StoreError } from "../core/errors.ts";

const MAX_CHUNK = 16 * 1024 * 1024;

/** Passes bytes through and fails at the end when their SHA-256 or MD5 differs from what was declared. */
export function verifyDigests(
  body: ReadableStream<Uint8Array>,
  expect: { sha256Hex?: string; md5Base64?: string },
): ReadableStream<Uint8Array> {
  return streamOfPieces({
    pieces: () => digestedPieces(body, expect),
    cancel: (reason) => body.cancel(reason),
  });
}

async function* digestedPieces(
  body: ReadableStream<Uint8Array>,
  expect: { sha256Hex?: string; md5Base64?: string },
): AsyncGenerator<Uint8Array> {
  const sha = expect.sha256Hex ? createHash("sha256") : null;
  const md5 = expect.md5Base64 ? createHash("md5") : null;
  for await (const piece of piecesOf(body)) {
    sha?.update(piece);
    md5?.update(piece);
    yield piece;
  }
  if (sha && sha.digest("hex") !== expect.sha256Hex) {
    throw new StoreError(
      "XAmzContentSHA256Mismatch",
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
      400,
    );
  }
  if (md5 && md5.digest("base64") !== expect.md5Base64) {
    throw new StoreError("BadDigest", "The Content-Md5 you specified did not match what we received.", 400);
  }
}

/**
 * Buffered reading of a request body by lines and lengths into one reused buffer. A byte stream (as Deno's
 * request bodies are) is read with a BYOB reader straight into that buffer, so a 1 GiB upload allocates no
 * per-read buffers for the garbage collector to catch up with; other streams are copied in.
 */
class ByteReader {
  readonly #readSize: number;
  #buf: Uint8Array;
  #start = 0;
  #end = 0;
  #done = false;
  readonly #byob: ReadableStreamBYOBReader | null;
  readonly #plain: ReadableStreamDefaultReader<Uint8Array> | null;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#readSize = readSizeOf(body);
    this.#buf = new Uint8Array(Math.max(64 * 1024, 2 * this.#readSize));
    let byob: ReadableStreamBYOBReader | null = null;
    try {
      byob = body.getReader({ mode: "byob" });
    } catch { /* not a byte stream */ }
    this.#byob = byob;
    this.#plain = byob ? null : body.getReader();
  }

  get #available(): number {
    return this.#end - this.#start;
  }

  /** Makes room at the end of the buffer: unread bytes move to the front, the buffer grows if they fill it. */
  #makeRoom(needed: number): void {
    if (this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#buf.length - this.#end >= needed) return;
    const unread = this.#available;
    if (unread + needed > this.#buf.length) {
      const grown = new Uint8Array(Math.max(this.#buf.length * 2, unread + needed));
      grown.set(this.#buf.subarray(this.#start, this.#end));
      this.#buf = grown;
    } else {
      this.#buf.copyWithin(0, this.#start, this.#end);
    }
    this.#start = 0;
    this.#end = unread;
  }

  /** Reads more bytes; false at the end of the stream. Views handed out earlier become invalid. */
  async #fill(): Promise<boolean> {
    if (this.#done) return false;
    if (this.#byob) {
      this.#makeRoom(this.#readSize);
      const view = new Uint8Array(
        this.#buf.buffer as ArrayBuffer,
        this.#end,
        Math.min(this.#readSize, this.#buf.length - this.#end),
      );
      const { value, done } = await this.#byob.read(view);
      // The read transfers the buffer: keep working on the transferred one.
      if (value) this.#buf = new Uint8Array(value.buffer);
      if (done || !value) return !(this.#done = true);
      this.#end += value.byteLength;
      return true;
    }
    const { value, done } = await this.#plain!.read();
    if (done) return !(this.#done = true);
    this.#makeRoom(value.length);
    this.#buf.set(value, this.#end);
    this.#end += value.length;
    return true;
  }

  /** Offset (from the unread start) of the first CRLF, or -1. */
  #findCrlf(): number {
    for (let i = this.#start; i + 1 < this.#end; i++) {
      if (this.#buf[i] === 13 && this.#buf[i + 1] === 10) return i - this.#start;
    }
    return -1;
  }

  /** Reads up to "\r\n" (excluded); null at a clean end of stream. */
  async line(limit = 4096): Promise<string | null> {
    while (true) {
      const at = this.#findCrlf();
      if (at !== -1) {
        const text = new TextDecoder().decode(this.#buf.subarray(this.#start, this.#start + at));
        this.#start += at + 2;
        return text;
      }
      if (this.#available > limit) throw malformed("chunk header too long");
      if (!(await this.#fill())) {
        if (this.#available === 0) return null;
        throw malformed("body ended inside a chunk header");
      }
    }
  }

  /** The next bytes, at most `max`: a view into the buffer, valid until the next read. Null at the end. */
  async piece(max: number): Promise<Uint8Array | null> {
    if (this.#available === 0 && !(await this.#fill())) return null;
    const n = Math.min(max, this.#available);
    const view = this.#buf.subarray(this.#start, this.#start + n);
    this.#start += n;
    return view;
  }

  /** Everything left, as a copy. */
  async rest(): Promise<Uint8Array> {
    while (await this.#fill());
    const out = this.#buf.slice(this.#start, this.#end);
    this.#start = this.#end;
    return out;
  }

  cancel(reason: unknown): Promise<void> {
    return (this.#byob ?? this.#plain!).cancel(reason).catch(() => {});
  }
}

const malformed = (detail: string) =>
  new StoreError("IncompleteBody", `Malformed aws-chunked body: ${detail}`, 400);
const incomplete = () =>
  new StoreError(
    "IncompleteBody",
    "You did not provide the number of bytes specified by the Content-Length HTTP header.",
    400,
  );
const badChunk = () =>
  new StoreError(
    "SignatureDoesNotMatch",
    "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    403,
  );

export interface ChunkSigning {
  signingKey: Uint8Array;
  amzDate: string;
  scope: string;
  seedSignature: string;
}

/** Trailer values of an aws-chunked body, filled in once the body has been read to its end. */
export interface Trailer {
  /** Names the request announced in X-Amz-Trailer (lower case). */
  announced: string[];
  values: Record<string, string>;
}

interface ChunkedOptions {
  signing?: ChunkSigning;
  /** Present when the body ends in a trailer (the -TRAILER payload modes). */
  trailer?: Trailer;
  decodedLength: number;
}

/**
 * Decodes an aws-chunked body. With `signing`, each chunk's signature is verified against the previous one
 * (and the trailer signature when `trailer`); without it, chunks are unsigned (STREAMING-UNSIGNED-PAYLOAD-TRAILER).
 * The decoded length must equal `decodedLength`.
 */
export function decodeChunked(
  body: ReadableStream<Uint8Array>,
  options: ChunkedOptions,
): ReadableStream<Uint8Array> {
  const input = new ByteReader(body);
  return streamOfPieces({
    pieces: () => chunkedPieces(input, options),
    cancel: (reason) => input.cancel(reason),
  });
}

/**
 * The decoded bytes as views into the reader's buffer, hashed on the way. A chunk's bytes are passed on
 * before its signature is checked at its end; a bad signature fails the iteration before it completes, and
 * consumers only commit a body whose iteration completed.
 */
async function* chunkedPieces(input: ByteReader, options: ChunkedOptions): AsyncGenerator<Uint8Array> {
  const signing = options.signing;
  let previous = signing?.seedSignature ?? "";
  let total = 0;
  let complete = false;
  try {
    while (true) {
      const header = await input.line();
      if (header === null) throw malformed("missing final chunk");
      const [sizeText, ...extensions] = header.split(";");
      if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText.trim())) throw malformed("bad chunk size");
      const size = parseInt(sizeText.trim(), 16);
      if (size > MAX_CHUNK) throw malformed("chunk larger than 16 MiB");
      total += size;
      if (total > options.decodedLength) throw malformed("more data than x-amz-decoded-content-length");
      const declared = extensions.find((e) => e.startsWith("chunk-signature="))?.slice(16) ?? "";
      const hash = signing ? createHash("sha256") : null;
      for (let left = size; left > 0;) {
        const piece = await input.piece(left);
        if (!piece) throw incomplete();
        hash?.update(piece);
        left -= piece.length;
        yield piece;
      }
      if (signing) {
        const expected = signatureOf(
          signing.signingKey,
          chunkStringToSign(signing.amzDate, signing.scope, previous, hash!.digest("hex")),
        );
        if (!constantTimeEqual(expected, declared)) throw badChunk();
        previous = expected;
      }
      if (size === 0) break;
      if ((await input.line()) !== "") throw malformed("chunk not followed by CRLF");
    }
    if (total !== options.decodedLength) throw incomplete();
    if (options.trailer) await readTrailer(input, signing, previous, options.trailer);
    complete = true;
  } finally {
    if (!complete) await input.cancel("body not fully read");
  }
}

/**
 * Reads (and for signed bodies verifies) the trailer after the final chunk into `trailer.values`. A name the
 * request did not announce in X-Amz-Trailer is refused as MinIO does (minio-protocol-2 §8.2).
 */
async function readTrailer(
  input: ByteReader,
  signing: ChunkSigning | undefined,
  previous: string,
  trailer: Trailer,
): Promise<void> {
  const text = new TextDecoder().decode(await input.rest());
  const lines = text.split(/\r?\n/).filter((l) => l !== "");
  const signatureLine = lines.find((l) => l.startsWith("x-amz-trailer-signature:"));
  const trailerLines = lines.filter((l) => l !== signatureLine);
  if (signing) {
    const declared = signatureLine?.slice("x-amz-trailer-signature:".length).trim() ?? "";
    const expected = signatureOf(
      signing.signingKey,
      trailerStringToSign(signing.amzDate, signing.scope, previous, trailerLines.join("\n") + "\n"),
    );
    if (!constantTimeEqual(expected, declared)) throw badChunk();
  }
  for (const line of trailerLines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon <= 0 || !trailer.announced.includes(name)) {
      throw new StoreError("BadRequest", "malformed chunked encoding", 400);
    }
    trailer.values[name] = line.slice(colon + 1).trim();
  }
}
