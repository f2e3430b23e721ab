import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { rejectsWith, startStorage } from "./fixture.ts";

Deno.test("buckets: names, create, head, location, tags, delete rules", async () => {
  const f = await startStorage();
  try {
    for (const bad of ["ab", "Upper", "a..b", "-start", "192.168.1.1", "minio", "a".repeat(64)]) {
      await rejectsWith(s3.makeBucket(f.root, bad), "InvalidBucketName");
    }
    await s3.makeBucket(f.root, "alpha");
    await rejectsWith(s3.makeBucket(f.root, "alpha"), "BucketAlreadyOwnedByYou");
    assert.equal(await s3.headBucket(f.root, "alpha"), true);
    assert.equal(await s3.headBucket(f.root, "nope"), false);
    assert.equal(await s3.getBucketLocation(f.root, "alpha"), "us-east-1");
    await s3.putBucketTagging(f.root, "alpha", { team: "ops", env: "prod" });
    assert.deepEqual(await s3.getBucketTagging(f.root, "alpha"), { team: "ops", env: "prod" });
    await s3.putBucketTagging(f.root, "alpha", {});
    assert.deepEqual(await s3.getBucketTagging(f.root, "alpha"), {});
    await s3.putObject(f.root, "alpha", "x", "1");
    await rejectsWith(s3.deleteBucket(f.root, "alpha"), "BucketNotEmpty");
    assert.equal(await s3.headBucket(f.root, "alpha"), true, "nothing removed");
    await s3.deleteBucket(f.root, "alpha", { force: true });
    assert.deepEqual(await s3.listBuckets(f.root), []);
  } finally {
    await f.close();
  }
});

Deno.test("bucket configuration: versioning, policy, encryption, lifecycle, notification, replication", async () => {
  const f = await startStorage({ kmsSecretKey: `my-key:${new Uint8Array(32).fill(1).toBase64()}` });
  try {
    await s3.makeBucket(f.root, "conf");
    assert.equal((await s3.getBucketVersioning(f.root, "conf")).status, "");
    await s3.putBucketVersioning(f.root, "conf", { status: "Enabled", excludedPrefixes: ["tmp/"] });
    assert.deepEqual(await s3.getBucketVersioning(f.root, "conf"), {
      status: "Enabled",
      excludedPrefixes: ["tmp/"],
      excludeFolders: false,
    });
    await s3.putBucketVersioning(f.root, "conf", { status: "Suspended" });

    assert.equal(await s3.getBucketPolicy(f.root, "conf"), "");
    await rejectsWith(
      s3.putBucketPolicy(
        f.root,
        "conf",
        '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::other/*"}]}',
      ),
      "MalformedPolicy",
    );
    await rejectsWith(s3.putBucketPolicy(f.root, "conf", "{not json"), "MalformedPolicy");
    const policy =
      '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":["*"]},"Action":["s3:GetObject"],"Resource":["arn:aws:s3:::conf/*"]}]}';
    await s3.putBucketPolicy(f.root, "conf", policy);
    assert.equal(await s3.getBucketPolicy(f.root, "conf"), policy);

    assert.equal(await s3.getBucketEncryption(f.root, "conf"), null);
    await s3.putBucketEncryption(f.root, "conf", { algorithm: "aws:kms", kmsMasterKeyId: "my-key" });
    assert.deepEqual(await s3.getBucketEncryption(f.root, "conf"), {
      algorithm: "aws:kms",
      kmsMasterKeyId: "my-key",
    });
    await s3.deleteBucketEncryption(f.root, "conf");
    assert.equal(await s3.getBucketEncryption(f.root, "conf"), null);

    await s3.putBucketLifecycle(f.root, "conf", [{
      id: "expire",
      status: "Enabled",
      prefix: "logs/",
      expiration: { days: 30 },
    }]);
    assert.equal((await s3.getBucketLifecycle(f.root, "conf"))[0].expiration?.days, 30);
    await rejectsWith(
      s3.putBucketLifecycle(f.root, "conf", [{
        id: "t",
        status: "Enabled",
        transition: { days: 5, storageClass: "WARM" },
      }]),
      "InvalidStorageClass",
    );
    await rejectsWith(
      s3.putBucketLifecycle(f.root, "conf", [{ id: "a", status: "Enabled", expiration: { days: 1 } }, {
        id: "a",
        status: "Enabled",
        expiration: { days: 2 },
      }]),
      "InvalidArgument",
    );

    assert.deepEqual(await s3.getBucketNotification(f.root, "conf"), []);
    await rejectsWith(
      s3.putBucketNotification(f.root, "conf", [{
        id: "1",
        arn: "arn:minio:sqs::_:webhook",
        events: ["s3:ObjectCreated:*"],
      }]),
      "InvalidArgument",
    );
    await s3.setConfigKV(f.root, "notify_webhook endpoint=http://127.0.0.1:1/hook");
    await rejectsWith(
      s3.putBucketNotification(f.root, "conf", [{
        id: "1",
        arn: "arn:minio:sqs::_:webhook",
        events: ["s3:ObjectCreated:*"],
      }]),
      "InvalidArgument",
    );
    await s3.serviceRestart(f.root);
    assert.deepEqual(
      (await s3.serverInfo(f.root)).sqsARN,
      ["arn:minio:sqs::_:webhook"],
      "targets become ARNs after a restart",
    );
    await s3.putBucketNotification(f.root, "conf", [{
      id: "1",
      arn: "arn:minio:sqs::_:webhook",
      events: ["s3:ObjectCreated:*", "s3:ObjectRemoved:*"],
      prefix: "img/",
      suffix: ".jpg",
    }]);
    assert.deepEqual(await s3.getBucketNotification(f.root, "conf"), [{
      id: "1",
      arn: "arn:minio:sqs::_:webhook",
      events: ["s3:ObjectCreated:*", "s3:ObjectRemoved:*"],
      prefix: "img/",
      suffix: ".jpg",
    }]);

    const rule = {
      id: "r1",
      status: "Enabled" as const,
      priority: 1,
      destinationBucket: "arn:minio:replication::x:dst",
      deleteMarkerReplication: true,
      deleteReplication: true,
      replicaModifications: false,
      existingObjectReplication: false,
    };
    await rejectsWith(s3.putBucketReplication(f.root, "conf", { role: "", rules: [rule] }), "InvalidRequest");
  } finally {
    await f.close();
  }
});

