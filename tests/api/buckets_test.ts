/**
 * Buckets API scenarios (api-index §5) against the real embedded storage server: auth matrix, then create
 * with every feature, settings, events with a configured webhook target, replication to a second embedded
 * server, lifecycle with a tier, access rules that really change anonymous access, and access audit.
 */
import assert from "node:assert/strict";
import { addTier } from "../../server/lib/s3/admin/buckets.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { getObject, makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { runScenarios, type Scenario, signInAsRoot, startStack, TEST_KMS_KEY } from "../helpers.ts";

const AUTH_MATRIX: [string, string, unknown?][] = [
  ["POST", "/api/v1/buckets", { name: "forbidden-bucket" }],
  ["DELETE", "/api/v1/buckets/photos"],
  ["PUT", "/api/v1/buckets/photos/set-policy", { access: "PUBLIC" }],
  ["GET", "/api/v1/buckets/photos/quota"],
  ["PUT", "/api/v1/buckets/photos/quota", { enabled: true, amount: 1024, quota_type: "hard" }],
  ["PUT", "/api/v1/buckets/photos/versioning", { versioning: true }],
  ["POST", "/api/v1/buckets/photos/encryption/enable", { encType: "sse-s3" }],
  ["GET", "/api/v1/buckets/photos/events"],
  ["GET", "/api/v1/buckets/photos/replication"],
  ["GET", "/api/v1/buckets/photos/lifecycle"],
  ["PUT", "/api/v1/bucket/photos/access-rules", { prefix: "pub", access: "readonly" }],
  ["GET", "/api/v1/bucket-users/photos"],
  ["GET", "/api/v1/bucket-policy/photos"],
  ["GET", "/api/v1/configs/region"],
  ["GET", "/api/v1/admin/arns"],
  ["POST", "/api/v1/service/restart", {}],
  ["POST", "/api/v1/list-external-buckets", {
    accessKey: "a",
    secretKey: "b",
    targetURL: "127.0.0.1:1",
    useTLS: false,
  }],
];

