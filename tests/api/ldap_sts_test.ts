/**
 * AssumeRoleWithLDAPIdentity and the idp/ldap admin calls of the embedded storage against a real OpenLDAP
 * (tests/ldap_directory.ts), over HTTP as any MinIO client calls them.
 */
import assert from "node:assert/strict";
import { changeLdapPolicies, ldapPolicyEntities } from "../../server/lib/s3/admin/ldap.ts";
import { setPolicy } from "../../server/lib/s3/admin/iam.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { S3Error } from "../../server/lib/s3/errors.ts";
import { assumeRoleWithLdapIdentity, type TemporaryCredentials } from "../../server/lib/s3/sts.ts";
import { listBuckets, makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { eventually } from "../eventually.ts";
import { startStack } from "../helpers.ts";
import { configureLdap, ESCAPED, GROUP_DNS, startDirectory, USERS } from "../ldap_directory.ts";
import { freePort } from "../storage_process.ts";

Deno.test("LDAP sign-in on the embedded storage against OpenLDAP", async (t) => {
  const directory = await startDirectory();
  const stack = await startStack({ ldapCheckMs: 100 });
  try {
    const url = stack.storage.url;
    const sts = (username: string, password: string) =>
      assumeRoleWithLdapIdentity(url, fetch, { username, password });
    const refusal = async (username: string, password: string) => {
      const error = await sts(username, password).then(() => null, (e) => e);
      assert.ok(error instanceof S3Error, `refused ${username}: ${error}`);
      return error as S3Error;
    };
    const client = (c: TemporaryCredentials) =>
      new S3Client({
        endpoint: url,
        credentials: { accessKey: c.accessKey, secretKey: c.secretKey, sessionToken: c.sessionToken },
      });

    await configureLdap(stack.admin, directory.settings);
    await makeBucket(stack.admin, "shared");

    await t.step("a user with no mapped policy is refused with MinIO's words, naming the DN", async () => {
      const error = await refusal("alice", USERS.alice.password);
      assert.equal(error.code, "InvalidParameterValue");
      assert.match(
        error.message,
        /expecting a policy to be set for user `uid=alice,ou=people,dc=deck,dc=test` or one of their groups: `cn=readers,ou=groups,dc=deck,dc=test`/,
      );
    });

    await t.step("policies attach by DN (group) and by login name (user); entities list them", async () => {
      assert.deepEqual(
        await changeLdapPolicies(stack.admin, "attach", {
          policies: ["readonly"],
          group: GROUP_DNS.readers.toUpperCase(),
        }),
        ["readonly"],
      );
      assert.deepEqual(
        await changeLdapPolicies(stack.admin, "attach", { policies: ["readwrite"], user: "bob" }),
        ["readwrite"],
      );
      await setPolicy(stack.admin, ["consoleAdmin"], GROUP_DNS.admins, true);
      const all = await ldapPolicyEntities(stack.admin);
      assert.deepEqual(all.userMappings, [{ user: USERS.bob.dn, policies: ["readwrite"] }]);
      assert.deepEqual(all.groupMappings, [
        { group: GROUP_DNS.admins, policies: ["consoleAdmin"] },
        { group: GROUP_DNS.readers, policies: ["readonly"] },
      ]);
      const byPolicy = await ldapPolicyEntities(stack.admin, { policies: ["readonly"] });
      assert.deepEqual(byPolicy.policyMappings, [{
        policy: "readonly",
        users: [],
        groups: [GROUP_DNS.readers],
      }]);
      const again = await changeLdapPolicies(stack.admin, "attach", {
        policies: ["readwrite"],
        user: USERS.bob.dn,
      })
        .then(() => null, (e) => e);
      assert.equal(again?.code, "XMinioAdminPolicyChangeAlreadyApplied");
      const unknown = await changeLdapPolicies(stack.admin, "attach", {
        policies: ["readonly"],
        user: "nobody",
      })
        .then(() => null, (e) => e);
      assert.equal(unknown?.code, "XMinioAdminNoSuchUser");
      const noGroup = await changeLdapPolicies(stack.admin, "attach", {
        policies: ["readonly"],
        group: "cn=ghosts,dc=deck,dc=test",
      })
        .then(() => null, (e) => e);
      assert.equal(noGroup?.code, "XMinioAdminNoSuchGroup");
    });

    await t.step("group members get the group's policy, users their own, as the policy allows", async () => {
      const alice = client(await sts("alice", USERS.alice.password));
      assert.deepEqual((await listBuckets(alice)).map((b) => b.name), ["shared"]);
      await assert.rejects(makeBucket(alice, "alices"), (e: S3Error) => e.code === "AccessDenied");
      const bob = client(await sts("bob", USERS.bob.password));
      await makeBucket(bob, "bobs");
    });

    await t.step("a name and password with special characters sign in; the name is no filter", async () => {
      const dana = client(await sts(ESCAPED.uid, ESCAPED.password));
      assert.ok((await listBuckets(dana)).length >= 1);
      for (const name of ["*", "alice)(uid=*", "al*", "*)(|(uid=*"]) {
        const error = await refusal(name, USERS.alice.password);
        assert.match(error.message, /User DN not found for/, name);
      }
    });

    await t.step("wrong password, empty password, disabled account: refused", async () => {
      assert.match((await refusal("alice", "wrong")).message, /LDAP auth failed for DN uid=alice/);
      assert.match((await refusal("alice", "")).message, /cannot be empty/);
      assert.match((await refusal("dave", USERS.dave.password)).message, /User DN not found for: dave/);
    });

    await t.step("a session ends when the directory disables the account", async () => {
      const creds = await sts("bob", USERS.bob.password);
      const bob = client(creds);
      await listBuckets(bob);
      await directory.modify(
        `dn: ${USERS.bob.dn}\nchangetype: modify\nadd: employeeType\nemployeeType: disabled\n`,
      );
      await eventually(
        "bob's session to end",
        () => listBuckets(bob).then(() => false, (e) => e instanceof S3Error),
      );
      await directory.modify(`dn: ${USERS.bob.dn}\nchangetype: modify\ndelete: employeeType\n`);
    });

    await t.step("a wrong lookup password and an unreachable directory say so", async () => {
      await configureLdap(stack.admin, { ...directory.settings, lookup_bind_password: "nope" });
      assert.match(
        (await refusal("alice", USERS.alice.password)).message,
        /Lookup Bind user invalid credentials/,
      );
      const closed = await freePort();
      await configureLdap(stack.admin, { ...directory.settings, server_addr: `127.0.0.1:${closed}` });
      assert.match(
        (await refusal("alice", USERS.alice.password)).message,
        new RegExp(`127\\.0\\.0\\.1:${closed} \\(plain LDAP, no TLS\\) cannot be reached`),
      );
    });

    await t.step("username-format mode binds with the DN made from the name", async () => {
      await configureLdap(stack.admin, {
        server_addr: directory.address,
        server_insecure: "on",
        username_format: `uid=%s,ou=people,dc=deck,dc=test;uid=%s,ou=staff,dc=deck,dc=test`,
        group_search_base_dn: "ou=groups,dc=deck,dc=test",
        group_search_filter: "(&(objectClass=groupOfNames)(member=%d))",
      });
      const carol = client(await sts("carol", USERS.carol.password));
      assert.ok((await listBuckets(carol)).length >= 2);
      const dana = client(await sts(ESCAPED.uid, ESCAPED.password));
      await listBuckets(dana);
      assert.match((await refusal("erin", "wrong")).message, /LDAP auth failed/);
    });
  } finally {
    await stack.close();
    await directory.stop();
  }
});
