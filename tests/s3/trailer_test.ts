/**
 * The signed-trailer payload mode (STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER, minio-protocol §1.5), built
 * by hand from the signing primitives: minio-go and other SDKs send it over plain HTTP; the JavaScript SDK
 * only sends the unsigned form (covered in sdk_test.ts).
 */
import assert from "node:assert/strict";
import { checksumOf } from "../../server/lib/s3/checksums.ts";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import {
  chunkStringToSign,
  sha256Hex,
  signatureOf,
  signHeaders,
  STREAMING_PAYLOAD_TRAILER,
  trailerStringToSign,
} from "../../server/lib/s3/sigv4.ts";
import { startStorage } from "./fixture.ts";

interface TrailerPut {
  data: Uint8Array;
  trailer: string;
  announced?: string;
  breakTrailerSignature?: boolean;
}

/** PUTs `data` aws-chunked in 3 signed chunks with `trailer` ("name:value") signed after them. */
async function putWithTrailer(
  endpoint: string,
  credentials: { accessKey: string; secretKey: string },
  path: string,
  put: TrailerPut,
): Promise<Response> {
  const url = new URL(endpoint + path);
  const pieces = [put.data.subarray(0, 10), put.data.subarray(10, 20), put.data.subarray(20)];
  const signed = await signHeaders({
    method: "PUT",
    url,
    headers: {
      "content-encoding": "aws-chunked",
      "x-amz-decoded-content-length": String(put.data.length),
      "x-amz-trailer": put.announced ?? put.trailer.split(":")[0],
    },
    payloadHash: STREAMING_PAYLOAD_TRAILER,
    credentials,
    region: "us-east-1",
    service: "s3",
  });
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  let previous = signed.signature;
  for (const piece of [...pieces, new Uint8Array(0)]) {
    previous = signatureOf(
      signed.signingKey,
      chunkStringToSign(signed.amzDate, signed.scope, previous, sha256Hex(piece)),
    );
    parts.push(enc.encode(`${piece.length.toString(16)};chunk-signature=${previous}\r\n`), piece);
    if (piece.length) parts.push(enc.encode("\r\n"));
  }
  let trailerSignature = signatureOf(
    signed.signingKey,
    trailerStringToSign(signed.amzDate, signed.scope, previous, `${put.trailer}\n`),
  );
  if (put.breakTrailerSignature) {
    trailerSignature = trailerSignature.replace(/^./, (c) => (c === "0" ? "1" : "0"));
  }
  parts.push(enc.encode(`${put.trailer}\r\nx-amz-trailer-signature:${trailerSignature}\r\n\r\n`));
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (body.set(p, at), at += p.length);
  return await fetch(url, { method: "PUT", headers: signed.headers, body });
}

Deno.test("signed trailers: the checksum after the chunks is verified, stored and returned", async () => {
  const f = await startStorage();
  try {
    await makeBucket(f.root, "trailers");
    const data = new TextEncoder().encode("signed chunks followed by a signed checksum trailer");
    const good = checksumOf("CRC32C", data);
    const ok = await putWithTrailer(f.storage.url, f.storage.root, "/trailers/good", {
      data,
      trailer: `x-amz-checksum-crc32c:${good}`,
    });
    assert.equal(ok.status, 200, await ok.text());
    assert.equal(ok.headers.get("x-amz-checksum-crc32c"), good);
    const head = await f.root.send({
      method: "HEAD",
      bucket: "trailers",
      key: "good",
      headers: { "x-amz-checksum-mode": "ENABLED" },
    });
    assert.equal(head.headers.get("x-amz-checksum-crc32c"), good);

    const wrong = await putWithTrailer(f.storage.url, f.storage.root, "/trailers/wrong", {
      data,
      trailer: `x-amz-checksum-crc32c:${checksumOf("CRC32C", "x")}`,
    });
    assert.equal(wrong.status, 400);
    assert.match(await wrong.text(), /<Code>XAmzContentChecksumMismatch<\/Code>/);

    const forged = await putWithTrailer(f.storage.url, f.storage.root, "/trailers/forged", {
      data,
      trailer: `x-amz-checksum-crc32c:${good}`,
      breakTrailerSignature: true,
    });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /<Code>SignatureDoesNotMatch<\/Code>/);

    const unannounced = await putWithTrailer(f.storage.url, f.storage.root, "/trailers/unannounced", {
      data,
      trailer: `x-amz-checksum-sha1:${checksumOf("SHA1", data)}`,
      announced: "x-amz-checksum-crc32",
    });
    assert.equal(unannounced.status, 400);
    assert.match(await unannounced.text(), /<Code>BadRequest<\/Code>/);

    const listed = await f.root.text({ method: "GET", bucket: "trailers", query: { "list-type": 2 } });
    assert.match(listed, /<Key>good<\/Key>/);
    assert.doesNotMatch(listed, /wrong|forged|unannounced/, "refused uploads leave nothing behind");
  } finally {
    await f.close();
  }
});
