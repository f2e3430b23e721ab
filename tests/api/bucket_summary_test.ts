/**
 * GET /api/v1/buckets/{bucket}/summary (the bucket Summary's one view model, for the page and the island's
 * reload) against the real embedded storage: no session, a user the bucket is hidden from, a restricted user
 * whose denied cards say so, an admin who sees every setting, and a single-drive server that shows (and
 * reads) none of the distributed-only cards.
 */
import assert from "node:assert/strict";
import type { BucketSummaryView } from "../../server/lib/contract/buckets.ts";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import {
  createUser,
  runScenarios,
  type Scenario,
  signIn,
  signInAsRoot,
  startStack,
  TEST_KMS_KEY,
} from "../helpers.ts";

/** Everything on the bucket but its versioning; quotas need admin rights, which this user lacks. */
const RESTRICTED_POLICY = {
  name: "shared-without-versioning",
  document: {
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"] },
      { Effect: "Deny", Action: ["s3:GetBucketVersioning"], Resource: ["arn:aws:s3:::shared"] },
    ],
  },
};

const VAULT = "vault.2026-q1";
const summaryOf = (bucket: string) => `/api/v1/buckets/${encodeURIComponent(bucket)}/summary`;

Deno.test("API: a bucket's Summary, one view model with an auth matrix", async (t) => {
  const stack = await startStack({ env: { MINIO_KMS_SECRET_KEY: TEST_KMS_KEY } });
  try {
    const root = await signInAsRoot(stack);
    await root.json("POST", "/api/v1/buckets", {
      name: VAULT,
      versioning: true,
      locking: true,
      quota: { enabled: true, quota_type: "hard", amount: 1024 ** 3 },
      retention: { mode: "governance", unit: "years", validity: 1 },
    }, 201);
    await root.json("POST", `/api/v1/buckets/${VAULT}/encryption/enable`, { encType: "sse-s3" }, 200);
    await putObject(stack.admin, VAULT, "reports/2026 Q1 ünïcode 📈.txt", "twelve bytes");
    await makeBucket(stack.admin, "shared");
    await makeBucket(stack.admin, "private-stuff");
    await createUser(stack, "auditor", "auditor-secret-1", [RESTRICTED_POLICY]);
    const auditor = await signIn(stack, "auditor", "auditor-secret-1");

    const scenarios: Scenario[] = [
      { name: "no session", as: "none", method: "GET", path: summaryOf("shared"), status: 401 },
      {
        name: "a bucket hidden from the user is denied as a whole",
        as: "narrow",
        method: "GET",
        path: summaryOf("private-stuff"),
        status: 403,
        check: (b) => assert.equal((b as { message: string }).message, "access denied"),
      },
      {
        name: "restricted user: denied cards say so, readable ones show their value",
        client: auditor,
        as: "none",
        method: "GET",
        path: summaryOf("shared"),
        status: 200,
        check: (b) => {
          const view = b as BucketSummaryView;
          assert.deepEqual(view.cards, [
            "access",
            "encryption",
            "usage",
            "replication",
            "locking",
            "versioning",
            "quota",
          ]);
          assert.deepEqual(view.unavailable, { versioning: "access denied", quota: "access denied" });
          assert.equal(view.versioning, null, "a denied read is not turned into 'Disabled'");
          assert.equal(view.quota, null);
          assert.deepEqual(view.encryption, { type: "disabled", kmsKey: "" });
          assert.equal(view.locking, false);
          assert.equal(view.replication, false);
          assert.deepEqual(view.failures.map((f) => [f.section, f.status, f.message]), [
            ["Versioning", 403, "access denied"],
            ["Quota", 403, "access denied"],
          ]);
        },
      },
      {
        name: "restricted user, a bucket outside its rights: denied, not missing",
        client: auditor,
        as: "none",
        method: "GET",
        path: summaryOf("no-such-bucket"),
        status: 403,
      },
      {
        name: "admin: every setting, retention shown because locking is on",
        as: "root",
        method: "GET",
        path: summaryOf(VAULT),
        status: 200,
        check: (b) => {
          const view = b as BucketSummaryView;
          assert.deepEqual(view.cards, [
            "access",
            "encryption",
            "usage",
            "replication",
            "locking",
            "versioning",
            "quota",
            "retention",
          ]);
          assert.deepEqual(view.unavailable, {});
          assert.deepEqual(view.failures, []);
          assert.equal(view.access, "PRIVATE");
          assert.deepEqual(view.encryption, { type: "sse-s3", kmsKey: "" });
          assert.equal(view.versioning, true);
          assert.equal(view.locking, true);
          assert.equal(view.replication, false);
          assert.equal(view.replicationStatus, null);
          assert.deepEqual(view.quota, { quota: 1024 ** 3, type: "hard" });
          assert.deepEqual(view.retention, { mode: "governance", unit: "years", validity: 1 });
        },
      },
      {
        name: "admin: a missing bucket",
        as: "root",
        method: "GET",
        path: summaryOf("no-such-bucket"),
        status: 404,
      },
      {
        name: "admin: an impossible bucket name is refused before any storage call",
        as: "root",
        method: "GET",
        path: "/api/v1/buckets/shared%2Fsecret.txt/summary",
        status: 400,
      },
    ];
    await runScenarios(t, stack, scenarios);

    await t.step(
      "the Summary asks the storage only what its account info did not answer",
      async () => {
        // Account info reports each bucket's versioning, locking, replication and quota; root may read them
        // all, so none is asked for again. An unversioned bucket has no lock or replication configuration.
        const callsFor = async (bucket: string) => {
          const calls: string[] = [];
          const stopListening = stack.storage.streams.requests.sink((record) => calls.push(record.api));
          try {
            return {
              view: await root.json<BucketSummaryView>("GET", summaryOf(bucket), undefined, 200),
              calls,
            };
          } finally {
            stopListening();
          }
        };
        const asked = ["GetBucketVersioning", "GetBucketQuotaConfig", "GetBucketReplication"];
        const plain = await callsFor("shared");
        assert.deepEqual(
          [plain.view.versioning, plain.view.locking, plain.view.retention, plain.view.replication],
          [false, false, null, false],
        );
        assert.deepEqual(plain.view.quota, { quota: 0, type: "hard" });
        assert.ok(plain.calls.includes("AccountInfo"), plain.calls.join(", "));
        for (const api of [...asked, "GetObjectLockConfiguration"]) {
          assert.ok(!plain.calls.includes(api), `${api} in ${plain.calls.join(", ")}`);
        }
        // A locked bucket with a quota: the values come from account info too, and retention (which only the
        // lock configuration holds) is read.
        await root.json("PUT", `/api/v1/buckets/${VAULT}/quota`, {
          enabled: true,
          quota_type: "hard",
          amount: 2 * 1024 ** 3,
        }, 200);
        const locked = await callsFor(VAULT);
        assert.deepEqual([locked.view.versioning, locked.view.locking], [true, true]);
        assert.deepEqual(locked.view.quota, { quota: 2 * 1024 ** 3, type: "hard" });
        assert.equal(locked.view.retention?.mode, "governance");
        for (const api of asked) {
          assert.ok(!locked.calls.includes(api), `${api} in ${locked.calls.join(", ")}`);
        }
      },
    );

    await t.step("a change shows in the next read (the island's reload after a dialog)", async () => {
      await root.json("PUT", `/api/v1/buckets/${VAULT}/set-policy`, { access: "PUBLIC" }, 200);
      await root.json("PUT", `/api/v1/buckets/${VAULT}/quota`, { enabled: false }, 200);
      const view = await root.json<BucketSummaryView>("GET", summaryOf(VAULT), undefined, 200);
      assert.equal(view.access, "PUBLIC");
      assert.deepEqual(view.quota, { quota: 0, type: "hard" });
    });
  } finally {
    await stack.close();
  }
});

Deno.test("API: on a single-drive server the Summary shows no distributed-only card and carries no value for one", async () => {
  const stack = await startStack({ reportedBackend: "fs" });
  try {
    const root = await signInAsRoot(stack);
    await root.json("POST", "/api/v1/buckets", {
      name: "locked",
      locking: true,
      retention: { mode: "compliance", unit: "days", validity: 1 },
    }, 201);
    const view = await root.json<BucketSummaryView>("GET", summaryOf("locked"), undefined, 200);
    assert.deepEqual(view.cards, ["access", "encryption", "usage", "retention"]);
    assert.deepEqual(
      [view.versioning, view.replication, view.quota, view.replicationStatus],
      [null, null, null, null],
    );
    assert.deepEqual(view.retention, { mode: "compliance", unit: "days", validity: 1 });
    assert.deepEqual(view.failures, []);
  } finally {
    await stack.close();
  }
});
