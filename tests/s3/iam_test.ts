import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { EMPTY_SHA256, signHeaders } from "../../server/lib/s3/sigv4.ts";
import { rejectsWith, startStorage } from "./fixture.ts";

const readShared = {
  Version: "2012-10-17",
  Statement: [{
    Effect: "Allow",
    Action: ["s3:GetObject", "s3:ListBucket"],
    Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"],
  }],
};

Deno.test("users, groups and policies decide what each key may do", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "shared");
    await s3.makeBucket(f.root, "private");
    await s3.putObject(f.root, "shared", "hello.txt", "hi");
    await s3.addCannedPolicy(f.root, "read-shared", JSON.stringify(readShared));
    await rejectsWith(
      s3.addCannedPolicy(
        f.root,
        "broken",
        '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:Nope"}]}',
      ),
      "XMinioMalformedIAMPolicy",
    );
    await s3.addUser(f.root, "bob", "bob-secret-1");
    await rejectsWith(s3.addUser(f.root, "tiny", "short"), "XMinioAdminInvalidSecretKey");
    await rejectsWith(
      s3.addUser(f.root, f.storage.root.accessKey, "whatever123"),
      "XMinioInvalidIAMCredentials",
    );
    const bob = f.as("bob", "bob-secret-1");
    await rejectsWith(s3.listObjectsV2(bob, "shared"), "AccessDenied");

    await s3.updateGroupMembers(f.root, { group: "readers", members: ["bob"], isRemove: false });
    await s3.setPolicy(f.root, ["read-shared"], "readers", true);
    assert.equal(await (await s3.getObject(bob, "shared", "hello.txt")).text(), "hi", "group policy applies");
    await rejectsWith(s3.listObjectsV2(bob, "private"), "AccessDenied");
    await rejectsWith(s3.putObject(bob, "shared", "x", "y"), "AccessDenied");
    await rejectsWith(s3.listUsers(bob), "AccessDenied");
    assert.deepEqual((await s3.getGroupDescription(f.root, "readers")).members, ["bob"]);
    assert.deepEqual((await s3.getUserInfo(f.root, "bob")).memberOf, ["readers"]);
    assert.equal((await s3.getUserInfo(bob, "bob")).status, "enabled", "a user may read its own info");

    await s3.setGroupStatus(f.root, "readers", "disabled");
    await rejectsWith(s3.getObject(bob, "shared", "hello.txt"), "AccessDenied");
    await s3.setGroupStatus(f.root, "readers", "enabled");
    await rejectsWith(
      s3.updateGroupMembers(f.root, { group: "readers", members: [], isRemove: true }),
      "XMinioAdminGroupNotEmpty",
    );

    await s3.setUserStatus(f.root, "bob", "disabled");
    await rejectsWith(s3.getObject(bob, "shared", "hello.txt"), "InvalidAccessKeyId");
    await rejectsWith(s3.assumeRole(bob), "AccessDenied");
    await s3.setUserStatus(f.root, "bob", "enabled");

    const users = await s3.listUsers(f.root);
    assert.deepEqual(Object.keys(users), ["bob"]);
    const policies = await s3.listCannedPolicies(f.root);
    for (const name of ["consoleAdmin", "diagnostics", "readonly", "readwrite", "writeonly", "read-shared"]) {
      assert.ok(name in policies, name);
    }
    assert.match(await s3.infoCannedPolicy(f.root, "read-shared"), /s3:GetObject/);
    await s3.removeCannedPolicy(f.root, "read-shared");
    await rejectsWith(s3.infoCannedPolicy(f.root, "read-shared"), "XMinioAdminNoSuchPolicy");
    await rejectsWith(s3.getObject(bob, "shared", "hello.txt"), "AccessDenied");

    await s3.removeUser(f.root, "bob");
    await rejectsWith(s3.getUserInfo(f.root, "bob"), "XMinioAdminNoSuchUser");
    await rejectsWith(s3.getObject(bob, "shared", "hello.txt"), "InvalidAccessKeyId");
  } finally {
    await f.close();
  }
});

