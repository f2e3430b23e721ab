import assert from "node:assert/strict";
import { signedChunkStream, signingKey } from "../../s3/sigv4.ts";
import { decodeChunked } from "./body.ts";

const signing = { signingKey: signingKey("secret", "20261122", "us-east-1", "s3"), amzDate: "20261122T000000Z", scope: "20261122/us-east-1/s3/aws4_request", seedSignature: "0".repeat(64) };

async function encoded(data: Uint8Array): Promise<Uint8Array> {
  const stream = signedChunkStream(ReadableStream.from([data]), signing);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Delivers bytes in small pieces, as a socket does. */
const inPieces = (bytes: Uint8Array, size = 7000) => ReadableStream.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size)));

Deno.test("aws-chunked bodies decode to the exact bytes however the network splits them", async () => {
  const data = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) & 0xff);
  const decoded = decodeChunked(inPieces(await encoded(data)), { signing, trailer: false, decodedLength: data.length });
  assert.deepEqual(new Uint8Array(await new Response(decoded).arrayBuffer()), data);
});

Deno.test("a tampered chunk fails the stream with SignatureDoesNotMatch before it ends", async () => {
  const data = new Uint8Array(2 * 1024 * 1024).fill(5);
  const bytes = await encoded(data);
  bytes[bytes.length - 200] ^= 1; // inside the last data chunk
  const decoded = decodeChunked(inPieces(bytes), { signing, trailer: false, decodedLength: data.length });
  await assert.rejects(new Response(decoded).arrayBuffer(), (error: Error & { code?: string }) => error.code === "SignatureDoesNotMatch");
});
