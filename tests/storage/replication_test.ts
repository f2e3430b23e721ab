/**
 * Bucket replication between two embedded storage servers started here: puts, overwrites, tags, delete
 * markers and versioned deletes per rule; a target outage and a source killed mid-queue; sync mode; the
 * status read by an independent client (AWS SDK v3). Encrypted objects: replication_sse_test.ts.
 */
import assert from "node:assert/strict";
import { HeadObjectCommand, S3Client as SdkClient } from "@aws-sdk/client-s3";
import { addCannedPolicy, addUser, setPolicy } from "../../server/lib/s3/admin/iam.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import {
  completeMultipartUpload,
  createMultipartUpload,
  uploadPart,
} from "../../server/lib/s3/ops/multipart.ts";
import {
  getObjectLegalHold,
  getObjectTagging,
  putObjectLegalHold,
  putObjectTagging,
} from "../../server/lib/s3/ops/object_lock.ts";
import { deleteObject, getObject, headObject, putObject } from "../../server/lib/s3/ops/objects.ts";
import { BACKGROUND_NICE } from "../../server/storage/core/background_thread.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "../../server/storage/server.ts";
import { freePort, spawnStorage } from "../storage_process.ts";
import { threadsAtNice } from "../threads.ts";
import { addRule, client, ROOT, statusOf, versionedBucket, versionsOf } from "./replication_helpers.ts";
import { eventually } from "../eventually.ts";

