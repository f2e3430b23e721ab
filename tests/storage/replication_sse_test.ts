/**
 * Replication of encrypted objects between two embedded storage servers sharing a key store: SSE-S3 versions
 * arrive readable and encrypted again by the target; SSE-C versions are not queued (only their key opens them).
 */
import assert from "node:assert/strict";
import { getObject, putObject } from "../../server/lib/s3/ops/objects.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { customerKeyHeaders } from "../s3/sse_helpers.ts";
import { addRule, client, ROOT, statusOf, versionedBucket } from "./replication_helpers.ts";
import { eventually } from "../eventually.ts";

Deno.test("replication of encrypted objects: SSE-S3 arrives readable and encrypted again on the target; SSE-C is not queued", async () => {
  const kms = `replication-key:${new Uint8Array(32).fill(7).toBase64()}`;
  const dirs = [
    await Deno.makeTempDir({ prefix: "deck-repl-" }),
    await Deno.makeTempDir({ prefix: "deck-repl-" }),
  ];
  const target = await startEmbeddedStorage({
    dataDir: dirs[0],
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
    kmsSecretKey: kms,
  });
  const source = await startEmbeddedStorage({
    dataDir: dirs[1],
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
    kmsSecretKey: kms,
  });
  const src = client(source.url), dst = client(target.url);
  try {
    await versionedBucket(dst, "sealed-copies");
    await versionedBucket(src, "sealed");
    await addRule(src, "sealed", target.url, "sealed-copies", {});
    const put = await putObject(src, "sealed", "secret.txt", "confidential words", {
      headers: { "x-amz-server-side-encryption": "AES256" },
    });
    await eventually(
      "the encrypted object on the target",
      async () => (await statusOf(src, "sealed", "secret.txt")) === "COMPLETED",
    );
    const copy = await getObject(dst, "sealed-copies", "secret.txt", { versionId: put.versionId });
    assert.equal(
      await copy.text(),
      "confidential words",
      "the target holds the plaintext the client wrote, not the source's sealed bytes",
    );
    assert.equal(
      copy.headers.get("x-amz-server-side-encryption"),
      "AES256",
      "and encrypts it at rest itself",
    );

    await putObject(src, "sealed", "customer.txt", "only my key", { headers: customerKeyHeaders(3) });
    const head = await getObject(src, "sealed", "customer.txt", { headers: customerKeyHeaders(3) });
    assert.equal(await head.text(), "only my key");
    assert.equal(
      head.headers.get("x-amz-replication-status"),
      null,
      "an SSE-C object is not queued: the server cannot open it",
    );
  } finally {
    await source.close();
    await target.close();
    for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