Deno.test("replication: remote targets on a second server, rules referencing them", async () => {
  const source = await startStorage();
  const remote = await startStorage();
  try {
    await s3.makeBucket(source.root, "src");
    await s3.makeBucket(remote.root, "dst");
    const target = {
      sourcebucket: "src",
      endpoint: new URL(remote.storage.url).host,
      credentials: remote.storage.root,
      targetbucket: "dst",
      secure: false,
      type: "replication" as const,
    };
    await rejectsWith(s3.setRemoteTarget(source.root, "src", target), "InvalidRequest");
    await s3.putBucketVersioning(source.root, "src", { status: "Enabled" });
    await rejectsWith(
      s3.setRemoteTarget(source.root, "src", target),
      "XMinioAdminReplicationTargetNotVersionedError",
    );
    await rejectsWith(
      s3.setRemoteTarget(source.root, "src", { ...target, endpoint: "127.0.0.1:1" }),
      "XMinioAdminReplicationRemoteConnectionError",
    );
    await s3.putBucketVersioning(remote.root, "dst", { status: "Enabled" });
    await rejectsWith(
      s3.setRemoteTarget(source.root, "src", {
        ...target,
        credentials: { accessKey: "wrong", secretKey: "wrongwrong" },
      }),
      "XMinioAdminReplicationRemoteConnectionError",
    );
    const arn = await s3.setRemoteTarget(source.root, "src", target);
    assert.match(arn, /^arn:minio:replication::[0-9a-f-]+:dst$/);
    assert.equal(await s3.setRemoteTarget(source.root, "src", target), arn, "the same target keeps its ARN");
    const listed = await s3.listRemoteTargets(source.root, "src");
    assert.equal(listed.length, 1);
    assert.equal(listed[0].credentials?.secretKey, undefined, "secrets are never listed");
    const rule = {
      id: "r1",
      status: "Enabled" as const,
      priority: 1,
      prefix: "docs/",
      destinationBucket: arn,
      deleteMarkerReplication: true,
      deleteReplication: true,
      replicaModifications: true,
      existingObjectReplication: false,
    };
    await s3.putBucketReplication(source.root, "src", { role: "", rules: [rule] });
    const got = await s3.getBucketReplication(source.root, "src");
    assert.equal(got.rules[0].destinationBucket, arn);
    assert.equal(got.rules[0].prefix, "docs/");
    await rejectsWith(s3.removeRemoteTarget(source.root, "src", arn), "XMinioAdminRemoteRemoveDisallowed");
    await s3.putBucketReplication(source.root, "src", { role: "", rules: [] });
    await s3.removeRemoteTarget(source.root, "src", arn);
    assert.deepEqual(await s3.listRemoteTargets(source.root, "src"), []);
  } finally {
    await source.close();
    await remote.close();
  }
});

