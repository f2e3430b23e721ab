/**
 * Compression of multipart uploads (issue 14): an upload whose key or content type qualifies is stored with
 * each part compressed on its own, reads back byte for byte (ranges across part boundaries too), heal
 * verifies its composite ETag over the decompressed parts and reports a flipped byte; keys that do not
 * qualify are stored as sent and encrypted uploads are not compressed; the AWS SDK's multipart Upload
 * round-trips such an object.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { checksumOf } from "../../server/lib/s3/checksums.ts";
import * as s3 from "../../server/lib/s3/mod.ts";
import { serviceRestart, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { startStorage } from "./fixture.ts";
import { dataFileOf, flipByte, heal } from "./heal_helpers.ts";
import { startSdkStorage } from "./sdk_client.ts";
import { KMS_KEY } from "./sse_helpers.ts";

const MiB = 1024 * 1024;

/** Text that compresses well but differs line by line (so each part has its own MD5). */
function text(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  const enc = new TextEncoder();
  let at = 0;
  for (let line = 0; at < size; line++) {
    const piece = enc.encode(
      `${seed}:${String(line).padStart(8, "0")} the quick brown fox jumps over the lazy dog\n`,
    );
    out.set(piece.subarray(0, size - at), at);
    at += piece.length;
  }
  return out;
}

const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest();
const compositeEtag = (parts: Uint8Array[]) =>
  `${createHash("md5").update(Buffer.concat(parts.map(md5))).digest("hex")}-${parts.length}`;
const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

async function upload(
  client: s3.S3Client,
  bucket: string,
  key: string,
  parts: Uint8Array[],
  contentType?: string,
): Promise<string> {
  const id = await s3.createMultipartUpload(client, bucket, key, { contentType });
  const etags: string[] = [];
  for (const [i, part] of parts.entries()) {
    etags.push(await s3.uploadPart(client, bucket, key, id, i + 1, part));
  }
  assert.deepEqual(
    (await s3.listParts(client, bucket, key, id)).map((p) => p.size),
    parts.map((p) => p.length),
    "parts list their sizes as sent",
  );
  return (await s3.completeMultipartUpload(
    client,
    bucket,
    key,
    id,
    etags.map((etag, i) => ({ partNumber: i + 1, etag })),
  )).etag;
}

async function range(
  client: s3.S3Client,
  bucket: string,
  key: string,
  start: number,
  end: number,
): Promise<Uint8Array> {
  const res = await s3.getObject(client, bucket, key, { range: [start, end] });
  assert.equal(res.status, 206);
  return new Uint8Array(await res.arrayBuffer());
}

Deno.test("compression: multipart uploads are stored compressed per part, read back (ranges too) and healed", async () => {
  const f = await startStorage();
  try {
    await setConfigKV(f.root, "compression extensions=.txt mime_types=application/json");
    await serviceRestart(f.root);
    await s3.makeBucket(f.root, "squeeze");
    const parts = [text(5 * MiB, 1), text(5 * MiB + 123, 2), text(700 * 1024 + 5, 3)];
    const whole = concat(parts);

    // A qualifying extension, and a qualifying content type on a key whose extension does not qualify.
    for (const [key, type] of [["log.txt", undefined], ["data.bin", "application/json"]] as const) {
      const etag = await upload(f.root, "squeeze", key, parts, type);
      assert.equal(etag, compositeEtag(parts), "the ETag is the composite of the parts as sent");
      const stored = (await Deno.stat(await dataFileOf(f.dataDir, "squeeze", key))).size;
      assert.ok(stored < whole.length / 5, `${key}: stored ${stored} bytes for ${whole.length}`);
      const head = await s3.headObject(f.root, "squeeze", key);
      assert.equal(head.size, whole.length);
      assert.equal(head.etag, etag);
      const back = new Uint8Array(await (await s3.getObject(f.root, "squeeze", key)).arrayBuffer());
      assert.equal(back.length, whole.length);
      assert.ok(Buffer.from(back).equals(Buffer.from(whole)), `${key} reads back byte for byte`);
    }

    // Ranges: across the first boundary, across both, inside the last part, the last bytes, one byte.
    const b1 = parts[0].length;
    const b2 = b1 + parts[1].length;
    for (
      const [start, end] of [
        [b1 - 100, b1 + 99],
        [b1 - 7, b2 + 7],
        [b2 + 1000, b2 + 5000],
        [whole.length - 10, whole.length - 1],
        [b2, b2],
        [0, 0],
      ]
    ) {
      const got = await range(f.root, "squeeze", "log.txt", start, end);
      assert.ok(
        Buffer.from(got).equals(Buffer.from(whole.subarray(start, end + 1))),
        `bytes=${start}-${end}`,
      );
    }

    // A full-object CRC32 is computed over the parts' bytes as sent, not as stored.
    const created = await f.root.send({
      method: "POST",
      bucket: "squeeze",
      key: "sums.txt",
      query: { uploads: "" },
      headers: { "x-amz-checksum-algorithm": "CRC32", "x-amz-checksum-type": "FULL_OBJECT" },
    });
    const id = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())![1];
    const sumEtags = [
      await s3.uploadPart(f.root, "squeeze", "sums.txt", id, 1, parts[0]),
      await s3.uploadPart(f.root, "squeeze", "sums.txt", id, 2, parts[2]),
    ];
    const done = await s3.completeMultipartUpload(
      f.root,
      "squeeze",
      "sums.txt",
      id,
      sumEtags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
    assert.equal(done.etag, compositeEtag([parts[0], parts[2]]));
    const summed = await s3.getObject(f.root, "squeeze", "sums.txt", {
      headers: { "x-amz-checksum-mode": "ENABLED" },
    });
    assert.equal(
      summed.headers.get("x-amz-checksum-crc32"),
      checksumOf("CRC32", concat([parts[0], parts[2]])),
    );
    await summed.body?.cancel();

    // A key that does not qualify is stored as it came.
    await upload(f.root, "squeeze", "plain.bin", parts.slice(0, 2));
    assert.equal(
      (await Deno.stat(await dataFileOf(f.dataDir, "squeeze", "plain.bin"))).size,
      parts[0].length + parts[1].length,
    );

    const states = (items: s3.HealResultItem[]) =>
      Object.fromEntries(
        items.filter((i) => i.type === "object").map((
          i,
        ) => [i.object, [i.after.drives?.[0].state, i.detail]]),
      );
    const intact = await heal(f.root, "squeeze");
    assert.deepEqual(states(intact), {
      "data.bin": ["ok", ""],
      "log.txt": ["ok", ""],
      "plain.bin": ["ok", ""],
      "sums.txt": ["ok", ""],
    }, "composite ETags verified over the decompressed parts");

    const file = await dataFileOf(f.dataDir, "squeeze", "log.txt");
    await flipByte(file, Math.floor((await Deno.stat(file)).size / 2));
    const damaged = states(await heal(f.root, "squeeze"));
    assert.equal(damaged["log.txt"][0], "corrupt", JSON.stringify(damaged));
    assert.equal(damaged["data.bin"][0], "ok");
  } finally {
    await f.close();
  }
});

