import assert from "node:assert/strict";
import { signedChunkStream, signingKey } from "../../lib/s3/sigv4.ts";
import { piecesOf } from "../fs/pieces.ts";
import { decodeChunked } from "./body.ts";

const signing = {
  signingKey: signingKey("secret", "20261122", "us-east-1", "s3"),
  amzDate: "20261122T000000Z",
  scope: "20261122/us-east-1/s3/aws4_request",
  seedSignature: "0".repeat(64),
};

async function encoded(data: Uint8Array): Promise<Uint8Array> {
  const stream = signedChunkStream(ReadableStream.from([data]), signing);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Delivers bytes in small pieces, as a socket does. */
const inPieces = (bytes: Uint8Array, size = 7000) =>
  ReadableStream.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size)),
  );

Deno.test("aws-chunked bodies decode to the exact bytes however the network splits them", async () => {
  const data = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) & 0xff);
  const decoded = decodeChunked(inPieces(await encoded(data)), { signing, decodedLength: data.length });
  assert.deepEqual(new Uint8Array(await new Response(decoded).arrayBuffer()), data);
});

Deno.test("a tampered chunk fails the stream with SignatureDoesNotMatch before it ends", async () => {
  const data = new Uint8Array(2 * 1024 * 1024).fill(5);
  const bytes = await encoded(data);
  bytes[bytes.length - 200] ^= 1; // inside the last data chunk
  const decoded = decodeChunked(inPieces(bytes), { signing, decodedLength: data.length });
  await assert.rejects(
    new Response(decoded).arrayBuffer(),
    (error: Error & { code?: string }) => error.code === "SignatureDoesNotMatch",
  );
});

/** A byte stream, as Deno's request bodies are, delivering the bytes in small pieces. */
function byteSource(bytes: Uint8Array, size = 5000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at += size));
    },
  });
}

Deno.test("byte-stream bodies decode through reused buffers (BYOB on both sides) to the exact bytes", async () => {
  const data = new Uint8Array(2 * 1024 * 1024 + 333).map((_, i) => (i * 7 + 3) & 0xff);
  const decoded = decodeChunked(byteSource(await encoded(data)), { signing, decodedLength: data.length });
  const out = new Uint8Array(data.length);
  let at = 0;
  for await (const piece of piecesOf(decoded)) {
    out.set(piece, at); // pieces are views into a reused buffer: copy before asking for more
    at += piece.length;
  }
  assert.equal(at, data.length);
  assert.deepEqual(out, data);
});