Deno.test("object lock: default retention, retention and legal hold enforced on delete", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "vault", { objectLock: true });
    assert.equal(
      (await s3.getBucketVersioning(f.root, "vault")).status,
      "Enabled",
      "object lock turns versioning on",
    );
    await rejectsWith(s3.putBucketVersioning(f.root, "vault", { status: "Suspended" }), "InvalidBucketState");
    await s3.putObjectLockConfig(f.root, "vault", {
      enabled: true,
      defaultRetention: { mode: "GOVERNANCE", days: 1 },
    });
    assert.deepEqual(await s3.getObjectLockConfig(f.root, "vault"), {
      enabled: true,
      defaultRetention: { mode: "GOVERNANCE", days: 1, years: undefined },
    });
    const put = await s3.putObject(f.root, "vault", "doc", "keep me");
    const retention = await s3.getObjectRetention(f.root, "vault", "doc", put.versionId);
    assert.equal(retention?.mode, "GOVERNANCE");
    await rejectsWith(s3.deleteObject(f.root, "vault", "doc", { versionId: put.versionId }), "AccessDenied");
    await s3.deleteObject(f.root, "vault", "doc", { versionId: put.versionId, bypassGovernance: true });

    const until = new Date(Date.now() + 86400_000).toISOString();
    const locked = await s3.putObject(f.root, "vault", "contract", "signed", {
      retention: { mode: "COMPLIANCE", until },
    });
    await rejectsWith(
      s3.deleteObject(f.root, "vault", "contract", { versionId: locked.versionId, bypassGovernance: true }),
      "AccessDenied",
    );
    await rejectsWith(
      s3.putObjectRetention(f.root, "vault", "contract", { mode: "GOVERNANCE", until }, {
        versionId: locked.versionId,
        bypassGovernance: true,
      }),
      "AccessDenied",
    );
    const marker = await s3.deleteObject(f.root, "vault", "contract");
    assert.equal(marker.deleteMarker, true, "a plain delete only adds a marker");

    const held = await s3.putObject(f.root, "vault", "evidence", "x");
    await s3.putObjectRetention(f.root, "vault", "evidence", null, {
      versionId: held.versionId,
      bypassGovernance: true,
    });
    await s3.putObjectLegalHold(f.root, "vault", "evidence", true, held.versionId);
    assert.equal(await s3.getObjectLegalHold(f.root, "vault", "evidence", held.versionId), true);
    await rejectsWith(
      s3.deleteObject(f.root, "vault", "evidence", { versionId: held.versionId, bypassGovernance: true }),
      "AccessDenied",
    );
    await s3.putObjectLegalHold(f.root, "vault", "evidence", false, held.versionId);
    await s3.deleteObject(f.root, "vault", "evidence", { versionId: held.versionId });

    await s3.makeBucket(f.root, "plain");
    await rejectsWith(s3.putObjectLockConfig(f.root, "plain", { enabled: true }), "InvalidBucketState");
    await s3.putObject(f.root, "plain", "t", "x");
    await s3.putObjectTagging(f.root, "plain", "t", { a: "1", b: "2" });
    assert.deepEqual(await s3.getObjectTagging(f.root, "plain", "t"), { a: "1", b: "2" });
    await rejectsWith(
      s3.putObjectTagging(
        f.root,
        "plain",
        "t",
        Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])),
      ),
      "BadRequest",
    );
  } finally {
    await f.close();
  }
});

Deno.test("quota: a hard quota refuses the write that would exceed it", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "capped");
    assert.equal(await s3.getBucketQuota(f.root, "capped"), null);
    await s3.setBucketQuota(f.root, "capped", 10);
    assert.equal((await s3.getBucketQuota(f.root, "capped"))?.quota, 10);
    await s3.putObject(f.root, "capped", "a", "12345678");
    await rejectsWith(s3.putObject(f.root, "capped", "b", "12345"), "XMinioAdminBucketQuotaExceeded");
    await rejectsWith(s3.headObject(f.root, "capped", "b"), "NoSuchKey");
    await s3.setBucketQuota(f.root, "capped", 0);
    await s3.putObject(f.root, "capped", "b", "12345");
  } finally {
    await f.close();
  }
});
