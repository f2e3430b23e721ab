import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as s3 from "../../server/lib/s3/mod.ts";
import { signedChunkStream, signHeaders, STREAMING_PAYLOAD } from "../../server/lib/s3/sigv4.ts";
import { rejectsWith, startStorage } from "./fixture.ts";

Deno.test("objects: put, get, ranges, head, metadata, copy, conditional requests, delete", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "docs");
    const put = await s3.putObject(f.root, "docs", "reports/2026 q1+final.txt", "hello, storage", {
      contentType: "text/plain",
      userMetadata: { owner: "alice" },
      tags: { team: "ops" },
    });
    assert.equal(put.etag, s3Md5("hello, storage"));
    const head = await s3.headObject(f.root, "docs", "reports/2026 q1+final.txt");
    assert.equal(head.size, 14);
    assert.equal(head.contentType, "text/plain");
    assert.deepEqual(head.userMetadata, { owner: "alice" });
    assert.equal(head.tagCount, 1);
    const range = await s3.getObject(f.root, "docs", "reports/2026 q1+final.txt", { range: [7, 13] });
    assert.equal(range.status, 206);
    assert.equal(range.headers.get("content-range"), "bytes 7-13/14");
    assert.equal(await range.text(), "storage");
    const suffix = await s3.getObject(f.root, "docs", "reports/2026 q1+final.txt", {
      headers: { range: "bytes=-3" },
    });
    assert.equal(await suffix.text(), "age");
    await rejectsWith(
      s3.getObject(f.root, "docs", "reports/2026 q1+final.txt", { range: [100, 200] }),
      "InvalidRange",
    );
    const notModified = await f.root.send({
      method: "GET",
      bucket: "docs",
      key: "reports/2026 q1+final.txt",
      headers: { "if-none-match": `"${put.etag}"` },
      allow: [304],
    });
    assert.equal(notModified.status, 304);
    await notModified.body?.cancel();
    await rejectsWith(
      s3.getObject(f.root, "docs", "reports/2026 q1+final.txt", { headers: { "if-match": '"nope"' } }),
      "PreconditionFailed",
    );

    const copy = await s3.copyObject(f.root, { bucket: "docs", key: "reports/2026 q1+final.txt" }, {
      bucket: "docs",
      key: "copy.txt",
    });
    assert.equal(copy.etag, put.etag);
    assert.deepEqual((await s3.headObject(f.root, "docs", "copy.txt")).userMetadata, { owner: "alice" });
    await s3.copyObject(f.root, { bucket: "docs", key: "copy.txt" }, { bucket: "docs", key: "copy2.txt" }, {
      metadataDirective: "REPLACE",
      replace: { contentType: "application/json" },
    });
    assert.equal((await s3.headObject(f.root, "docs", "copy2.txt")).contentType, "application/json");

    await s3.deleteObject(f.root, "docs", "copy.txt");
    await rejectsWith(s3.headObject(f.root, "docs", "copy.txt"), "NoSuchKey");
    await rejectsWith(s3.getObject(f.root, "docs", "missing.txt"), "NoSuchKey");
    await rejectsWith(s3.putObject(f.root, "docs", "k".repeat(1025), "x"), "KeyTooLongError");
    await rejectsWith(s3.putObject(f.root, "nobucket", "a", "x"), "NoSuchBucket");

    const multi = await s3.deleteObjects(f.root, "docs", [{ key: "copy2.txt" }, { key: "never-existed" }]);
    assert.equal(multi.deleted.length, 2);
    assert.equal(multi.errors.length, 0);
  } finally {
    await f.close();
  }
});

