/**
 * HTTP details MinIO's clients rely on, over a raw connection where the client matters: "100 Continue"
 * comes only once a request is authenticated and allowed (a refused client is answered before it sends its
 * body), an empty Expect is no expectation; and through the AWS SDK v3, an empty Content-MD5 is
 * InvalidDigest and a Content-Encoding list is kept as sent.
 */
import assert from "node:assert/strict";
import { CreateBucketCommand, HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { signHeaders, UNSIGNED_PAYLOAD } from "../../server/lib/s3/sigv4.ts";
import { childText, parseXml } from "../../server/lib/s3/xml.ts";
import { startSdkStorage } from "./sdk_client.ts";

const encoder = new TextEncoder();

/** One request on a fresh connection: the head, then the body only after "100 Continue" when asked to wait. */
async function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array,
  waitForContinue: boolean,
): Promise<{ interim?: number; status: number; text: string }> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const received: number[] = [];
  const buffer = new Uint8Array(65536);
  /** Reads one response head (and what follows it, as far as it has arrived). */
  const nextResponse = async (): Promise<{ status: number; length: number; rest: string }> => {
    while (true) {
      const text = new TextDecoder().decode(new Uint8Array(received));
      const end = text.indexOf("\r\n\r\n");
      if (end >= 0) {
        received.splice(0, encoder.encode(text.slice(0, end + 4)).length);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)![1]), length, rest: text.slice(end + 4) };
      }
      const n = await conn.read(buffer);
      if (n === null) throw new Error(`connection closed after ${JSON.stringify(text)}`);
      received.push(...buffer.subarray(0, n));
    }
  };
  try {
    const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    await conn.write(encoder.encode(`${lines.join("\r\n")}\r\n\r\n`));
    let interim: number | undefined;
    if (waitForContinue) {
      const first = await nextResponse();
      if (first.status !== 100) return { status: first.status, text: first.rest };
      interim = 100;
    }
    await conn.write(body);
    const final = await nextResponse();
    // A short body arrives with its head or right after it.
    let text = final.rest;
    if (text === "" && final.length > 0) {
      const n = await conn.read(buffer);
      text = n ? new TextDecoder().decode(buffer.subarray(0, n)) : "";
    }
    return { interim, status: final.status, text };
  } finally {
    conn.close();
  }
}

Deno.test("Expect: 100-continue is answered only once the request is authenticated and allowed", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "uploads" }));
    const body = encoder.encode("the body of the upload");
    const url = f.root.url({ bucket: "uploads", key: "dossier/été 😀 +%#?.txt" });
    const sign = async (secretKey: string, extra: Record<string, string> = {}) => ({
      ...(await signHeaders({
        method: "PUT",
        url,
        headers: { "content-length": String(body.length) },
        payloadHash: UNSIGNED_PAYLOAD,
        credentials: { accessKey: f.storage.root.accessKey, secretKey },
        region: "us-east-1",
        service: "s3",
      })).headers,
      ...extra,
    });
    const expect = { expect: "100-continue" };

    const anonymous = await exchange(
      url,
      "PUT",
      { "content-length": String(body.length), ...expect },
      body,
      true,
    );
    assert.deepEqual([anonymous.interim, anonymous.status], [undefined, 403], "refused before the body");
    assert.equal(
      childText(parseXml(anonymous.text.slice(anonymous.text.indexOf("<"))), "Code"),
      "AccessDenied",
    );

    const wrongKey = await exchange(url, "PUT", await sign("not-the-secret-key", expect), body, true);
    assert.deepEqual([wrongKey.interim, wrongKey.status], [undefined, 403], "refused before the body");
    assert.match(wrongKey.text, /SignatureDoesNotMatch/);

    const signed = await exchange(url, "PUT", await sign(f.storage.root.secretKey, expect), body, true);
    assert.deepEqual([signed.interim, signed.status], [100, 200]);
    const got = await f.root.send({ method: "GET", bucket: "uploads", key: "dossier/été 😀 +%#?.txt" });
    assert.equal(await got.text(), "the body of the upload");

    const empty = await exchange(
      url,
      "PUT",
      await sign(f.storage.root.secretKey, { expect: "" }),
      body,
      false,
    );
    assert.equal(empty.status, 200, "an empty Expect is no expectation (MinIO ignores it)");
    const unknown = await exchange(
      url,
      "PUT",
      await sign(f.storage.root.secretKey, { expect: "magic" }),
      body,
      true,
    );
    assert.equal(unknown.status, 417, "an expectation the server cannot meet");
  } finally {
    await f.close();
  }
});

Deno.test("an empty Content-MD5 is InvalidDigest; Content-Encoding is kept as sent", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "headers" }));
    for (const md5 of ["", "not base64!", "AAAA"]) {
      const res = await f.root.send({
        method: "PUT",
        bucket: "headers",
        key: "digest.txt",
        headers: { "content-md5": md5 },
        body: "payload",
        allow: [400],
      });
      assert.equal(res.status, 400, JSON.stringify(md5));
      assert.equal(childText(parseXml(await res.text()), "Code"), "InvalidDigest", JSON.stringify(md5));
    }
    const missing = await f.root.send({ method: "HEAD", bucket: "headers", key: "digest.txt", allow: [404] });
    assert.equal(missing.status, 404, "nothing was stored");

    await f.sdk.send(
      new PutObjectCommand({
        Bucket: "headers",
        Key: "page.html",
        Body: "<p>",
        ContentEncoding: "deflate, gzip",
      }),
    );
    const head = await f.sdk.send(new HeadObjectCommand({ Bucket: "headers", Key: "page.html" }));
    assert.equal(head.ContentEncoding, "deflate, gzip");
  } finally {
    await f.close();
  }
});
