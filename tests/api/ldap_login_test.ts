/**
 * Directory users sign in to the console through the same form (CONSOLE_LDAP_ENABLED=auto), against a real
 * OpenLDAP; every refusal says which step failed without telling a wrong name from a wrong password.
 */
import assert from "node:assert/strict";
import { changeLdapPolicies } from "../../server/lib/s3/admin/ldap.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { CREDENTIALS_REFUSED } from "../../server/console/services/session_ldap.ts";
import { eventually } from "../eventually.ts";
import { ConsoleClient, signIn, signInAsRoot, startStack } from "../helpers.ts";
import { configureLdap, ESCAPED, GROUP_DNS, startDirectory, USERS } from "../ldap_directory.ts";
import { freePort } from "../storage_process.ts";

interface Refusal {
  code: number;
  message: string;
  detailedMessage: string;
}

Deno.test("console sign-in for directory users", async (t) => {
  const directory = await startDirectory();
  // Each refusal comes from an address of its own, so the sign-in throttle does not slow the test down.
  const stack = await startStack({ ldapCheckMs: 100, env: { CONSOLE_TRUST_FORWARDED: "on" } });
  let sender = 0;
  try {
    await configureLdap(stack.admin, directory.settings);
    await makeBucket(stack.admin, "team");
    await changeLdapPolicies(stack.admin, "attach", { policies: ["readonly"], group: GROUP_DNS.readers });
    await changeLdapPolicies(stack.admin, "attach", { policies: ["readwrite"], user: USERS.dave.dn });
    const refused = async (username: string, password: string, status: number) => {
      const client = new ConsoleClient(stack.consoleUrl);
      const res = await client.request(
        "POST",
        "/api/v1/login",
        { accessKey: username, secretKey: password },
        {
          "x-forwarded-for": `192.0.2.${++sender}`,
        },
      );
      const text = await res.text();
      assert.equal(res.status, status, text);
      return JSON.parse(text) as Refusal;
    };

    await t.step("a directory user signs in and sees what the group's policy allows", async () => {
      const alice = await signIn(stack, "alice", USERS.alice.password);
      const session = await alice.json<{ pages: string[] }>("GET", "/api/v1/session", undefined, 200);
      assert.ok(session.pages.includes("/object-browser"), session.pages.join(" "));
      assert.ok(
        !session.pages.includes("/identity/users") && !session.pages.includes("/users"),
        "readonly shows no user admin",
      );
      const buckets = await alice.json<{ buckets: { name: string }[] }>(
        "GET",
        "/api/v1/buckets",
        undefined,
        200,
      );
      assert.deepEqual(buckets.buckets.map((b) => b.name), ["team"]);
      await alice.json("POST", "/api/v1/buckets", { name: "alices" }, 403);
      await signIn(stack, ESCAPED.uid, ESCAPED.password);
    });

    await t.step("the root account and storage users still sign in through the same form", async () => {
      await signInAsRoot(stack);
    });

    await t.step("wrong password, unknown name and disabled account get one answer", async () => {
      const answers = [
        await refused("alice", "wrong password", 401),
        await refused("nobody", "whatever", 401),
        await refused("dave", USERS.dave.password, 401),
        await refused("alice)(uid=*", USERS.alice.password, 401),
      ];
      for (const answer of answers) {
        assert.equal(answer.message, "invalid Login");
        assert.equal(answer.detailedMessage, CREDENTIALS_REFUSED);
      }
    });

    await t.step("a user with no mapped policy is told so, with the DN to map", async () => {
      const answer = await refused("erin", USERS.erin.password, 403);
      assert.match(answer.message, /no policy is mapped/);
      assert.match(answer.detailedMessage, /uid=erin,ou=staff,dc=deck,dc=test/);
    });

    await t.step("the session ends once the directory disables the account", async () => {
      const alice = await signIn(stack, "alice", USERS.alice.password);
      await directory.modify(
        `dn: ${USERS.alice.dn}\nchangetype: modify\nadd: employeeType\nemployeeType: disabled\n`,
      );
      try {
        await eventually(
          "alice's session to end",
          async () => (await alice.request("GET", "/api/v1/session")).status === 401,
        );
      } finally {
        await directory.modify(`dn: ${USERS.alice.dn}\nchangetype: modify\ndelete: employeeType\n`);
      }
    });

    await t.step("a refused lookup account and an unreachable directory are named", async () => {
      await configureLdap(stack.admin, { ...directory.settings, lookup_bind_password: "wrong" });
      const bind = await refused("alice", USERS.alice.password, 503);
      assert.match(bind.message, /lookup account/);
      assert.match(bind.detailedMessage, /lookup_bind_dn/);
      const closed = await freePort();
      await configureLdap(stack.admin, { ...directory.settings, server_addr: `127.0.0.1:${closed}` });
      const reach = await refused("alice", USERS.alice.password, 503);
      assert.match(reach.message, /cannot be reached/);
      assert.match(reach.detailedMessage, new RegExp(`127\\.0\\.0\\.1:${closed} \\(plain LDAP, no TLS\\)`));
    });
  } finally {
    await stack.close();
    await directory.stop();
  }
});