Deno.test("objects: a signed stream sent with chunked transfer encoding (as Deno's fetch sends streams) is received whole", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "chunked");
    const size = 3 * 1024 * 1024 + 5;
    const data = new Uint8Array(size).map((_, i) => (i * 13 + (i >> 16)) & 0xff);
    const url = f.root.url({ bucket: "chunked", key: "te.bin" });
    const signed = await signHeaders({
      method: "PUT",
      url,
      headers: { "content-encoding": "aws-chunked", "x-amz-decoded-content-length": String(size) },
      payloadHash: STREAMING_PAYLOAD,
      credentials: f.storage.root,
      region: f.root.region,
      service: "s3",
    });
    const body = signedChunkStream(new Blob([data]).stream(), {
      ...signed,
      seedSignature: signed.signature,
      chunkSize: 64 * 1024,
    });
    const res = await fetch(
      url,
      { method: "PUT", headers: signed.headers, body, duplex: "half" } as RequestInit,
    );
    await res.body?.cancel();
    assert.equal(res.status, 200);
    const stored = await s3.getObject(f.root, "chunked", "te.bin");
    assert.deepEqual(new Uint8Array(await stored.arrayBuffer()), data);
  } finally {
    await f.close();
  }
});

Deno.test("objects: streamed upload of 20 MiB and multipart with the composite ETag", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "big");
    const size = 20 * 1024 * 1024;
    const chunk = new Uint8Array(1024 * 1024).fill(0x5a);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const put = await s3.putObject(f.root, "big", "stream.bin", stream, { size });
    assert.equal((await s3.headObject(f.root, "big", "stream.bin")).size, size);
    // Large bodies are hashed off the request thread (fs/spill.ts): the ETag must still be the MD5 of every byte.
    const whole = createHash("md5");
    for (let i = 0; i < size / chunk.length; i++) whole.update(chunk);
    assert.equal(put.etag, whole.digest("hex"));
    // A refused streamed upload is answered before its body is read; the client reports the server's error.
    let refusedSent = 0;
    const refused = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (refusedSent >= 64 * chunk.length) return controller.close();
        refusedSent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const stranger = f.as(f.storage.root.accessKey, "not-the-root-secret");
    await rejectsWith(
      s3.putObject(stranger, "big", "refused.bin", refused, { size: 64 * 1024 * 1024 }),
      "SignatureDoesNotMatch",
    );
    await rejectsWith(s3.headObject(f.root, "big", "refused.bin"), "NoSuchKey");

    const uploadId = await s3.createMultipartUpload(f.root, "big", "parts.bin", {
      contentType: "application/x-test",
    });
    const part1 = new Uint8Array(5 * 1024 * 1024).fill(1);
    const part2 = new Uint8Array(1234).fill(2);
    const e1 = await s3.uploadPart(f.root, "big", "parts.bin", uploadId, 1, part1);
    const e2 = await s3.uploadPart(f.root, "big", "parts.bin", uploadId, 2, part2);
    assert.equal((await s3.listParts(f.root, "big", "parts.bin", uploadId)).length, 2);
    assert.equal((await s3.listMultipartUploads(f.root, "big")).length, 1);
    await rejectsWith(
      s3.completeMultipartUpload(f.root, "big", "parts.bin", uploadId, [{ partNumber: 2, etag: e2 }, {
        partNumber: 1,
        etag: e1,
      }]),
      "InvalidPartOrder",
    );
    await rejectsWith(
      s3.completeMultipartUpload(f.root, "big", "parts.bin", uploadId, [{
        partNumber: 1,
        etag: "0".repeat(32),
      }]),
      "InvalidPart",
    );
    const done = await s3.completeMultipartUpload(f.root, "big", "parts.bin", uploadId, [{
      partNumber: 1,
      etag: e1,
    }, { partNumber: 2, etag: e2 }]);
    const expected = s3Md5Bytes(concat(Uint8Array.fromHex(e1), Uint8Array.fromHex(e2))) + "-2";
    assert.equal(done.etag, expected);
    const head = await s3.headObject(f.root, "big", "parts.bin");
    assert.equal(head.size, part1.length + part2.length);
    assert.equal(head.contentType, "application/x-test");
    assert.equal((await s3.listMultipartUploads(f.root, "big")).length, 0);
    const small = await s3.createMultipartUpload(f.root, "big", "small.bin");
    const s1 = await s3.uploadPart(f.root, "big", "small.bin", small, 1, new Uint8Array(10));
    const s2 = await s3.uploadPart(f.root, "big", "small.bin", small, 2, new Uint8Array(10));
    await rejectsWith(
      s3.completeMultipartUpload(f.root, "big", "small.bin", small, [{ partNumber: 1, etag: s1 }, {
        partNumber: 2,
        etag: s2,
      }]),
      "EntityTooSmall",
    );
    await s3.abortMultipartUpload(f.root, "big", "small.bin", small);
    await rejectsWith(s3.listParts(f.root, "big", "small.bin", small), "NoSuchUpload");
  } finally {
    await f.close();
  }
});