Deno.test("STS: temporary credentials, session policy, token checks; changing one's own password", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "shared");
    await s3.putObject(f.root, "shared", "a", "1");
    await s3.addUser(f.root, "carol", "carol-secret-1");
    await s3.setPolicy(f.root, ["readwrite"], "carol", false);
    const carol = f.as("carol", "carol-secret-1");
    const temp = await assumeAs(carol, { durationSeconds: 900 });
    const session = f.as(temp.accessKey, temp.secretKey, temp.sessionToken);
    assert.equal(await (await s3.getObject(session, "shared", "a")).text(), "1");
    assert.ok(Date.parse(temp.expiration) > Date.now() + 800_000);
    await rejectsWith(s3.getObject(f.as(temp.accessKey, temp.secretKey), "shared", "a"), "InvalidTokenId");
    await rejectsWith(
      s3.getObject(f.as(temp.accessKey, temp.secretKey, "forged"), "shared", "a"),
      "InvalidTokenId",
    );
    await rejectsWith(s3.assumeRole(session), "AccessDenied");
    const limited = await assumeAs(carol, {
      policy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: ["s3:ListBucket"], Resource: ["arn:aws:s3:::shared"] }],
      }),
    });
    const limitedClient = f.as(limited.accessKey, limited.secretKey, limited.sessionToken);
    assert.equal((await s3.listObjectsV2(limitedClient, "shared")).objects.length, 1);
    await rejectsWith(s3.getObject(limitedClient, "shared", "a"), "AccessDenied");
    await rejectsWith(s3.assumeRole(carol, { durationSeconds: 60 }), "InvalidParameterValue");

    await rejectsWith(s3.addUser(session, "carol", "new-secret-2"), "XMinioIAMActionNotAllowed");
    await s3.addUser(carol, "carol", "new-secret-2");
    await rejectsWith(s3.listBuckets(carol), "SignatureDoesNotMatch");
    assert.equal((await s3.listBuckets(f.as("carol", "new-secret-2"))).length, 1);
    const info = await s3.accountInfo(session);
    assert.equal(info.AccountName, "carol");
    assert.equal(info.Server.Type, 2);
    assert.equal(info.Buckets?.[0].name, "shared");
  } finally {
    await f.close();
  }
});

Deno.test("revoke-tokens ends STS credentials as MinIO's does: own by type or all, another user's with the right", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "shared");
    await s3.addUser(f.root, "dave", "dave-secret-1");
    await s3.setPolicy(f.root, ["readonly"], "dave", false);
    const dave = f.as("dave", "dave-secret-1");
    const session = async (type?: string) => {
      const t = await s3.assumeRole(dave, { tokenRevokeType: type });
      return f.as(t.accessKey, t.secretKey, t.sessionToken);
    };
    const [a, b, untyped] = [await session("browser-a"), await session("browser-b"), await session()];
    // A self revoke without options ends the calling session's own type only.
    await s3.revokeTokens(a);
    await rejectsWith(s3.listBuckets(a), "InvalidAccessKeyId");
    assert.equal((await s3.listBuckets(b)).length, 1, "the user's other session lives on");
    await rejectsWith(s3.revokeTokens(untyped), "InvalidArgument");
    // Another user's sessions: exactly one of tokenRevokeType / fullRevoke, and only with admin:RemoveServiceAccount.
    await rejectsWith(s3.revokeTokens(f.root, { user: "dave" }), "InvalidRequest");
    await s3.addUser(f.root, "eve", "eve-secret-1");
    await s3.setPolicy(f.root, ["readonly"], "eve", false);
    await rejectsWith(
      s3.revokeTokens(f.as("eve", "eve-secret-1"), { user: "dave", fullRevoke: true }),
      "AccessDenied",
    );
    await s3.revokeTokens(f.root, { user: "dave", fullRevoke: true });
    await rejectsWith(s3.listBuckets(b), "InvalidAccessKeyId");
    await rejectsWith(s3.listBuckets(untyped), "InvalidAccessKeyId");
    assert.equal((await s3.listBuckets(dave)).length, 1, "the long-term key is untouched");
    // A disabled parent's STS credentials are refused as unknown keys (MinIO before RELEASE.2021-11-24).
    const c = await session("c");
    await s3.setUserStatus(f.root, "dave", "disabled");
    await rejectsWith(s3.listBuckets(c), "InvalidAccessKeyId");
  } finally {
    await f.close();
  }
});

async function assumeAs(client: s3.S3Client, options: { durationSeconds?: number; policy?: string }) {
  return await s3.assumeRole(client, options);
}

