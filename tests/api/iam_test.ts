/**
 * IAM API scenarios (api-index §4) against the real embedded storage server: the auth matrix for every
 * endpoint (no session → 401, narrow user → 403, admin → the documented status), then edge cases. A change
 * that fails part way: iam_rollback_test.ts.
 */
import assert from "node:assert/strict";
import { S3Client } from "../../server/lib/s3/client.ts";
import { getObject, listBuckets, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { addCannedPolicy } from "../../server/lib/s3/admin/iam.ts";
import { ConsoleClient, runScenarios, type Scenario, signIn, signInAsRoot, startStack } from "../helpers.ts";
import { READ_POLICY } from "./iam_policies.ts";

/** Every IAM endpoint refuses without a session and without the permission. */
const AUTH_MATRIX: [string, string, unknown?][] = [
  ["GET", "/api/v1/users"],
  ["POST", "/api/v1/users", { accessKey: "x-user", secretKey: "x-secret-1", groups: [], policies: [] }],
  ["GET", "/api/v1/user?name=alice"],
  ["PUT", "/api/v1/user?name=alice", { status: "disabled", groups: [] }],
  ["DELETE", "/api/v1/user?name=alice"],
  ["PUT", "/api/v1/users-groups-bulk", { users: ["alice"], groups: ["devs"] }],
  ["PUT", "/api/v1/set-policy/readonly", { entityName: "alice", entityType: "user" }],
  ["GET", "/api/v1/user/access-check?name=alice&action=s3:GetObject&resource=reports/a"],
  ["GET", "/api/v1/groups"],
  ["POST", "/api/v1/groups", { group: "g-x", members: [] }],
  ["GET", "/api/v1/group?name=devs"],
  ["PUT", "/api/v1/group?name=devs", { members: [], status: "enabled" }],
  ["DELETE", "/api/v1/group?name=devs"],
  ["GET", "/api/v1/policies?limit=1000"],
  ["POST", "/api/v1/policies", { name: "p-x", policy: READ_POLICY }],
  ["GET", "/api/v1/policy?name=readonly"],
  ["DELETE", "/api/v1/policy?name=readonly"],
  ["GET", "/api/v1/policies/readonly/users"],
  ["GET", "/api/v1/policies/readonly/groups"],
  ["GET", "/api/v1/user/alice/service-accounts"],
  ["POST", "/api/v1/user/alice/service-accounts", {}],
  ["POST", "/api/v1/account/change-user-password", { selectedUser: "alice", newSecretKey: "another-secret" }],
];

Deno.test("IAM endpoints: auth matrix and admin flows", async (t) => {
  const stack = await startStack();
  try {
    const matrix: Scenario[] = AUTH_MATRIX.flatMap(([method, path, body]) => [
      { name: "no session", as: "none" as const, method, path, body, status: 401 },
      { name: "user without IAM permissions", as: "narrow" as const, method, path, body, status: 403 },
    ]);
    await runScenarios(t, stack, matrix);

    const admin = await signInAsRoot(stack);
    await addCannedPolicy(stack.admin, "read-reports", READ_POLICY);

    await runScenarios(t, stack, [
      {
        name: "create a user with a group and a policy",
        as: "root",
        method: "POST",
        path: "/api/v1/users",
        body: {
          accessKey: "alice",
          secretKey: "alice-secret-1",
          groups: ["devs"],
          policies: ["read-reports"],
        },
        status: 201,
        check: (body) =>
          assert.deepEqual(body, {
            accessKey: "alice",
            status: "enabled",
            memberOf: ["devs"],
            policy: ["read-reports"],
            hasPolicy: true,
          }),
      },
      {
        name: "duplicate user",
        as: "root",
        method: "POST",
        path: "/api/v1/users",
        body: { accessKey: "alice", secretKey: "alice-secret-2", groups: [], policies: [] },
        status: 409,
      },
      {
        name: "short secret",
        as: "root",
        method: "POST",
        path: "/api/v1/users",
        body: { accessKey: "bob", secretKey: "short", groups: [], policies: [] },
        status: 400,
        check: (body) =>
          assert.equal(
            (body as { fields: Record<string, string> }).fields.secretKey,
            "Passwords must be at least 8 characters long",
          ),
      },
      {
        name: "a 41-character secret: the message says too long, not too short",
        as: "root",
        method: "POST",
        path: "/api/v1/users",
        body: { accessKey: "bob", secretKey: "x".repeat(41), groups: [], policies: [] },
        status: 400,
        check: (body) =>
          assert.equal((body as { message: string }).message, "Passwords must be at most 40 characters long"),
      },
      {
        name: "blank access key: the message names the field as a user reads it, not 'AccessKey:'",
        as: "root",
        method: "POST",
        path: "/api/v1/users",
        body: { accessKey: "   ", secretKey: "long-enough", groups: [], policies: [] },
        status: 400,
        check: (body) => {
          const { message, detailedMessage } = body as { message: string; detailedMessage: string };
          assert.match(message, /^The access key /);
          assert.doesNotMatch(`${message}\n${detailedMessage}`, /accessKey|AccessKey|secretKey|SecretKey/);
        },
      },
      {
        name: "unknown policy: refused before anything is created",
        as: "root",
        method: "POST",
        path: "/api/v1/users",
        body: { accessKey: "carol", secretKey: "carol-secret-1", groups: [], policies: ["no-such-policy"] },
        status: 400,
        check: (body) => assert.equal((body as { message: string }).message, "unknown policy no-such-policy"),
      },
      {
        name: "…and carol does not exist",
        as: "root",
        method: "GET",
        path: "/api/v1/user?name=carol",
        status: 404,
      },
      {
        name: "list users",
        as: "root",
        method: "GET",
        path: "/api/v1/users",
        status: 200,
        check: (body) =>
          assert.deepEqual((body as { users: { accessKey: string }[] }).users.map((u) => u.accessKey), [
            "alice",
            "narrow-user",
          ]),
      },
      { name: "missing name", as: "root", method: "GET", path: "/api/v1/user", status: 400 },
      {
        name: "disable alice, keep her groups",
        as: "root",
        method: "PUT",
        path: "/api/v1/user?name=alice",
        body: { status: "disabled", groups: ["devs"] },
        status: 200,
        check: (body) => assert.equal((body as { status: string }).status, "disabled"),
      },
      {
        name: "bad status value",
        as: "root",
        method: "PUT",
        path: "/api/v1/user?name=alice",
        body: { status: "maybe", groups: [] },
        status: 400,
      },
      {
        name: "effective access: allowed by read-reports statement 0",
        as: "root",
        method: "GET",
        path: "/api/v1/user/access-check?name=alice&action=s3:GetObject&resource=arn:aws:s3:::reports/q1.csv",
        status: 200,
        check: (body) => {
          const check = body as { allowed: boolean; policy: string; statementIndex: number; reason: string };
          assert.equal(check.allowed, false, "alice is disabled");
          assert.equal(check.policy, "read-reports");
          assert.equal(check.statementIndex, 0);
          assert.match(check.reason, /disabled/);
        },
      },
      {
        name: "enable alice again",
        as: "root",
        method: "PUT",
        path: "/api/v1/user?name=alice",
        body: { status: "enabled", groups: ["devs"] },
        status: 200,
      },
      {
        name: "effective access: a write is denied, no statement allows it",
        as: "root",
        method: "GET",
        path: "/api/v1/user/access-check?name=alice&action=s3:PutObject&resource=reports/q1.csv",
        status: 200,
        check: (body) => assert.equal((body as { allowed: boolean }).allowed, false),
      },
      {
        name: "group detail",
        as: "root",
        method: "GET",
        path: "/api/v1/group?name=devs",
        status: 200,
        check: (body) => assert.deepEqual((body as { members: string[] }).members, ["alice"]),
      },
      {
        name: "create an empty group",
        as: "root",
        method: "POST",
        path: "/api/v1/groups",
        body: { group: "ops", members: [] },
        status: 201,
      },
      {
        name: "duplicate group",
        as: "root",
        method: "POST",
        path: "/api/v1/groups",
        body: { group: "ops", members: [] },
        status: 409,
      },
      {
        name: "blank group name",
        as: "root",
        method: "POST",
        path: "/api/v1/groups",
        body: { group: " ", members: [] },
        status: 400,
      },
      {
        name: "add users to groups in bulk",
        as: "root",
        method: "PUT",
        path: "/api/v1/users-groups-bulk",
        body: { users: ["alice", "narrow-user"], groups: ["ops"] },
        status: 200,
      },
      {
        name: "list groups",
        as: "root",
        method: "GET",
        path: "/api/v1/groups",
        status: 200,
        check: (body) => assert.deepEqual(body, { groups: ["devs", "ops"], total: 2 }),
      },
      {
        name: "set a group's policy",
        as: "root",
        method: "PUT",
        path: "/api/v1/set-policy/readonly",
        body: { entityName: "ops", entityType: "group" },
        status: 204,
      },
      {
        name: "policy users",
        as: "root",
        method: "GET",
        path: "/api/v1/policies/read-reports/users",
        status: 200,
        check: (body) => assert.deepEqual(body, ["alice"]),
      },
      {
        name: "policy groups",
        as: "root",
        method: "GET",
        path: "/api/v1/policies/readonly/groups",
        status: 200,
        check: (body) => assert.deepEqual(body, ["ops"]),
      },
      {
        name: "set no policies (the last one unticked)",
        as: "root",
        method: "PUT",
        path: "/api/v1/set-policy/",
        body: { entityName: "ops", entityType: "group" },
        status: 204,
      },
      {
        name: "…the group holds none",
        as: "root",
        method: "GET",
        path: "/api/v1/group?name=ops",
        status: 200,
        check: (body) => assert.equal((body as { policy: string }).policy, ""),
      },
      {
        name: "set a group's policy again",
        as: "root",
        method: "PUT",
        path: "/api/v1/set-policy/readonly",
        body: { entityName: "ops", entityType: "group" },
        status: 204,
      },
      {
        name: "remove a member and disable the group",
        as: "root",
        method: "PUT",
        path: "/api/v1/group?name=ops",
        body: { members: ["alice"], status: "disabled" },
        status: 200,
        check: (body) =>
          assert.deepEqual(body, { name: "ops", status: "disabled", members: ["alice"], policy: "readonly" }),
      },
      {
        name: "delete a group with members",
        as: "root",
        method: "DELETE",
        path: "/api/v1/group?name=ops",
        status: 204,
      },
      {
        name: "deleted group is gone",
        as: "root",
        method: "GET",
        path: "/api/v1/group?name=ops",
        status: 404,
      },
      {
        name: "policies sorted by name, with documents",
        as: "root",
        method: "GET",
        path: "/api/v1/policies?limit=1000",
        status: 200,
        check: (body) => {
          const names = (body as { policies: { name: string }[] }).policies.map((p) => p.name);
          assert.deepEqual(names, [...names].sort());
          assert.ok(names.includes("consoleAdmin") && names.includes("read-reports"));
        },
      },
      {
        name: "invalid policy names its line",
        as: "root",
        method: "POST",
        path: "/api/v1/policies",
        body: {
          name: "bad",
          policy:
            '{\n  "Version": "2012-10-17",\n  "Statement": [{"Effect": "Maybe", "Action": ["s3:GetObject"], "Resource": ["arn:aws:s3:::x/*"]}]\n}',
        },
        status: 400,
        check: (body) => assert.match((body as { message: string }).message, /line 3/),
      },
      {
        name: "malformed JSON policy",
        as: "root",
        method: "POST",
        path: "/api/v1/policies",
        body: { name: "bad", policy: "{" },
        status: 400,
      },
      {
        name: "the bad policy was not stored",
        as: "root",
        method: "GET",
        path: "/api/v1/policy?name=bad",
        status: 404,
      },
      {
        name: "create a policy",
        as: "root",
        method: "POST",
        path: "/api/v1/policies",
        body: {
          name: "list-only",
          policy: JSON.stringify({
            Version: "2012-10-17",
            Statement: [{ Effect: "Allow", Action: ["s3:ListAllMyBuckets"], Resource: ["arn:aws:s3:::*"] }],
          }),
        },
        status: 201,
        check: (body) => assert.equal((body as { name: string }).name, "list-only"),
      },
      {
        name: "read it",
        as: "root",
        method: "GET",
        path: "/api/v1/policy?name=list-only",
        status: 200,
        check: (body) => assert.match((body as { policy: string }).policy, /ListAllMyBuckets/),
      },
      { name: "delete it", as: "root", method: "DELETE", path: "/api/v1/policy?name=list-only", status: 204 },
      {
        name: "set policy with an unknown name",
        as: "root",
        method: "PUT",
        path: "/api/v1/set-policy/nope",
        body: { entityName: "alice", entityType: "user" },
        status: 404,
      },
      {
        name: "bad entity type",
        as: "root",
        method: "PUT",
        path: "/api/v1/set-policy/readonly",
        body: { entityName: "alice", entityType: "robot" },
        status: 400,
      },
      {
        name: "change another user's password",
        as: "root",
        method: "POST",
        path: "/api/v1/account/change-user-password",
        body: { selectedUser: "alice", newSecretKey: "alice-secret-9" },
        status: 201,
      },
      {
        name: "change another user's password: too short",
        as: "root",
        method: "POST",
        path: "/api/v1/account/change-user-password",
        body: { selectedUser: "alice", newSecretKey: "short" },
        status: 400,
      },
    ]);

    await t.step("the new password signs in, the old one does not", async () => {
      await signIn(stack, "alice", "alice-secret-9");
      const res = await new ConsoleClient(stack.consoleUrl).request("POST", "/api/v1/login", {
        accessKey: "alice",
        secretKey: "alice-secret-1",
      });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });

    await t.step("you cannot delete yourself; deleting another user works", async () => {
      await createRootlessAdmin(admin);
      const self = await signIn(stack, "admin2", "admin2-secret");
      const res = await self.request("DELETE", "/api/v1/user?name=admin2");
      assert.equal(res.status, 403);
      assert.equal((await res.json()).message, "logged in user cannot be deleted by itself");
      const other = await self.request("DELETE", "/api/v1/user?name=narrow-user");
      assert.equal(other.status, 204);
    });

    await t.step(
      "service accounts: custom credentials with a restricting policy work against the storage server",
      async () => {
        // alice may only read reports/*; give her a policy that also lists buckets, then restrict the key to reading.
        await admin.json("POST", "/api/v1/policies", {
          name: "alice-wide",
          policy: JSON.stringify({
            Version: "2012-10-17",
            Statement: [{
              Effect: "Allow",
              Action: [
                "s3:*",
                "admin:CreateServiceAccount",
                "admin:ListServiceAccounts",
                "admin:RemoveServiceAccount",
              ],
              Resource: ["arn:aws:s3:::*"],
            }],
          }),
        }, 201);
        await admin.json(
          "PUT",
          "/api/v1/set-policy/alice-wide",
          { entityName: "alice", entityType: "user" },
          204,
        );
        const aliceNow = await signIn(stack, "alice", "alice-secret-9");
        const restricted = JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::reports/*"] }],
        });
        const created = await aliceNow.request("POST", "/api/v1/service-account-credentials", {
          policy: restricted,
          accessKey: "alice-key-1",
          secretKey: "alice-key-secret-1",
        });
        assert.equal(created.status, 201);
        assert.equal(
          created.headers.get("cache-control"),
          "no-store",
          "a response carrying a secret is never cached",
        );
        const creds = await created.json() as { accessKey: string; secretKey: string };
        assert.deepEqual(creds, { accessKey: "alice-key-1", secretKey: "alice-key-secret-1" });
        const list = await aliceNow.json<string[]>("GET", "/api/v1/service-accounts", undefined, 200);
        assert.deepEqual(list, ["alice-key-1"]);
        const byAdmin = await admin.json<string[]>(
          "GET",
          "/api/v1/user/alice/service-accounts",
          undefined,
          200,
        );
        assert.deepEqual(byAdmin, ["alice-key-1"]);
        // The key pair is real: it reads reports/*, and the restriction holds (writing is refused though alice may).
        await makeBucket(stack.admin, "reports");
        await putObject(stack.admin, "reports", "q1.csv", new TextEncoder().encode("a,b\n"));
        const key = new S3Client({
          endpoint: stack.storage.url,
          credentials: { accessKey: creds.accessKey, secretKey: creds.secretKey },
        });
        assert.equal(await (await getObject(key, "reports", "q1.csv")).text(), "a,b\n");
        await assert.rejects(
          putObject(key, "reports", "q2.csv", new TextEncoder().encode("x")),
          /Access Denied|AccessDenied/,
        );
        const generated = await admin.json<{ accessKey: string; secretKey: string }>(
          "POST",
          "/api/v1/user/alice/service-accounts",
          { policy: "" },
          201,
        );
        assert.ok(generated.accessKey.length >= 3 && generated.secretKey.length >= 8);
        await assert.doesNotReject(
          listBuckets(new S3Client({ endpoint: stack.storage.url, credentials: generated })),
        );
        const bad = await aliceNow.request("POST", "/api/v1/service-accounts", {
          policy: '{"Version": "2012-10-17", "Statement": "nope"}',
        });
        assert.equal(bad.status, 400);
        await bad.body?.cancel();
        assert.equal((await aliceNow.request("DELETE", "/api/v1/service-accounts/alice-key-1")).status, 204);
        assert.deepEqual(await aliceNow.json<string[]>("GET", "/api/v1/service-accounts", undefined, 200), [
          generated.accessKey,
        ]);
      },
    );

    await t.step(
      "change own password: wrong current → 403; right one renews the session cookie",
      async () => {
        const alice = await signIn(stack, "alice", "alice-secret-9");
        const wrong = await alice.request("POST", "/api/v1/account/change-password", {
          current_secret_key: "not-it-at-all",
          new_secret_key: "alice-secret-10",
        });
        assert.equal(wrong.status, 403);
        await wrong.body?.cancel();
        const mismatchShort = await alice.request("POST", "/api/v1/account/change-password", {
          current_secret_key: "alice-secret-9",
          new_secret_key: "short",
        });
        assert.equal(mismatchShort.status, 400);
        await mismatchShort.body?.cancel();
        const before = alice.cookie;
        await alice.json("POST", "/api/v1/account/change-password", {
          current_secret_key: "alice-secret-9",
          new_secret_key: "alice-secret-10",
        }, 201);
        assert.notEqual(alice.cookie, before, "a new session cookie is issued");
        await alice.json("GET", "/api/v1/session", undefined, 200);
        await signIn(stack, "alice", "alice-secret-10");
      },
    );
  } finally {
    await stack.close();
  }

  async function createRootlessAdmin(admin: ConsoleClient) {
    await admin.json("POST", "/api/v1/users", {
      accessKey: "admin2",
      secretKey: "admin2-secret",
      groups: [],
      policies: ["consoleAdmin"],
    }, 201);
  }
});