Deno.test("listing: v2 with delimiter, pagination, start-after and metadata; versions", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "list");
    const keys = ["a.txt", "b/1.txt", "b/2.txt", "b/c/3.txt", "d.txt", "é/unicode.txt"];
    for (const key of keys) await s3.putObject(f.root, "list", key, key, { userMetadata: { k: "v" } });
    const top = await s3.listObjectsV2(f.root, "list", { delimiter: "/" });
    assert.deepEqual(top.objects.map((o) => o.key), ["a.txt", "d.txt"]);
    assert.deepEqual(top.prefixes, ["b/", "é/"]);
    const inB = await s3.listObjectsV2(f.root, "list", { prefix: "b/", delimiter: "/" });
    assert.deepEqual(inB.objects.map((o) => o.key), ["b/1.txt", "b/2.txt"]);
    assert.deepEqual(inB.prefixes, ["b/c/"]);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.listObjectsV2(f.root, "list", { maxKeys: 2, continuationToken: token });
      assert.ok(page.objects.length <= 2);
      seen.push(...page.objects.map((o) => o.key));
      token = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (token);
    assert.deepEqual(seen, keys);
    assert.deepEqual(
      (await s3.listObjectsV2(f.root, "list", { startAfter: "b/c/3.txt" })).objects.map((o) => o.key),
      ["d.txt", "é/unicode.txt"],
    );
    const withMeta = await s3.listObjectsV2(f.root, "list", { prefix: "a", metadata: true });
    assert.equal(withMeta.objects[0].userMetadata?.["K"] ?? withMeta.objects[0].userMetadata?.["k"], "v");

    await s3.putBucketVersioning(f.root, "list", { status: "Enabled" });
    await s3.putObject(f.root, "list", "a.txt", "v2");
    await s3.deleteObject(f.root, "list", "a.txt");
    const versions = await s3.listObjectVersions(f.root, "list", { prefix: "a.txt" });
    assert.equal(versions.versions.length, 3);
    assert.equal(versions.versions[0].isDeleteMarker, true);
    assert.equal(versions.versions[0].isLatest, true);
    assert.equal(versions.versions[2].versionId, "null");
    assert.deepEqual(
      (await s3.listObjectsV2(f.root, "list", { prefix: "a" })).objects,
      [],
      "a delete marker hides the key",
    );
    const v2 = versions.versions[1];
    assert.equal(
      await (await s3.getObject(f.root, "list", "a.txt", { versionId: v2.versionId })).text(),
      "v2",
    );
    await s3.deleteObject(f.root, "list", "a.txt", { versionId: versions.versions[0].versionId });
    assert.equal(
      await (await s3.getObject(f.root, "list", "a.txt")).text(),
      "v2",
      "removing the marker restores the object",
    );
  } finally {
    await f.close();
  }
});

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

import { md5Hex } from "../../server/lib/s3/md5.ts";
const s3Md5 = (text: string) => md5Hex(text);
const s3Md5Bytes = (bytes: Uint8Array) => md5Hex(bytes);
