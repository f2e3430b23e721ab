/**
 * Request bodies as the signature says they are: plain bodies checked against their declared SHA-256 and
 * Content-MD5 while streaming, and aws-chunked bodies decoded with every chunk signature verified
 * (minio-protocol §1.4–1.5). Failures surface as S3 errors when the stream is read, before anything commits.
 */
import { createHash } from "node:crypto";
import { chunkStringToSign, constantTimeEqual, signatureOf, trailerStringToSign } from "../../s3/sigv4.ts";
import { StoreError } from "../fs/store.ts";

const MAX_CHUNK = 16 * 1024 * 1024;

/** Passes bytes through and fails at the end when their SHA-256 or MD5 differs from what was declared. */
export function verifyDigests(body: ReadableStream<Uint8Array>, expect: { sha256Hex?: string; md5Base64?: string }): ReadableStream<Uint8Array> {
  const sha = expect.sha256Hex ? createHash("sha256") : null;
  const md5 = expect.md5Base64 ? createHash("md5") : null;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sha?.update(chunk);
        md5?.update(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        if (sha && sha.digest("hex") !== expect.sha256Hex) {
          throw new StoreError("XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.", 400);
        }
        if (md5 && md5.digest("base64") !== expect.md5Base64) {
          throw new StoreError("BadDigest", "The Content-Md5 you specified did not match what we received.", 400);
        }
      },
    }),
  );
}

/** Buffered reading of a byte stream by lines and exact lengths, without re-copying what it holds. */
class ByteReader {
  #chunks: Uint8Array[] = [];
  #size = 0;
  #done = false;
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async #fill(): Promise<boolean> {
    if (this.#done) return false;
    const { value, done } = await this.reader.read();
    if (done) {
      this.#done = true;
      return false;
    }
    if (value.length) {
      this.#chunks.push(value);
      this.#size += value.length;
    }
    return true;
  }

  #take(length: number): Uint8Array {
    if (this.#chunks[0]?.length >= length) {
      const first = this.#chunks[0];
      const out = first.subarray(0, length);
      if (first.length === length) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(length);
      this.#size -= length;
      return out;
    }
    const out = new Uint8Array(length);
    let at = 0;
    while (at < length) {
      const first = this.#chunks[0];
      const n = Math.min(first.length, length - at);
      out.set(first.subarray(0, n), at);
      at += n;
      if (n === first.length) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
    }
    this.#size -= length;
    return out;
  }

  /** Offset of the first CRLF in the buffered bytes, or -1. */
  #findCrlf(): number {
    let offset = 0;
    let previous = -1;
    for (const chunk of this.#chunks) {
      for (let i = 0; i < chunk.length; i++) {
        if (previous === 13 && chunk[i] === 10) return offset + i - 1;
        previous = chunk[i];
      }
      offset += chunk.length;
    }
    return -1;
  }

  /** Reads up to "\r\n" (excluded); null at a clean end of stream. */
  async line(limit = 4096): Promise<string | null> {
    while (true) {
      const at = this.#findCrlf();
      if (at !== -1) {
        const text = new TextDecoder().decode(this.#take(at));
        this.#take(2);
        return text;
      }
      if (this.#size > limit) throw malformed("chunk header too long");
      if (!(await this.#fill())) {
        if (this.#size === 0) return null;
        throw malformed("body ended inside a chunk header");
      }
    }
  }

  /**
   * The next `length` bytes as the pieces that arrived (views, no copy), so a large chunk never has to be
   * assembled in memory.
   */
  async *pieces(length: number): AsyncGenerator<Uint8Array> {
    let left = length;
    while (left > 0) {
      if (this.#size === 0 && !(await this.#fill())) throw incomplete();
      const n = Math.min(left, this.#chunks[0].length);
      yield this.#take(n);
      left -= n;
    }
  }

  async exact(length: number): Promise<Uint8Array> {
    while (this.#size < length) if (!(await this.#fill())) throw incomplete();
    return length === 0 ? new Uint8Array(0) : this.#take(length);
  }

  async rest(): Promise<Uint8Array> {
    while (await this.#fill());
    return this.#size === 0 ? new Uint8Array(0) : this.#take(this.#size);
  }
}

const malformed = (detail: string) => new StoreError("IncompleteBody", `Malformed aws-chunked body: ${detail}`, 400);
const incomplete = () => new StoreError("IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header.", 400);
const badChunk = () => new StoreError("SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided. Check your key and signing method.", 403);

export interface ChunkSigning {
  signingKey: Uint8Array;
  amzDate: string;
  scope: string;
  seedSignature: string;
}

/**
 * Decodes an aws-chunked body. With `signing`, each chunk's signature is verified against the previous one
 * (and the trailer signature when `trailer`); without it, chunks are unsigned (STREAMING-UNSIGNED-PAYLOAD-TRAILER).
 * The decoded length must equal `decodedLength`.
 */
export function decodeChunked(
  body: ReadableStream<Uint8Array>,
  options: { signing?: ChunkSigning; trailer: boolean; decodedLength: number },
): ReadableStream<Uint8Array> {
  const input = new ByteReader(body.getReader());
  let previous = options.signing?.seedSignature ?? "";
  let total = 0;
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (finished) return controller.close();
      const header = await input.line();
      if (header === null) throw malformed("missing final chunk");
      const [sizeText, ...extensions] = header.split(";");
      if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText.trim())) throw malformed("bad chunk size");
      const size = parseInt(sizeText.trim(), 16);
      if (size > MAX_CHUNK) throw malformed("chunk larger than 16 MiB");
      // Pieces pass on as they arrive, hashed on the way; a bad chunk signature errors the stream before
      // it ends, and consumers only commit a body whose stream ended cleanly.
      const hash = options.signing ? createHash("sha256") : null;
      for await (const piece of input.pieces(size)) {
        hash?.update(piece);
        controller.enqueue(piece);
      }
      if (options.signing) {
        const declared = extensions.find((e) => e.startsWith("chunk-signature="))?.slice(16) ?? "";
        const expected = signatureOf(options.signing.signingKey, chunkStringToSign(options.signing.amzDate, options.signing.scope, previous, hash!.digest("hex")));
        if (!constantTimeEqual(expected, declared)) throw badChunk();
        previous = expected;
      }
      total += size;
      if (total > options.decodedLength) throw malformed("more data than x-amz-decoded-content-length");
      if (size > 0) {
        if ((await input.line()) !== "") throw malformed("chunk not followed by CRLF");
        return;
      }
      finished = true;
      if (total !== options.decodedLength) throw incomplete();
      if (options.trailer) await readTrailer(input, options.signing, previous);
      controller.close();
    },
    cancel(reason) {
      return body.cancel(reason).catch(() => {});
    },
  });
}

/** Reads (and for signed bodies verifies) the trailer after the final chunk. */
async function readTrailer(input: ByteReader, signing: ChunkSigning | undefined, previous: string): Promise<void> {
  const text = new TextDecoder().decode(await input.rest());
  const lines = text.split(/\r?\n/).filter((l) => l !== "");
  const signatureLine = lines.find((l) => l.startsWith("x-amz-trailer-signature:"));
  const trailerLines = lines.filter((l) => l !== signatureLine);
  if (signing) {
    const declared = signatureLine?.slice("x-amz-trailer-signature:".length).trim() ?? "";
    const expected = signatureOf(signing.signingKey, trailerStringToSign(signing.amzDate, signing.scope, previous, trailerLines.join("\n") + "\n"));
    if (!constantTimeEqual(expected, declared)) throw badChunk();
  }
}