Deno.test("service accounts: own keys, custom credentials, restricting policy, status", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "apps");
    await s3.addUser(f.root, "dave", "dave-secret-1");
    await s3.setPolicy(f.root, ["readwrite"], "dave", false);
    const dave = f.as("dave", "dave-secret-1");
    const own = await s3.addServiceAccount(dave, {});
    assert.equal(own.accessKey.length, 20);
    await s3.putObject(f.as(own.accessKey, own.secretKey), "apps", "k", "v");
    const restricted = await s3.addServiceAccount(f.root, {
      targetUser: "dave",
      accessKey: "ci-uploader",
      secretKey: "ci-uploader-secret",
      policy: {
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::apps/*"] }],
      },
    });
    const ci = f.as(restricted.accessKey, restricted.secretKey);
    assert.equal(await (await s3.getObject(ci, "apps", "k")).text(), "v");
    await rejectsWith(s3.putObject(ci, "apps", "k2", "v"), "AccessDenied");
    await rejectsWith(
      s3.addServiceAccount(f.root, { targetUser: "dave", accessKey: "ci-uploader" }),
      "XMinioAdminInvalidAccessKey",
    );
    const listed = await s3.listServiceAccounts(dave);
    assert.deepEqual(listed.map((a) => a.accessKey).sort(), [own.accessKey, "ci-uploader"].sort());
    const info = await s3.infoServiceAccount(f.root, "ci-uploader");
    assert.equal(info.parentUser, "dave");
    assert.equal(info.impliedPolicy, false);
    assert.match(info.policy ?? "", /s3:GetObject/);
    await s3.updateServiceAccount(f.root, "ci-uploader", { newStatus: "off" });
    await rejectsWith(s3.getObject(ci, "apps", "k"), "InvalidAccessKeyId");
    await s3.deleteServiceAccount(dave, "ci-uploader");
    await rejectsWith(s3.infoServiceAccount(f.root, "ci-uploader"), "XMinioInvalidIAMCredentials");
    await s3.addUser(f.root, "eve", "eve-secret-1");
    await rejectsWith(s3.listServiceAccounts(f.as("eve", "eve-secret-1"), "dave"), "AccessDenied");
  } finally {
    await f.close();
  }
});

Deno.test("signatures: wrong secret, clock skew, presigned expiry and anonymous access by bucket policy", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "pub");
    await s3.putObject(f.root, "pub", "file.txt", "public data");
    await rejectsWith(
      s3.listBuckets(f.as(f.storage.root.accessKey, "wrong-secret")),
      "SignatureDoesNotMatch",
    );
    await rejectsWith(s3.listBuckets(f.as("NOSUCHKEY", "whatever")), "InvalidAccessKeyId");
    const old = await signHeaders({
      method: "GET",
      url: new URL(f.storage.url + "/"),
      headers: {},
      payloadHash: EMPTY_SHA256,
      credentials: f.storage.root,
      region: "us-east-1",
      service: "s3",
      date: new Date(Date.now() - 20 * 60_000),
    });
    const skewed = await fetch(f.storage.url + "/", { headers: old.headers });
    assert.equal(skewed.status, 403);
    assert.match(await skewed.text(), /RequestTimeTooSkewed/);

    const anonymous = await fetch(`${f.storage.url}/pub/file.txt`);
    assert.equal(anonymous.status, 403);
    await anonymous.body?.cancel();
    await s3.putBucketPolicy(
      f.root,
      "pub",
      JSON.stringify({
        Version: "2012-10-17",
        Statement: [{
          Effect: "Allow",
          Principal: "*",
          Action: ["s3:GetObject"],
          Resource: ["arn:aws:s3:::pub/*"],
        }],
      }),
    );
    const allowed = await fetch(`${f.storage.url}/pub/file.txt`);
    assert.equal(await allowed.text(), "public data");
    const listAnon = await fetch(`${f.storage.url}/pub?list-type=2`);
    assert.equal(listAnon.status, 403, "the policy grants reads, not listing");
    await listAnon.body?.cancel();

    const url = await f.root.presign("GET", "pub", "file.txt", 60);
    assert.equal(await (await fetch(url)).text(), "public data");
    const putUrl = await f.root.presign("PUT", "pub", "uploaded.txt", 60);
    assert.equal((await fetch(putUrl, { method: "PUT", body: "via presigned" })).status, 200);
    assert.equal(await (await s3.getObject(f.root, "pub", "uploaded.txt")).text(), "via presigned");
    const tampered = new URL(url);
    tampered.searchParams.set("X-Amz-Expires", "120");
    const bad = await fetch(tampered);
    assert.equal(bad.status, 403);
    await bad.body?.cancel();
    await assert.rejects(() => f.root.presign("GET", "pub", "file.txt", 604801), RangeError);
  } finally {
    await f.close();
  }
});

Deno.test("admin: server info, usage, config KV and help, tiers", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "bk1");
    await s3.putObject(f.root, "bk1", "x", "12345");
    const info = await s3.serverInfo(f.root);
    assert.equal(info.buckets?.count, 1);
    assert.equal(info.objects?.count, 1);
    assert.equal(info.usage?.size, 5);
    assert.equal(info.backend?.backendType, "Erasure");
    assert.equal(info.servers?.[0].state, "online");
    assert.ok((info.servers?.[0].drives?.[0].totalspace ?? 0) > 0);
    const usage = await s3.dataUsageInfo(f.root);
    assert.equal(usage.bucketsUsageInfo?.bk1.size, 5);
    assert.equal((await s3.storageInfo(f.root)).Backend.Type, 2);

    const applied = await s3.setConfigKV(f.root, "region name=eu-west-1");
    assert.equal(applied.restart, true, "every subsystem applies at the next (in-process) restart");
    assert.deepEqual(await s3.getConfigKV(f.root, "region"), [{
      subSystem: "region",
      target: undefined,
      kv: [{ key: "name", value: "eu-west-1" }],
    }]);
    const live = await s3.setConfigKV(
      f.root,
      "logger_webhook:audit1 endpoint=http://127.0.0.1:1/logs auth_token=secret token comment=two words",
    );
    assert.equal(live.restart, false, "logger webhooks apply at once");
    const restart = await s3.setConfigKV(f.root, "notify_webhook:hook1 endpoint=http://127.0.0.1:1/events");
    assert.equal(restart.restart, true, "notification targets need a restart");
    const logger = await s3.getConfigKV(f.root, "logger_webhook:audit1");
    assert.deepEqual(logger[0].kv.find((k) => k.key === "auth_token"), {
      key: "auth_token",
      value: "secret token",
    }, "unquoted values split on known keys");
    await rejectsWith(s3.setConfigKV(f.root, "region:x name=a"), "XMinioAdminConfigBadJSON");
    await rejectsWith(
      s3.setConfigKV(f.root, "notify_webhook endpoint=not-a-url"),
      "XMinioAdminConfigBadJSON",
    );
    await rejectsWith(s3.setConfigKV(f.root, "nosuch a=b"), "XMinioAdminConfigBadJSON");
    const help = await s3.helpConfigKV(f.root, "notify_webhook");
    assert.deepEqual(Object.keys(help).sort(), ["description", "keysHelp", "multipleTargets", "subSys"]);
    assert.ok(help.keysHelp.some((k) => k.key === "endpoint" && !k.optional));

    const remote = await startStorage();
    try {
      await s3.makeBucket(remote.root, "cold");
      const tier = {
        Version: "v1" as const,
        Type: "minio" as const,
        Name: "WARM",
        MinIO: {
          Endpoint: remote.storage.url,
          AccessKey: remote.storage.root.accessKey,
          SecretKey: remote.storage.root.secretKey,
          Bucket: "cold",
          Prefix: "tier/",
          Region: "",
        },
      };
      await rejectsWith(s3.addTier(f.root, { ...tier, Name: "warm" }), "XMinioAdminTierNameNotUpperCase");
      await s3.addTier(f.root, tier);
      await rejectsWith(s3.addTier(f.root, tier), "XMinioAdminTierAlreadyExists");
      const tiers = await s3.listTiers(f.root);
      assert.equal(tiers[0].MinIO?.SecretKey, "REDACTED");
      await s3.putBucketLifecycle(f.root, "bk1", [{
        id: "to-warm",
        status: "Enabled",
        transition: { days: 30, storageClass: "WARM" },
      }]);
      await s3.editTierCredentials(f.root, "WARM", {
        access: remote.storage.root.accessKey,
        secret: remote.storage.root.secretKey,
      });
      await rejectsWith(
        s3.editTierCredentials(f.root, "WARM", { access: "bad", secret: "badbadbad" }),
        "XMinioAdminTierMissingCredentials",
      );
    } finally {
      await remote.close();
    }
  } finally {
    await f.close();
  }
});
