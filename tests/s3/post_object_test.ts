/**
 * Browser-form uploads (S3 PostObject) of binary files of every size, over real HTTP: forms signed by the AWS
 * SDK's createPresignedPost, sent as FormData (as browsers encode them), as a body with a Content-Length and
 * as a stream in small pieces (chunked transfer encoding), plain and SSE-S3 encrypted. Every stored object is
 * read back and compared byte for byte. A form whose file outgrew the first read of the body used to fail
 * with MalformedPOSTRequest: the field reader left its loop at the file part, which ended the form.
 */
import assert from "node:assert/strict";
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { startStorage } from "./fixture.ts";
import { KMS_KEY, sameBytes } from "./sse_helpers.ts";

const KiB = 1024, MiB = 1024 * KiB;
const BOUNDARY = "deck-form-boundary-7MA4YWxkTrZu0gW";
const enc = new TextEncoder();

/**
 * Bytes 0-255 over and over, with every few KiB a run that looks like the form's delimiter without being one
 * (RFC 2046 forbids the delimiter itself inside a part), so near-misses land on every read edge.
 */
function binaryBody(size: number): Uint8Array {
  const out = new Uint8Array(size).map((_, i) => i & 0xff);
  const lookalikes = [
    `\r\n--${BOUNDARY.slice(0, -1)}`, // the delimiter less its last byte
    `--${BOUNDARY}--\r\n`, // a closing boundary line without the CRLF that must come first
    `\r\n-${BOUNDARY}\r\n`,
    `\r\r\n\n--${BOUNDARY.toUpperCase()}`,
    "\r\n\r\n\r\n--",
  ].map((text) => enc.encode(text));
  for (let at = 1000, n = 0; at + 64 < size; at += 4093, n++) {
    const run = lookalikes[n % lookalikes.length];
    out.set(run, at);
    // The bytes around a run never complete it into the real delimiter (a CRLF before, the boundary's end after).
    out[at - 1] = out[at + run.length] = 0;
  }
  return out;
}

/** A multipart/form-data body with the fields, then the file part (as browsers must send it last). */
function formBody(
  fields: Record<string, string>,
  file: Uint8Array,
  filename = "data.bin",
  tail = `\r\n--${BOUNDARY}--\r\n`,
): Uint8Array {
  let head = "";
  for (const [name, value] of Object.entries(fields)) {
    head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const parts = [enc.encode(head), file, enc.encode(tail)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

/** The body in pieces of `size` bytes: fetch sends it with chunked transfer encoding, in many reads. */
function inPieces(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

Deno.test("PostObject: binary files of 0 B to 5 MiB arrive byte for byte, however the form is sent", async (t) => {
  const f = await startStorage({ kmsSecretKey: KMS_KEY });
  const sdk = new S3Client({
    endpoint: f.storage.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: f.storage.root.accessKey, secretAccessKey: f.storage.root.secretKey },
  });
  const stored = async (key: string) =>
    new Uint8Array(
      await (await sdk.send(new GetObjectCommand({ Bucket: "forms", Key: key }))).Body!
        .transformToByteArray(),
    );
  const presign = (key: string, extra: Record<string, string> = {}) =>
    createPresignedPost(sdk, {
      Bucket: "forms",
      Key: key,
      Fields: extra,
      Conditions: Object.entries(extra).map(([k, v]) => ["eq", `$${k}`, v]),
      Expires: 600,
    });
  const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", body, headers, redirect: "manual" });
  const formType = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "forms" }));
    const sizes = [0, 1, 100 * KiB, 5 * MiB];

    await t.step("a form with a Content-Length", async () => {
      for (const size of sizes) {
        const file = binaryBody(size);
        const { url, fields } = await presign(`whole-${size}`);
        const res = await post(url, formBody(fields, file) as Uint8Array<ArrayBuffer>, formType);
        assert.equal(res.status, 204, `${size} bytes: ${await res.text()}`);
        sameBytes(await stored(`whole-${size}`), file, `${size} bytes`);
      }
    });

    await t.step(
      "a form streamed in odd-sized pieces, so delimiters and look-alikes straddle reads",
      async () => {
        for (const size of sizes) {
          const file = binaryBody(size);
          const { url, fields } = await presign(`streamed-${size}`);
          const res = await post(url, inPieces(formBody(fields, file), 7919), formType);
          assert.equal(res.status, 204, `${size} bytes: ${await res.text()}`);
          sameBytes(await stored(`streamed-${size}`), file, `${size} bytes`);
        }
      },
    );

    await t.step(
      "FormData encoded by the runtime, as a browser sends it, plain and SSE-S3 encrypted",
      async () => {
        for (const size of sizes) {
          const file = binaryBody(size);
          for (const sse of [false, true]) {
            const key = `formdata-${sse ? "sse-" : ""}${size}`;
            const { url, fields } = await presign(
              key,
              sse ? { "x-amz-server-side-encryption": "AES256" } : {},
            );
            const form = new FormData();
            for (const [name, value] of Object.entries(fields)) form.append(name, value);
            form.append("file", new Blob([file as Uint8Array<ArrayBuffer>]), "data.bin");
            const res = await post(url, form);
            assert.equal(res.status, 204, `${key}: ${await res.text()}`);
            sameBytes(await stored(key), file, key);
            const head = await sdk.send(new HeadObjectCommand({ Bucket: "forms", Key: key }));
            assert.equal(head.ContentLength, size);
            assert.equal(head.ServerSideEncryption, sse ? "AES256" : undefined);
          }
        }
      },
    );

    await t.step("a form cut off inside the file is refused and stores nothing", async () => {
      const { url, fields } = await presign("cut");
      const res = await post(
        url,
        inPieces(formBody(fields, binaryBody(300 * KiB), "data.bin", ""), 65536),
        formType,
      );
      assert.equal(res.status, 400);
      assert.match(await res.text(), /<Code>MalformedPOSTRequest<\/Code>/);
      await assert.rejects(
        sdk.send(new HeadObjectCommand({ Bucket: "forms", Key: "cut" })),
        (error: Error) => error.name === "NotFound",
      );
    });
  } finally {
    sdk.destroy();
    await f.close();
  }
});
