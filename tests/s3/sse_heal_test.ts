/**
 * Heal of encrypted and compressed objects over the admin API: SSE-S3/SSE-KMS objects are decrypted and
 * hashed against their sealed ETag, SSE-C objects are checked by the digest of their encrypted bytes
 * (without the customer's key), compressed objects are decompressed; intact ones are ok, a flipped byte in
 * each kind is reported corrupt.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { serviceRestart, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { startStorage } from "./fixture.ts";
import { dataFileOf, flipByte, heal } from "./heal_helpers.ts";
import { customerKeyHeaders, KMS_KEY, pattern } from "./sse_helpers.ts";

type Item = s3.HealResultItem;

const states = (items: Item[]) =>
  Object.fromEntries(
    items.filter((i) => i.type === "object").map((i) => [i.object, i.after.drives?.[0].state]),
  );

Deno.test("heal: encrypted objects are verified (SSE-C by its encrypted digest), compressed ones too; flipped bytes are corrupt", async () => {
  const f = await startStorage({ kmsSecretKey: KMS_KEY });
  try {
    await setConfigKV(f.root, "compression extensions=.txt");
    await serviceRestart(f.root);
    await s3.makeBucket(f.root, "vault");
    const ssec = customerKeyHeaders(5);
    const put = async (key: string, body: Uint8Array | string, headers: Record<string, string> = {}) => {
      const res = await f.root.send({
        method: "PUT",
        bucket: "vault",
        key,
        body: typeof body === "string" ? new TextEncoder().encode(body) : body,
        headers,
      });
      assert.equal(res.status, 200, await res.text());
    };
    await put("s3.bin", pattern(700 * 1024, 1), { "x-amz-server-side-encryption": "AES256" });
    await put("kms-inline.bin", pattern(1000, 2), { "x-amz-server-side-encryption": "aws:kms" });
    await put("c.bin", pattern(500 * 1024, 3), ssec);
    await put("squeezed.txt", "compress me, please\n".repeat(20_000));
    const created = await f.root.send({
      method: "POST",
      bucket: "vault",
      key: "parts.bin",
      query: { uploads: "" },
      headers: { "x-amz-server-side-encryption": "AES256" },
    });
    const id = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())![1];
    const p1 = await s3.uploadPart(f.root, "vault", "parts.bin", id, 1, pattern(5 * 1024 * 1024, 4));
    const p2 = await s3.uploadPart(f.root, "vault", "parts.bin", id, 2, pattern(1000, 5));
    await s3.completeMultipartUpload(f.root, "vault", "parts.bin", id, [{ partNumber: 1, etag: p1 }, {
      partNumber: 2,
      etag: p2,
    }]);

    const intact = await heal(f.root, "vault");
    assert.deepEqual(states(intact), {
      "c.bin": "ok",
      "kms-inline.bin": "ok",
      "parts.bin": "ok",
      "s3.bin": "ok",
      "squeezed.txt": "ok",
    }, JSON.stringify(intact, null, 1));
    assert.match(intact.find((i) => i.object === "c.bin")!.detail, /customer key/);
    assert.equal(
      intact.find((i) => i.object === "parts.bin")!.detail,
      "",
      "the multipart ETag was verified over the decrypted parts",
    );

    for (const key of ["s3.bin", "c.bin", "squeezed.txt", "parts.bin"]) {
      await flipByte(await dataFileOf(f.dataDir, "vault", key), 70_000 % 2000 + 300);
    }
    const damaged = await heal(f.root, "vault");
    assert.deepEqual(states(damaged), {
      "c.bin": "corrupt",
      "kms-inline.bin": "ok",
      "parts.bin": "corrupt",
      "s3.bin": "corrupt",
      "squeezed.txt": "corrupt",
    }, JSON.stringify(damaged, null, 1));
  } finally {
    await f.close();
  }
});
