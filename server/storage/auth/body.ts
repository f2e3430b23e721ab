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

/** Buffered reading of a byte stream by lines and exact lengths. */
class ByteReader {
  #buffer = new Uint8Array(0);
  #done = false;
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async #fill(): Promise<boolean> {
    if (this.#done) return false;
    const { value, done } = await this.reader.read();
    if (done) {
      this.#done = true;
      return false;
    }
    const merged = new Uint8Array(this.#buffer.length + value.length);
    merged.set(this.#buffer, 0);
    merged.set(value, this.#buffer.length);
    this.#buffer = merged;
    return true;
  }

  /** Reads up to "\r\n" (excluded); null at a clean end of stream. */
  async line(limit = 4096): Promise<string | null> {
    while (true) {
      const at = this.#buffer.findIndex((b, i) => b === 13 && this.#buffer[i + 1] === 10);
      if (at !== -1) {
        const text = new TextDecoder().decode(this.#buffer.subarray(0, at));
        this.#buffer = this.#buffer.subarray(at + 2);
        return text;
      }
      if (this.#buffer.length > limit) throw malformed("chunk header too long");
      if (!(await this.#fill())) {
        if (this.#buffer.length === 0) return null;
        throw malformed("body ended inside a chunk header");
      }
    }
  }

  async exact(length: number): Promise<Uint8Array> {
    while (this.#buffer.length < length) if (!(await this.#fill())) throw incomplete();
    const out = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return out;
  }

  async rest(): Promise<Uint8Array> {
    while (await this.#fill());
    const out = this.#buffer;
    this.#buffer = new Uint8Array(0);
    return out;
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
      const data = await input.exact(size);
      if (options.signing) {
        const declared = extensions.find((e) => e.startsWith("chunk-signature="))?.slice(16) ?? "";
        const hash = createHash("sha256").update(data).digest("hex");
        const expected = await signatureOf(options.signing.signingKey, await chunkStringToSign(options.signing.amzDate, options.signing.scope, previous, hash));
        if (!constantTimeEqual(expected, declared)) throw badChunk();
        previous = expected;
      }
      total += size;
      if (total > options.decodedLength) throw malformed("more data than x-amz-decoded-content-length");
      if (size > 0) {
        if ((await input.line()) !== "") throw malformed("chunk not followed by CRLF");
        controller.enqueue(data);
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
    const expected = await signatureOf(signing.signingKey, await trailerStringToSign(signing.amzDate, signing.scope, previous, trailerLines.join("\n") + "\n"));
    if (!constantTimeEqual(expected, declared)) throw badChunk();
  }
}
