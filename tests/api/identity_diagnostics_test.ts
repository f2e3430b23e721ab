/**
 * Settings › Identity diagnostics over the console API: the directory's steps against a real OpenLDAP, and the
 * OpenID steps against a discovery document served on loopback.
 */
import assert from "node:assert/strict";
import type { DiagnosticStep, IdentityDiagnostics } from "../../server/lib/contract/identity.ts";
import { changeLdapPolicies } from "../../server/lib/s3/admin/ldap.ts";
import { formatConfigLine, serviceRestart, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { signIn, signInAsRoot, startStack } from "../helpers.ts";
import { configureLdap, GROUP_DNS, startDirectory, USERS } from "../ldap_directory.ts";
import { freePort } from "../storage_process.ts";

const summary = (steps: DiagnosticStep[]) => steps.map((s) => `${s.passed ? "+" : "-"} ${s.name}`);

Deno.test("identity diagnostics name the failing step", async (t) => {
  const directory = await startDirectory();
  const stack = await startStack();
  let issuer = "";
  let advertised = "";
  const provider = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/.well-known/openid-configuration") {
      return Response.json({ issuer: advertised, jwks_uri: `${issuer}/jwks` });
    }
    if (path === "/jwks") return Response.json({ keys: [{ kty: "RSA", kid: "k1", n: "AQAB", e: "AQAB" }] });
    return new Response("not found", { status: 404 });
  });
  issuer = `http://127.0.0.1:${(provider.addr as Deno.NetAddr).port}`;
  advertised = issuer;
  try {
    const root = await signInAsRoot(stack);
    const run = (testUser = "") =>
      root.json<IdentityDiagnostics>("POST", "/api/v1/identity/diagnostics", { testUser }, 200);

    await t.step("nothing configured: nothing to check", async () => {
      const report = await run();
      assert.deepEqual(report, {
        ldap: { configured: false, steps: [] },
        openid: { configured: false, steps: [] },
      });
    });

    await configureLdap(stack.admin, directory.settings);
    await changeLdapPolicies(stack.admin, "attach", { policies: ["readonly"], group: GROUP_DNS.readers });

    await t.step("a healthy directory and a mapped test user pass every step", async () => {
      const { ldap } = await run("alice");
      assert.deepEqual(summary(ldap.steps), [
        "+ Directory reachable",
        "+ Lookup bind",
        "+ Search base",
        "+ Search base",
        "+ Search base",
        "+ Test user lookup",
        "+ Test user groups",
        "+ Mapped policies",
      ]);
      assert.match(ldap.steps[0].message, /plain LDAP, no TLS/);
      assert.match(ldap.steps.at(-1)!.message, /readonly \(group cn=readers/);
    });

    await t.step("a user without policy, and a disabled one, fail at their step", async () => {
      const erin = (await run("erin")).ldap.steps.at(-1)!;
      assert.equal(erin.name, "Mapped policies");
      assert.equal(erin.passed, false);
      assert.match(erin.message, /uid=erin,ou=staff/);
      const dave = (await run("dave")).ldap.steps.at(-1)!;
      assert.deepEqual([dave.name, dave.passed], ["Test user lookup", false]);
      assert.match(dave.message, /employeeType=disabled/);
    });

    await t.step("a wrong lookup password, a missing base and an unreachable directory", async () => {
      await configureLdap(stack.admin, { ...directory.settings, lookup_bind_password: "wrong" });
      assert.deepEqual(summary((await run("alice")).ldap.steps), ["+ Directory reachable", "- Lookup bind"]);
      await configureLdap(stack.admin, {
        ...directory.settings,
        group_search_base_dn: "ou=missing,dc=deck,dc=test",
      });
      const base = (await run()).ldap.steps.filter((s) => !s.passed);
      assert.equal(base.length, 1);
      assert.match(base[0].message, /ou=missing,dc=deck,dc=test\) does not exist/);
      const closed = await freePort();
      await configureLdap(stack.admin, { ...directory.settings, server_addr: `127.0.0.1:${closed}` });
      const down = (await run("alice")).ldap.steps;
      assert.deepEqual(summary(down), ["- Directory reachable"]);
      assert.match(
        down[0].message,
        new RegExp(`127\\.0\\.0\\.1:${closed} \\(plain LDAP, no TLS\\) cannot be reached`),
      );
    });

    await t.step("OpenID: discovery, issuer, key set, client id and redirect URL", async () => {
      await setConfigKV(
        stack.admin,
        formatConfigLine("identity_openid", undefined, [
          { key: "config_url", value: `${issuer}/.well-known/openid-configuration` },
          { key: "client_id", value: "deck" },
        ]),
      );
      await serviceRestart(stack.admin);
      assert.deepEqual(summary((await run()).openid.steps), [
        "+ Discovery document reachable",
        "+ Issuer matches",
        "+ Key set reachable",
        "+ Client id set",
        "- Redirect URL configured",
      ]);
      advertised = "https://elsewhere.example";
      const issuerStep = (await run()).openid.steps[1];
      assert.deepEqual([issuerStep.name, issuerStep.passed], ["Issuer matches", false]);
      assert.match(issuerStep.message, /elsewhere\.example/);
    });

    await t.step("only administrators may run the checks", async () => {
      await configureLdap(stack.admin, directory.settings);
      const alice = await signIn(stack, "alice", USERS.alice.password);
      await alice.json("POST", "/api/v1/identity/diagnostics", {}, 403);
    });
  } finally {
    await provider.shutdown();
    await stack.close();
    await directory.stop();
  }
});
