/**
 * MinIO's own admin clients of every era get answers they can decode: list-service-accounts in the shape the
 * calling madmin understands (a list of access keys before madmin v2.2.0, objects since), and the built-in
 * policy attach/detach API with each era's statuses. Driven with Deck's admin client over HTTP, naming the
 * madmin version in the User-Agent and sending (or not) the Content-Type each era sends.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { adminJson, adminSend } from "../../server/lib/s3/admin/request.ts";
import { rejectsWith, startStorage } from "./fixture.ts";

const UA = (rest: string) => `MinIO (linux; amd64) ${rest}`;

Deno.test("list-service-accounts answers each madmin era in the shape it decodes", async () => {
  const f = await startStorage();
  try {
    await s3.addUser(f.root, "owner", "owner-secret-1");
    await s3.addServiceAccount(f.root, {
      targetUser: "owner",
      accessKey: "SVCKEY0001",
      secretKey: "service-secret-1",
    });
    const list = (userAgent?: string) =>
      adminJson<{ accounts: unknown[] }>(f.root, {
        method: "GET",
        op: "list-service-accounts",
        query: { user: "owner" },
        decrypt: true,
        headers: userAgent ? { "user-agent": userAgent } : {},
      });
    for (
      const agent of [
        UA("madmin-go/0.0.1"),
        UA("madmin-go/0.0.1 MinIO Console/v0.9.8"),
        UA("madmin-go/2.0.0 mc/RELEASE.2023-01-28T20-29-38Z"),
      ]
    ) {
      assert.deepEqual((await list(agent)).accounts, ["SVCKEY0001"], agent);
    }
    for (
      const agent of [
        UA("madmin-go/2.0.0 mc/RELEASE.2023-09-20T15-22-31Z"),
        UA("madmin-go/2.0.0"),
        UA("madmin-go/3.0.70"),
        UA("madmin-go/4.0.6 mc/RELEASE.2025-05-21T01-59-54Z"),
        undefined,
      ]
    ) {
      const [account] = (await list(agent)).accounts as {
        accessKey: string;
        parentUser: string;
        accountStatus: string;
      }[];
      assert.equal(account.accessKey, "SVCKEY0001", String(agent));
      assert.equal(account.parentUser, "owner");
      assert.equal(account.accountStatus, "on");
    }
    // Deck's own client reads either shape.
    assert.deepEqual((await s3.listServiceAccounts(f.root, "owner")).map((a) => a.accessKey), ["SVCKEY0001"]);
  } finally {
    await f.close();
  }
});

Deno.test("policy attach/detach, as madmin v3+ calls it: 200 with what changed, an error only when nothing would", async () => {
  const f = await startStorage();
  try {
    await s3.addUser(f.root, "alice", "alice-secret-1");
    await s3.updateGroupMembers(f.root, { group: "devs", members: ["alice"], isRemove: false });
    assert.deepEqual(
      await s3.changePolicyAssociation(f.root, "attach", {
        policies: ["readonly", "diagnostics"],
        user: "alice",
      }),
      ["readonly", "diagnostics"],
    );
    await rejectsWith(
      s3.changePolicyAssociation(f.root, "attach", { policies: ["readonly"], user: "alice" }),
      "XMinioAdminPolicyChangeAlreadyApplied",
    );
    assert.deepEqual(
      await s3.changePolicyAssociation(f.root, "attach", {
        policies: ["readonly", "readwrite"],
        user: "alice",
      }),
      ["readwrite"],
    );
    assert.deepEqual(
      await s3.changePolicyAssociation(f.root, "detach", {
        policies: ["readonly", "writeonly"],
        user: "alice",
      }),
      ["readonly"],
    );
    assert.equal((await s3.getUserInfo(f.root, "alice")).policyName, "diagnostics,readwrite");
    assert.deepEqual(
      await s3.changePolicyAssociation(f.root, "attach", { policies: ["readonly"], group: "devs" }),
      ["readonly"],
    );
    assert.equal((await s3.getGroupDescription(f.root, "devs")).policy, "readonly");
    await rejectsWith(
      s3.changePolicyAssociation(f.root, "attach", { policies: ["no-such-policy"], user: "alice" }),
      "XMinioAdminNoSuchPolicy",
    );
    await rejectsWith(
      s3.changePolicyAssociation(f.root, "attach", { policies: ["readonly"], user: "nobody" }),
      "XMinioAdminNoSuchUser",
    );
    await rejectsWith(
      s3.changePolicyAssociation(f.root, "attach", { policies: ["readonly"], group: "nogroup" }),
      "XMinioAdminNoSuchGroup",
    );
    await rejectsWith(
      s3.changePolicyAssociation(f.root, "attach", {
        policies: ["readonly"],
        user: f.storage.root.accessKey,
      }),
      "XMinioIAMActionNotAllowed",
    );
    await rejectsWith(
      s3.changePolicyAssociation(f.root, "attach", { policies: [], user: "alice" }),
      "XMinioAdminInvalidArgument",
    );
    // A user without the right may not.
    await rejectsWith(
      s3.changePolicyAssociation(f.as("alice", "alice-secret-1"), "attach", {
        policies: ["consoleAdmin"],
        user: "alice",
      }),
      "AccessDenied",
    );
  } finally {
    await f.close();
  }
});

Deno.test("policy attach/detach, as madmin v2 calls it (no Content-Type): 201 and 204 with no body, all or nothing", async () => {
  const f = await startStorage();
  try {
    await s3.addUser(f.root, "bob", "bob-secret-1");
    const call = (operation: string, body: unknown) =>
      adminSend(f.root, {
        method: "POST",
        op: `idp/builtin/policy/${operation}`,
        body,
        encrypt: true,
        headers: { "user-agent": UA("madmin-go/2.0.0 mc/RELEASE.2023-03-20T20-16-18Z") },
      });
    const attached = await call("attach", { policies: ["readonly"], user: "bob" });
    assert.equal(attached.status, 201);
    assert.equal(await attached.text(), "");
    await rejectsWith(
      call("attach", { policies: ["readonly", "diagnostics"], user: "bob" }),
      "XMinioPolicyAlreadyAttached",
    );
    assert.equal((await s3.getUserInfo(f.root, "bob")).policyName, "readonly", "nothing was half-applied");
    await rejectsWith(
      call("detach", { policies: ["readonly", "diagnostics"], user: "bob" }),
      "XMinioPolicyNotAttached",
    );
    const detached = await call("detach", { policies: ["readonly"], user: "bob" });
    assert.equal(detached.status, 204);
    await detached.body?.cancel();
    assert.equal((await s3.getUserInfo(f.root, "bob")).policyName, "");
    await rejectsWith(
      call("attach", { policies: ["readonly"], user: f.storage.root.accessKey }),
      "XMinioAdminNoSuchUser",
    );
  } finally {
    await f.close();
  }
});