Deno.test("bucket endpoints: auth matrix and admin flows", async (t) => {
  const stack = await startStack({ env: { MINIO_KMS_SECRET_KEY: TEST_KMS_KEY } });
  const remote = await startEmbeddedStorage({
    dataDir: await Deno.makeTempDir({ prefix: "deck-remote-" }),
    hostname: "127.0.0.1",
    port: 0,
  });
  const webhook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    await makeBucket(stack.admin, "photos");
    await makeBucket(stack.admin, "shared");
    const matrix: Scenario[] = AUTH_MATRIX.flatMap(([method, path, body]) => [
      { name: "no session", as: "none" as const, method, path, body, status: 401 },
      { name: "user without the permission", as: "narrow" as const, method, path, body, status: 403 },
    ]);
    await runScenarios(t, stack, [
      ...matrix,
      {
        name: "a narrow user lists only the buckets it can reach",
        as: "narrow",
        method: "GET",
        path: "/api/v1/buckets",
        status: 200,
        check: (body) =>
          assert.deepEqual((body as { buckets: { name: string }[] }).buckets.map((b) => b.name), ["shared"]),
      },
      {
        name: "has-permission: CreateBucket denied, ListBucket on shared allowed",
        as: "narrow",
        method: "POST",
        path: "/api/v1/has-permission",
        body: {
          actions: [{ id: "create", action: "s3:CreateBucket" }, {
            id: "list",
            action: "s3:ListBucket",
            bucket_name: "shared",
          }, { id: "other", action: "s3:ListBucket", bucket_name: "photos" }],
        },
        status: 201,
        check: (body) =>
          assert.deepEqual(body, {
            permissions: [{ id: "create", can: false }, { id: "list", can: true }, {
              id: "other",
              can: false,
            }],
          }),
      },
    ]);

    const root = await signInAsRoot(stack);
    const remoteAdmin = new S3Client({ endpoint: remote.url, credentials: remote.root });

    await runScenarios(t, stack, [
      {
        name: "invalid bucket name",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets",
        body: { name: "Bad_Name" },
        status: 400,
      },
      {
        name: "every bad field is named as a user reads it, the first in the message",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets",
        body: { name: "", versioning: "yes" },
        status: 400,
        check: (b) => {
          const body = b as { message: string; detailedMessage: string };
          assert.equal(body.message, "Name must not be empty");
          assert.equal(
            body.detailedMessage,
            "Name must not be empty\nVersioning must be true or false, not string",
          );
        },
      },
      {
        name: "quota 0",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets",
        body: { name: "quota-zero", quota: { enabled: true, quota_type: "hard", amount: 0 } },
        status: 400,
      },
      {
        name: "retention validity 0",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets",
        body: { name: "r0", locking: true, retention: { mode: "compliance", unit: "days", validity: 0 } },
        status: 400,
      },
      {
        name: "…nothing was created",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/quota-zero",
        status: 404,
      },
      {
        name: "create with versioning, locking, quota and retention",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets",
        body: {
          name: "vault",
          versioning: true,
          locking: true,
          quota: { enabled: true, quota_type: "hard", amount: 1099511627776 },
          retention: { mode: "governance", unit: "days", validity: 30 },
        },
        status: 201,
      },
      {
        name: "duplicate bucket: said plainly",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets",
        body: { name: "vault" },
        status: 409,
        check: (b) =>
          assert.equal(
            (b as { detailedMessage: string }).detailedMessage,
            "A bucket named vault already exists.",
          ),
      },
      {
        name: "versioning on",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/vault/versioning",
        status: 200,
        check: (b) => assert.deepEqual(b, { is_versioned: true }),
      },
      {
        name: "locking on",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/vault/object-locking",
        status: 200,
        check: (b) => assert.deepEqual(b, { object_locking_enabled: true }),
      },
      {
        name: "quota set",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/vault/quota",
        status: 200,
        check: (b) => assert.deepEqual(b, { quota: 1099511627776, type: "hard" }),
      },
      {
        name: "retention set",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/vault/retention",
        status: 200,
        check: (b) => assert.deepEqual(b, { mode: "governance", unit: "days", validity: 30 }),
      },
      {
        name: "change retention",
        as: "root",
        method: "PUT",
        path: "/api/v1/buckets/vault/retention",
        body: { mode: "compliance", unit: "years", validity: 1 },
        status: 200,
      },
      {
        name: "retention validity below 1",
        as: "root",
        method: "PUT",
        path: "/api/v1/buckets/vault/retention",
        body: { mode: "compliance", unit: "years", validity: 0 },
        status: 400,
      },
      {
        name: "no retention on a plain bucket",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/retention",
        status: 404,
      },
      {
        name: "quota in bytes that are not whole KiB",
        as: "root",
        method: "PUT",
        path: "/api/v1/buckets/vault/quota",
        body: { enabled: true, amount: 1536 },
        status: 200,
        check: (b) => assert.deepEqual(b, { quota: 1536, type: "hard" }),
      },
      {
        name: "quota beyond 8 PiB: a size message",
        as: "root",
        method: "PUT",
        path: "/api/v1/buckets/vault/quota",
        body: { enabled: true, amount: 99999 * 1024 ** 5 },
        status: 400,
        check: (b) =>
          assert.match(
            (b as { detailedMessage: string }).detailedMessage,
            /The quota must be less than 8 PiB/,
          ),
      },
      {
        name: "quota off",
        as: "root",
        method: "PUT",
        path: "/api/v1/buckets/vault/quota",
        body: { enabled: false },
        status: 200,
        check: (b) => assert.equal((b as { quota: number }).quota, 0),
      },
      {
        name: "encryption not configured → 404 with MinIO's text",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/encryption/info",
        status: 404,
        check: (b) =>
          assert.equal(
            (b as { message: string }).message,
            "The server side encryption configuration was not found",
          ),
      },
      {
        name: "enable SSE-S3",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets/photos/encryption/enable",
        body: { encType: "sse-s3" },
        status: 200,
      },
      {
        name: "encryption info",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos/encryption/info",
        status: 200,
        check: (b) => assert.equal((b as { algorithm: string }).algorithm, "AES256"),
      },
      {
        name: "disable encryption",
        as: "root",
        method: "POST",
        path: "/api/v1/buckets/photos/encryption/disable",
        status: 200,
      },
      {
        name: "versioning on photos",
        as: "root",
        method: "PUT",
        path: "/api/v1/buckets/photos/versioning",
        body: { versioning: true },
        status: 201,
      },
      {
        name: "bucket info: private",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/photos",
        status: 200,
        check: (b) => assert.equal((b as { access: string }).access, "PRIVATE"),
      },
      {
        name: "list with sizes and dates",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets",
        status: 200,
        check: (b) => {
          const list = b as {
            buckets: { name: string; creation_date: string; size: number }[];
            total: number;
          };
          assert.deepEqual(list.buckets.map((x) => x.name), ["photos", "shared", "vault"]);
          assert.equal(list.total, 3);
          assert.ok(list.buckets.every((x) => x.creation_date && typeof x.size === "number"));
        },
      },
    ]);

    await t.step("access: PUBLIC and prefix rules really change anonymous access", async () => {
      await putObject(stack.admin, "shared", "pub/a.txt", "public");
      await putObject(stack.admin, "shared", "priv/b.txt", "private");
      const anonymous = (key: string) =>
        fetch(`${stack.storage.url}/shared/${key}`).then(async (r) => (await r.body?.cancel(), r.status));
      assert.equal(await anonymous("pub/a.txt"), 403);
      await root.json(
        "PUT",
        "/api/v1/bucket/shared/access-rules",
        { prefix: "pub", access: "readonly" },
        200,
      );
      assert.equal(await anonymous("pub/a.txt"), 200);
      assert.equal(await anonymous("priv/b.txt"), 403);
      assert.deepEqual(await root.json("GET", "/api/v1/bucket/shared/access-rules", undefined, 200), {
        accessRules: [{ prefix: "pub", access: "readonly" }],
        total: 1,
      });
      const added = await root.json<{ detailedMessage: string }>(
        "PUT",
        "/api/v1/bucket/shared/access-rules",
        { prefix: "pub", access: "writeonly", replace: false },
        409,
      );
      assert.equal(
        added.detailedMessage,
        "The prefix pub already has a rule (readonly); edit that rule instead.",
      );
      await root.json(
        "PUT",
        "/api/v1/bucket/shared/access-rules",
        { prefix: "pub", access: "writeonly" },
        200,
      );
      assert.equal(await anonymous("pub/a.txt"), 403, "write-only cannot read");
      await root.json("DELETE", "/api/v1/bucket/shared/access-rules", { prefix: "pub" }, 200);
      assert.deepEqual(await root.json("GET", "/api/v1/bucket/shared/access-rules", undefined, 200), {
        accessRules: [],
        total: 0,
      });
      await root.json("PUT", "/api/v1/bucket/shared/access-rules", { prefix: "  ", access: "readonly" }, 400);
      const info = await root.json<{ access: string }>("PUT", "/api/v1/buckets/shared/set-policy", {
        access: "PUBLIC",
      }, 200);
      assert.equal(info.access, "PUBLIC");
      assert.equal(await anonymous("priv/b.txt"), 200);
      await root.json("PUT", "/api/v1/buckets/shared/set-policy", { access: "PRIVATE" }, 200);
      assert.equal(await anonymous("priv/b.txt"), 403);
    });

    await t.step("access audit: the policy granting the bucket and the user holding it", async () => {
      // The narrow user's policy grants "shared" (created by the auth matrix above).
      const policies = await root.json<{ policies: { name: string }[] }>(
        "GET",
        "/api/v1/bucket-policy/shared",
        undefined,
        200,
      );
      assert.ok(policies.policies.some((p) => p.name === "narrow"));
      assert.ok(!policies.policies.some((p) => p.name === "readonly" && false));
      const users = await root.json<string[]>("GET", "/api/v1/bucket-users/shared", undefined, 200);
      assert.deepEqual(users, ["narrow-user"]);
      const none = await root.json<{ policies: { name: string }[] }>(
        "GET",
        "/api/v1/bucket-policy/photos",
        undefined,
        200,
      );
      assert.ok(!none.policies.some((p) => p.name === "narrow"));
    });

    await t.step(
      "events: a webhook target configured on the server, subscribed, listed and deleted",
      async () => {
        const endpoint = `http://127.0.0.1:${(webhook.addr as Deno.NetAddr).port}/events`;
        const saved = await root.json<{ restart: boolean }>("PUT", "/api/v1/configs/notify_webhook", {
          key_values: [{ key: "enable", value: "on" }, { key: "endpoint", value: endpoint }, {
            key: "queue_dir",
            value: `${stack.dataDir}/events-queue`,
          }],
          arn_resource_id: "hook1",
        }, 200);
        assert.equal(saved.restart, true);
        const config = await root.json<{ key_values: { key: string; value: string }[] }>(
          "GET",
          "/api/v1/configs/notify_webhook",
          undefined,
          200,
        );
        assert.ok(config.key_values.some((kv) => kv.key === "endpoint"));
        await root.request("POST", "/api/v1/service/restart", {}).then((r) => assert.equal(r.status, 204));
        const { arns } = await root.json<{ arns: string[] }>("GET", "/api/v1/admin/arns", undefined, 200);
        const arn = arns.find((a) => a.includes(":hook1:webhook"));
        assert.ok(arn, `webhook ARN listed: ${arns.join(", ")}`);
        await root.json("POST", "/api/v1/buckets/photos/events", {
          configuration: { arn, events: ["put", "delete"], prefix: "raw/", suffix: ".jpg" },
          ignoreExisting: true,
        }, 201);
        await root.json("POST", "/api/v1/buckets/photos/events", {
          configuration: { arn, events: ["put"], prefix: "raw/", suffix: ".jpg" },
          ignoreExisting: true,
        }, 409);
        await root.json("POST", "/api/v1/buckets/photos/events", {
          configuration: { arn: "arn:minio:sqs::nope:webhook", events: ["put"] },
        }, 400);
        const listed = await root.json<
          { events: { arn: string; events: string[]; prefix: string; suffix: string }[] }
        >("GET", "/api/v1/buckets/photos/events", undefined, 200);
        assert.deepEqual(
          listed.events.map(({ arn, events, prefix, suffix }) => ({ arn, events, prefix, suffix })),
          [{ arn, events: ["put", "delete"], prefix: "raw/", suffix: ".jpg" }],
        );
        const del = await root.request(
          "DELETE",
          `/api/v1/buckets/photos/events/${encodeURIComponent(arn!)}`,
          { events: ["put", "delete"], prefix: "raw/", suffix: ".jpg" },
        );
        assert.equal(del.status, 204);
        assert.deepEqual(
          (await root.json<{ events: unknown[] }>("GET", "/api/v1/buckets/photos/events", undefined, 200))
            .events,
          [],
        );
      },
    );

    await t.step("replication to a second embedded server; one bucket fails and says why", async () => {
      await makeBucket(remoteAdmin, "photos-copy");
      await putBucketVersioning(remoteAdmin, "photos-copy", { status: "Enabled" });
      const remoteList = await root.json<{ buckets: { name: string }[] }>(
        "POST",
        "/api/v1/list-external-buckets",
        {
          accessKey: remote.root.accessKey,
          secretKey: remote.root.secretKey,
          targetURL: remote.url,
          useTLS: false,
        },
        200,
      );
      assert.deepEqual(remoteList.buckets.map((b) => b.name), ["photos-copy"]);
      await root.json("POST", "/api/v1/list-external-buckets", {
        accessKey: remote.root.accessKey,
        secretKey: "wrong-secret",
        targetURL: remote.url,
        useTLS: false,
      }, 400);
      const result = await root.json<{ replicationState: { originBucket: string; errorString: string }[] }>(
        "POST",
        "/api/v1/buckets-replication",
        {
          accessKey: remote.root.accessKey,
          secretKey: remote.root.secretKey,
          targetURL: remote.url,
          syncMode: "async",
          bandwidth: 107374182400,
          healthCheckPeriod: 60,
          tags: "team=ops&empty=",
          bucketsRelation: [{ originBucket: "photos", destinationBucket: "photos-copy" }, {
            originBucket: "vault",
            destinationBucket: "no-such-bucket",
          }],
        },
        200,
      );
      assert.equal(result.replicationState[0].errorString, "");
      assert.match(result.replicationState[1].errorString, /does not exist|refused/);
      const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const closedPort = (closed.addr as Deno.NetAddr).port;
      closed.close();
      const unreachable = await root.json<{ replicationState: { errorString: string }[] }>(
        "POST",
        "/api/v1/buckets-replication",
        {
          accessKey: remote.root.accessKey,
          secretKey: remote.root.secretKey,
          targetURL: `http://127.0.0.1:${closedPort}`,
          bucketsRelation: [{ originBucket: "vault", destinationBucket: "photos-copy" }],
        },
        200,
      );
      assert.match(
        unreachable.replicationState[0].errorString,
        /not available|refused|connect/i,
        "an unreachable target says so",
      );
      const rules = await root.json<
        { rules: { id: string; destination: { bucket: string }; tags: string; priority: number }[] }
      >("GET", "/api/v1/buckets/photos/replication", undefined, 200);
      assert.equal(rules.rules.length, 1);
      assert.equal(rules.rules[0].destination.bucket, "arn:aws:s3:::photos-copy");
      assert.equal(rules.rules[0].tags, "team=ops");
      assert.deepEqual(
        (await root.json<{ rules: unknown[] }>("GET", "/api/v1/buckets/vault/replication", undefined, 200))
          .rules,
        [],
        "nothing half-applied on the failing bucket",
      );
      const del = await root.request("DELETE", `/api/v1/buckets/photos/replication/${rules.rules[0].id}`);
      assert.equal(del.status, 204);
      assert.deepEqual(
        (await root.json<{ rules: unknown[] }>("GET", "/api/v1/buckets/photos/replication", undefined, 200))
          .rules,
        [],
      );
    });

    await t.step(
      "lifecycle: expiry and a transition to a tier; duplicates and empty rules refused; disable",
      async () => {
        await makeBucket(remoteAdmin, "cold");
        await addTier(stack.admin, {
          Version: "v1",
          Type: "minio",
          Name: "COLD",
          MinIO: {
            Endpoint: remote.url,
            AccessKey: remote.root.accessKey,
            SecretKey: remote.root.secretKey,
            Bucket: "cold",
            Prefix: "",
            Region: "",
          },
        });
        const tiers = await root.json<{ items: { type: string; minio?: { name: string } }[] }>(
          "GET",
          "/api/v1/admin/tiers",
          undefined,
          200,
        );
        assert.equal(tiers.items[0].minio?.name, "COLD");
        assert.doesNotMatch(JSON.stringify(tiers), /secret/i);
        await root.json("POST", "/api/v1/buckets/photos/lifecycle", {
          prefix: "logs/",
          expiry_days: 30,
          tags: "kind=log",
        }, 201);
        await root.json("POST", "/api/v1/buckets/photos/lifecycle", {
          prefix: "logs/",
          expiry_days: 60,
          tags: "kind=log",
        }, 409);
        await root.json("POST", "/api/v1/buckets/photos/lifecycle", { prefix: "empty/" }, 400);
        const twice = await root.json<{ message: string }>("POST", "/api/v1/buckets/photos/lifecycle", {
          prefix: "tmp/",
          expiry_days: 1,
          tags: "env=a&env=b",
        }, 400);
        assert.equal(twice.message, "The tag key env is used twice; each key can have one value");
        await root.json("POST", "/api/v1/buckets/photos/lifecycle", {
          prefix: "tmp/",
          expiry_days: 1,
          tags: "env=%E0%A4%A",
        }, 400);
        await root.json(
          "POST",
          "/api/v1/buckets/photos/lifecycle",
          { prefix: "old/", transition_days: 7 },
          400,
        );
        await root.json("POST", "/api/v1/buckets/photos/lifecycle", {
          prefix: "old/",
          transition_date: "2030-02-30T23:59:59Z",
          storage_class: "COLD",
        }, 400);
        await root.json("POST", "/api/v1/buckets/photos/lifecycle", {
          prefix: "old/",
          transition_date: "2030-01-15T23:59:59Z",
          storage_class: "COLD",
        }, 201);
        const { lifecycle } = await root.json<
          {
            lifecycle: {
              id: string;
              prefix: string;
              status: string;
              expiration: { days: number; date: string };
              transition: { date: string; storage_class: string };
            }[];
          }
        >(
          "GET",
          "/api/v1/buckets/photos/lifecycle",
          undefined,
          200,
        );
        assert.equal(lifecycle.length, 2);
        const logs = lifecycle.find((r) => r.prefix === "logs/")!;
        assert.equal(logs.expiration.days, 30);
        assert.equal(logs.transition.date, "0001-01-01T00:00:00Z");
        const old = lifecycle.find((r) => r.prefix === "old/")!;
        assert.equal(old.transition.storage_class, "COLD");
        assert.match(old.transition.date, /^2030-01-15/);
        await root.json("PUT", `/api/v1/buckets/photos/lifecycle/${old.id}`, { disable: true }, 200);
        const after = await root.json<{ lifecycle: { id: string; status: string }[] }>(
          "GET",
          "/api/v1/buckets/photos/lifecycle",
          undefined,
          200,
        );
        assert.equal(after.lifecycle.find((r) => r.id === old.id)?.status, "Disabled");
      },
    );

    await t.step("a non-empty bucket cannot be deleted; an empty one can", async () => {
      await putObject(stack.admin, "vault", "keep.txt", "x");
      const res = await root.request("DELETE", "/api/v1/buckets/vault");
      assert.equal(res.status, 409);
      assert.equal((await res.json()).message, "bucket is not empty");
      assert.equal(await (await getObject(stack.admin, "vault", "keep.txt")).text(), "x");
      await root.json("POST", "/api/v1/buckets", { name: "scratch" }, 201);
      assert.equal((await root.request("DELETE", "/api/v1/buckets/scratch")).status, 204);
    });
  } finally {
    await webhook.shutdown();
    await remote.close();
    await stack.close();
  }
});