Deno.test("compression: the AWS SDK's multipart Upload of a compressible object round-trips", async () => {
  const f = await startSdkStorage();
  const client = f.sdk;
  try {
    await setConfigKV(f.root, "compression extensions=.csv");
    await serviceRestart(f.root);
    await client.send(new CreateBucketCommand({ Bucket: "sdk" }));
    const body = text(11 * MiB + 77, 9);
    await new Upload({
      client,
      params: { Bucket: "sdk", Key: "table.csv", Body: body },
      partSize: 5 * MiB,
      queueSize: 2,
    }).done();
    const head = await client.send(new HeadObjectCommand({ Bucket: "sdk", Key: "table.csv" }));
    assert.equal(head.ContentLength, body.length);
    assert.match(head.ETag ?? "", /-3"$/, "uploaded in three parts");
    const stored = (await Deno.stat(await dataFileOf(f.dataDir, "sdk", "table.csv"))).size;
    assert.ok(stored < body.length / 5, `stored ${stored} bytes for ${body.length}`);
    const back = await (await client.send(new GetObjectCommand({ Bucket: "sdk", Key: "table.csv" }))).Body!
      .transformToByteArray();
    assert.ok(Buffer.from(back).equals(Buffer.from(body)), "reads back byte for byte");
    const at = 5 * MiB - 50;
    const part = await (await client.send(
      new GetObjectCommand({ Bucket: "sdk", Key: "table.csv", Range: `bytes=${at}-${at + 99}` }),
    )).Body!.transformToByteArray();
    assert.ok(
      Buffer.from(part).equals(Buffer.from(body.subarray(at, at + 100))),
      "a range across a part boundary",
    );
  } finally {
    await f.close();
  }
});

Deno.test("compression: an encrypted multipart upload of a qualifying key is not compressed", async () => {
  const f = await startStorage({ kmsSecretKey: KMS_KEY });
  try {
    await setConfigKV(f.root, "compression extensions=.txt");
    await serviceRestart(f.root);
    await s3.makeBucket(f.root, "vault");
    const parts = [text(5 * MiB, 4), text(1000, 5)];
    const created = await f.root.send({
      method: "POST",
      bucket: "vault",
      key: "secret.txt",
      query: { uploads: "" },
      headers: { "x-amz-server-side-encryption": "AES256" },
    });
    const id = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())![1];
    const etags = [
      await s3.uploadPart(f.root, "vault", "secret.txt", id, 1, parts[0]),
      await s3.uploadPart(f.root, "vault", "secret.txt", id, 2, parts[1]),
    ];
    await s3.completeMultipartUpload(
      f.root,
      "vault",
      "secret.txt",
      id,
      etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
    const stored = (await Deno.stat(await dataFileOf(f.dataDir, "vault", "secret.txt"))).size;
    assert.ok(
      stored > parts[0].length + parts[1].length,
      `stored ${stored} bytes: encrypted, not compressed`,
    );
    const back = new Uint8Array(await (await s3.getObject(f.root, "vault", "secret.txt")).arrayBuffer());
    assert.ok(Buffer.from(back).equals(Buffer.from(concat(parts))));
  } finally {
    await f.close();
  }
});