Deno.test("replication: puts, overwrites, tags, delete markers and deletes reach the target as each rule says", async () => {
  const dirs = [
    await Deno.makeTempDir({ prefix: "deck-repl-" }),
    await Deno.makeTempDir({ prefix: "deck-repl-" }),
  ];
  const target = await startEmbeddedStorage({
    dataDir: dirs[0],
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
  });
  const source = await startEmbeddedStorage({
    dataDir: dirs[1],
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
  });
  const src = client(source.url), dst = client(target.url);
  try {
    await versionedBucket(dst, "copies");
    await versionedBucket(dst, "tagged-copies");
    await versionedBucket(src, "docs");
    await versionedBucket(src, "tagged");
    await addRule(src, "docs", target.url, "copies", { prefix: "reports/" });
    // Tag filter, no delete-marker replication.
    await addRule(src, "tagged", target.url, "tagged-copies", {
      tags: [{ key: "copy", value: "yes" }],
      deleteMarkerReplication: false,
    });

    // A put with metadata and tags arrives with its version id, as a REPLICA, and the source says COMPLETED.
    const backgroundBefore = threadsAtNice(Deno.pid, BACKGROUND_NICE);
    const v1 = await putObject(src, "docs", "reports/q1.txt", "first", {
      contentType: "text/plain",
      userMetadata: { owner: "ann" },
      tags: { team: "red" },
    });
    await eventually(
      "the first version on the target",
      async () => (await statusOf(src, "docs", "reports/q1.txt")) === "COMPLETED",
    );
    // Sending is background work: it went from a thread of its own at a lower priority than the one serving
    // S3 requests (what `ps -L -o tid,nice` shows an administrator).
    assert.ok(
      [...threadsAtNice(Deno.pid, BACKGROUND_NICE)].some((tid) => !backgroundBefore.has(tid)),
      "a send thread runs at the background priority",
    );
    assert.ok(
      !threadsAtNice(Deno.pid, BACKGROUND_NICE).has(String(Deno.pid)),
      "the thread serving requests keeps its priority",
    );
    const replica = await headObject(dst, "copies", "reports/q1.txt", { versionId: v1.versionId });
    assert.equal(replica.headers.get("x-amz-replication-status"), "REPLICA");
    assert.equal(replica.contentType, "text/plain");
    assert.equal(replica.userMetadata.owner, "ann");
    assert.equal(replica.etag, v1.etag);
    assert.deepEqual(await getObjectTagging(dst, "copies", "reports/q1.txt", v1.versionId), { team: "red" });

    // Outside the rule's prefix: never sent, and no status.
    await putObject(src, "docs", "other/x.txt", "not for the target");
    assert.equal(await statusOf(src, "docs", "other/x.txt"), null);

    // An overwrite is a second version there, in the same order with the same ids.
    const v2 = await putObject(src, "docs", "reports/q1.txt", "second");
    await eventually(
      "the overwrite on the target",
      async () => (await statusOf(src, "docs", "reports/q1.txt", v2.versionId)) === "COMPLETED",
    );
    assert.deepEqual((await versionsOf(dst, "copies", "reports/q1.txt")).map((v) => v.versionId), [
      v2.versionId,
      v1.versionId,
    ]);
    assert.equal(await (await getObject(dst, "copies", "reports/q1.txt")).text(), "second");

    // A tag change is sent again.
    await putObjectTagging(src, "docs", "reports/q1.txt", { team: "blue" }, v2.versionId);
    await eventually(
      "the new tags on the target",
      async () => (await getObjectTagging(dst, "copies", "reports/q1.txt", v2.versionId)).team === "blue",
    );

    // A multipart object keeps its composite ETag.
    const upload = await createMultipartUpload(src, "docs", "reports/big.bin");
    const part = new Uint8Array(5 * 1024 * 1024).fill(7);
    const p1 = await uploadPart(src, "docs", "reports/big.bin", upload, 1, part);
    const p2 = await uploadPart(src, "docs", "reports/big.bin", upload, 2, new Uint8Array([1, 2, 3]));
    const mp = await completeMultipartUpload(src, "docs", "reports/big.bin", upload, [{
      partNumber: 1,
      etag: p1,
    }, { partNumber: 2, etag: p2 }]);
    await eventually(
      "the multipart object on the target",
      async () => (await statusOf(src, "docs", "reports/big.bin")) === "COMPLETED",
    );
    const big = await headObject(dst, "copies", "reports/big.bin");
    assert.equal(big.etag, mp.etag.replace(/"/g, ""));
    assert.equal(big.size, part.length + 3);

    // A delete marker is created there with the same version id.
    const marker = await deleteObject(src, "docs", "reports/q1.txt");
    assert.ok(marker.deleteMarker && marker.versionId);
    await eventually(
      "the delete marker on the target",
      async () => (await versionsOf(dst, "copies", "reports/q1.txt"))[0]?.versionId === marker.versionId,
    );
    assert.ok((await versionsOf(dst, "copies", "reports/q1.txt"))[0].isDeleteMarker);

    // Removing a version removes it there (DeleteReplication).
    await deleteObject(src, "docs", "reports/q1.txt", { versionId: v1.versionId });
    await eventually(
      "the version removed on the target",
      async () =>
        !(await versionsOf(dst, "copies", "reports/q1.txt")).some((v) => v.versionId === v1.versionId),
    );

    // Tag filter: only the tagged object goes; its delete marker stays home (DeleteMarkerReplication off).
    await putObject(src, "tagged", "a.txt", "tagged", { tags: { copy: "yes" } });
    await putObject(src, "tagged", "b.txt", "untagged");
    await eventually(
      "the tagged object on the target",
      async () => (await statusOf(src, "tagged", "a.txt")) === "COMPLETED",
    );
    assert.equal(await statusOf(src, "tagged", "b.txt"), null);
    assert.deepEqual(await versionsOf(dst, "tagged-copies", "b.txt"), []);
    await deleteObject(src, "tagged", "a.txt");
    // Anything sent after the delete has arrived, so a replicated marker would have too.
    await putObject(src, "tagged", "c.txt", "later", { tags: { copy: "yes" } });
    await eventually(
      "a later object on the target",
      async () => (await statusOf(src, "tagged", "c.txt")) === "COMPLETED",
    );
    const after = await versionsOf(dst, "tagged-copies", "a.txt");
    assert.equal(after.length, 1);
    assert.equal(after[0].isDeleteMarker, false);

    // ExistingObjectReplication: what was there before the rule goes too.
    await versionedBucket(dst, "legacy-copies");
    await versionedBucket(src, "legacy");
    const old = await putObject(src, "legacy", "old.txt", "from before");
    assert.equal(await statusOf(src, "legacy", "old.txt"), null);
    await addRule(src, "legacy", target.url, "legacy-copies", { existingObjectReplication: true });
    await eventually(
      "the existing object on the target",
      async () => (await statusOf(src, "legacy", "old.txt")) === "COMPLETED",
    );
    assert.equal((await headObject(dst, "legacy-copies", "old.txt")).versionId, old.versionId);

    // Object lock: a legal hold set afterwards reaches the replica too.
    await makeBucket(dst, "locked-copies", { objectLock: true });
    await makeBucket(src, "locked", { objectLock: true });
    await addRule(src, "locked", target.url, "locked-copies", {});
    const held = await putObject(src, "locked", "contract.pdf", "signed");
    await eventually(
      "the locked object on the target",
      async () => (await statusOf(src, "locked", "contract.pdf")) === "COMPLETED",
    );
    assert.equal(
      await getObjectLegalHold(dst, "locked-copies", "contract.pdf", held.versionId).catch(() => false),
      false,
    );
    await putObjectLegalHold(src, "locked", "contract.pdf", true, held.versionId);
    await eventually(
      "the legal hold on the target",
      () => getObjectLegalHold(dst, "locked-copies", "contract.pdf", held.versionId),
    );
    await putObjectLegalHold(src, "locked", "contract.pdf", false, held.versionId);
    await eventually(
      "the legal hold lifted on the target",
      async () => !(await getObjectLegalHold(dst, "locked-copies", "contract.pdf", held.versionId)),
    );

    // The status as an independent client reads it, and the metrics.
    const sdk = new SdkClient({
      endpoint: source.url,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: ROOT.accessKey, secretAccessKey: ROOT.secretKey },
    });
    const head = await sdk.send(new HeadObjectCommand({ Bucket: "docs", Key: "reports/big.bin" }));
    assert.equal(head.ReplicationStatus, "COMPLETED");
    const onTarget = new SdkClient({
      endpoint: target.url,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: ROOT.accessKey, secretAccessKey: ROOT.secretKey },
    });
    assert.equal(
      (await onTarget.send(new HeadObjectCommand({ Bucket: "copies", Key: "reports/big.bin" })))
        .ReplicationStatus,
      "REPLICA",
    );
    sdk.destroy();
    onTarget.destroy();
    const metrics =
      await (await src.send({ method: "GET", bucket: "docs", query: { "replication-metrics": "" } })).json();
    assert.equal(metrics.pendingReplicationCount, 0);
    assert.equal(metrics.failedReplicationCount, 0);
    assert.ok(
      Object.values(metrics.Stats as Record<string, { replicatedCount: number }>)[0].replicatedCount >= 3,
    );
  } finally {
    await source.close();
    await target.close();
    for (const dir of dirs) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replication: a replica header needs the replication permission; a plain write cannot choose a version id", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deck-repl-" });
  const storage = await startEmbeddedStorage({
    dataDir: dir,
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
  });
  const c = client(storage.url);
  try {
    await versionedBucket(c, "perm-check");
    const id = crypto.randomUUID();
    const replica = { "x-amz-replication-status": "REPLICA", "x-minio-source-replication-request": "true" };
    const plain = await c.empty({
      method: "PUT",
      bucket: "perm-check",
      key: "k",
      query: { versionId: id },
      body: "y",
    });
    assert.notEqual(plain.headers.get("x-amz-version-id"), id);
    assert.equal(await statusOf(c, "perm-check", "k"), null);
    await assert.rejects(
      c.empty({
        method: "PUT",
        bucket: "perm-check",
        key: "k",
        query: { versionId: "not-a-uuid" },
        body: "y",
        headers: replica,
      }),
      /Invalid version id/,
    );
    // A user who may write but not replicate cannot pass a write off as a replica.
    const policy = {
      Version: "2012-10-17",
      Statement: [{
        Effect: "Allow",
        Action: ["s3:PutObject", "s3:GetObject", "s3:DeleteObject"],
        Resource: ["arn:aws:s3:::perm-check/*"],
      }],
    };
    await addUser(c, "writer", "writer-secret-1");
    await addCannedPolicy(c, "writer-only", JSON.stringify(policy));
    await setPolicy(c, ["writer-only"], "writer", false);
    const writer = new S3Client({
      endpoint: storage.url,
      credentials: { accessKey: "writer", secretKey: "writer-secret-1" },
    });
    await putObject(writer, "perm-check", "w", "ordinary");
    await assert.rejects(
      writer.empty({
        method: "PUT",
        bucket: "perm-check",
        key: "w",
        query: { versionId: id },
        body: "y",
        headers: replica,
      }),
      /Access Denied/,
    );
    await assert.rejects(
      writer.empty({
        method: "DELETE",
        bucket: "perm-check",
        key: "w",
        query: { versionId: id },
        headers: { ...replica, "x-minio-source-deletemarker": "true" },
      }),
      /Access Denied/,
    );
    // Root may: the replica keeps the given id and says REPLICA.
    const put = await c.empty({
      method: "PUT",
      bucket: "perm-check",
      key: "w",
      query: { versionId: id },
      body: "replica",
      headers: replica,
    });
    assert.equal(put.headers.get("x-amz-version-id"), id);
    assert.equal(await statusOf(c, "perm-check", "w", id), "REPLICA");
    // Resync is not done: refused as S3 refuses what it does not implement, not taken for another request.
    await assert.rejects(
      c.empty({ method: "PUT", bucket: "perm-check", query: { "replication-reset": "", arn: "x" } }),
      (e: Error & { code?: string }) => e.code === "NotImplemented",
    );
  } finally {
    await storage.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replication: sync mode answers only once the target has the version", async () => {
  const dirs = [
    await Deno.makeTempDir({ prefix: "deck-repl-" }),
    await Deno.makeTempDir({ prefix: "deck-repl-" }),
  ];
  const target = await startEmbeddedStorage({
    dataDir: dirs[0],
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
  });
  const source = await startEmbeddedStorage({
    dataDir: dirs[1],
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
  });
  const src = client(source.url), dst = client(target.url);
  try {
    await versionedBucket(dst, "mirror");
    await versionedBucket(src, "live");
    await addRule(src, "live", target.url, "mirror", {}, true);
    for (let i = 0; i < 5; i++) {
      const put = await putObject(src, "live", `k${i}`, `value ${i}`);
      // No waiting: acknowledged means already there.
      assert.equal(
        await (await getObject(dst, "mirror", `k${i}`, { versionId: put.versionId })).text(),
        `value ${i}`,
      );
      assert.equal(await statusOf(src, "live", `k${i}`), "COMPLETED");
    }
    const marker = await deleteObject(src, "live", "k0");
    assert.equal((await versionsOf(dst, "mirror", "k0"))[0].versionId, marker.versionId);
  } finally {
    await source.close();
    await target.close();
    for (const dir of dirs) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replication: a target outage and a source killed mid-queue lose nothing and send each version once", async () => {
  const targetDir = await Deno.makeTempDir({ prefix: "deck-repl-" });
  const sourceDir = await Deno.makeTempDir({ prefix: "deck-repl-" });
  const targetPort = await freePort();
  const startTarget = () =>
    startEmbeddedStorage({
      dataDir: targetDir,
      port: targetPort,
      rootUser: ROOT.accessKey,
      rootPassword: ROOT.secretKey,
    });
  let target: EmbeddedStorage | null = await startTarget();
  const sourcePort = await freePort();
  let source = await spawnStorage(sourceDir, sourcePort, ROOT);
  const dst = client(target.url);
  try {
    await versionedBucket(dst, "backup");
    let src = client(source.url);
    await versionedBucket(src, "data");
    await addRule(src, "data", target.url, "backup", {});

    // The target goes away; writes meanwhile are PENDING or FAILED, then all arrive once it is back.
    await target.close();
    target = null;
    const written = new Map<string, string>();
    for (let i = 0; i < 10; i++) {
      written.set(`outage/${i}`, (await putObject(src, "data", `outage/${i}`, `o${i}`)).versionId!);
    }
    const removed = (await putObject(src, "data", "outage/removed", "soon gone")).versionId!;
    await eventually(
      "the first attempts to fail",
      async () => (await statusOf(src, "data", "outage/0")) === "FAILED",
    );
    target = await startTarget();
    await eventually("everything written during the outage", async () => {
      for (const key of written.keys()) if ((await statusOf(src, "data", key)) !== "COMPLETED") return false;
      return true;
    });

    // The target goes away again, the source is killed with its queue full, both come back.
    await target.close();
    target = null;
    for (let i = 0; i < 10; i++) {
      written.set(`crash/${i}`, (await putObject(src, "data", `crash/${i}`, `c${i}`)).versionId!);
    }
    await deleteObject(src, "data", "outage/removed", { versionId: removed });
    source.child.kill("SIGKILL");
    await source.child.status;
    target = await startTarget();
    source = await spawnStorage(sourceDir, sourcePort, ROOT);
    src = client(source.url);
    await eventually("everything written before the kill", async () => {
      for (const key of written.keys()) if ((await statusOf(src, "data", key)) !== "COMPLETED") return false;
      return !(await versionsOf(dst, "backup", "outage/removed")).length;
    });
    // Exactly once: one version per key on the target, with the source's id and bytes.
    for (const [key, versionId] of written) {
      const versions = await versionsOf(dst, "backup", key);
      assert.deepEqual(versions.map((v) => v.versionId), [versionId], key);
      assert.equal(
        await (await getObject(dst, "backup", key)).text(),
        `${key.startsWith("crash") ? "c" : "o"}${key.split("/")[1]}`,
      );
    }
  } finally {
    source.child.kill("SIGKILL");
    await source.child.status;
    await target?.close();
    await Deno.remove(targetDir, { recursive: true });
    await Deno.remove(sourceDir, { recursive: true });
  }
});
