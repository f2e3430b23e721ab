/**
 * The directory's transport as configured: LDAPS and StartTLS against slapd with a certificate of a private
 * CA, refused while the certificate is checked (the storage does not trust that CA) and accepted with
 * tls_skip_verify; the refusal names the address, the TLS mode and the certificate problem. An independent
 * client (Debian's AWS CLI) then uses the credentials a directory user got.
 */
import assert from "node:assert/strict";
import { changeLdapPolicies } from "../../server/lib/s3/admin/ldap.ts";
import { S3Error } from "../../server/lib/s3/errors.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { assumeRoleWithLdapIdentity } from "../../server/lib/s3/sts.ts";
import { startStack } from "../helpers.ts";
import { configureLdap, GROUP_DNS, startDirectory, USERS } from "../ldap_directory.ts";
import { awsCli } from "../storage/awscli.ts";
import { makeCertificates } from "../tls_certs.ts";
import { fetchTrusting } from "../../server/lib/http/trusted_cas.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";

Deno.test("LDAP over LDAPS and StartTLS; the credentials work in the AWS CLI", async (t) => {
  const certs = await makeCertificates();
  const directory = await startDirectory(certs);
  const stack = await startStack();
  try {
    const sts = () =>
      assumeRoleWithLdapIdentity(stack.storage.url, fetch, {
        username: "alice",
        password: USERS.alice.password,
      });
    const { server_insecure: _, ...secure } = directory.settings;

    await t.step(
      "LDAPS: an untrusted certificate is refused with the reason, accepted when told to",
      async () => {
        await configureLdap(stack.admin, { ...secure, server_addr: directory.ldapsAddress! });
        const error = await sts().then(() => null, (e) => e);
        assert.ok(error instanceof S3Error);
        assert.match(error.message, /\(LDAPS\) cannot be reached: .*certificate/i);
        await configureLdap(stack.admin, {
          ...secure,
          server_addr: directory.ldapsAddress!,
          tls_skip_verify: "on",
        });
        await changeLdapPolicies(stack.admin, "attach", { policies: ["readonly"], group: GROUP_DNS.readers });
        await sts();
      },
    );

    await t.step("StartTLS on the plain port", async () => {
      await configureLdap(stack.admin, { ...secure, server_starttls: "on" });
      assert.match((await sts().then(() => null, (e) => e))?.message ?? "", /\(StartTLS\) cannot be reached/);
      await configureLdap(stack.admin, { ...secure, server_starttls: "on", tls_skip_verify: "on" });
      await sts();
    });

    await t.step("LDAPS verified against a CA in the storage's certs dir, as MinIO trusts it", async () => {
      const own = await makeCertificates();
      await Deno.copyFile(certs.caFile, `${own.certsDir}/CAs/directory-ca.crt`);
      const dataDir = await Deno.makeTempDir({ prefix: "deck-ldap-tls-" });
      const trusting = fetchTrusting([await Deno.readTextFile(own.caFile)]);
      const storage = await startEmbeddedStorage({ dataDir, port: 0, certsDir: own.certsDir });
      try {
        const admin = new S3Client({ endpoint: storage.url, credentials: storage.root, fetch: trusting });
        await configureLdap(admin, { ...secure, server_addr: directory.ldapsAddress! });
        await changeLdapPolicies(admin, "attach", { policies: ["readonly"], group: GROUP_DNS.readers });
        await assumeRoleWithLdapIdentity(storage.url, trusting, {
          username: "alice",
          password: USERS.alice.password,
        });
      } finally {
        await storage.close();
        trusting.close();
        await Deno.remove(dataDir, { recursive: true });
        await own.remove();
      }
    });

    await t.step("the AWS CLI lists buckets with a directory user's credentials", async () => {
      await makeBucket(stack.admin, "team");
      const creds = await sts();
      const cli = await awsCli(stack);
      try {
        await Deno.writeTextFile(
          `${cli.home}/credentials`,
          `[default]\naws_access_key_id = ${creds.accessKey}\naws_secret_access_key = ${creds.secretKey}\naws_session_token = ${creds.sessionToken}\n`,
        );
        const listed = await cli.json("s3api", "list-buckets");
        assert.deepEqual(listed.Buckets.map((b: { Name: string }) => b.Name), ["team"]);
        const refused = await cli.run("s3api", "create-bucket", "--bucket", "alices");
        assert.equal(refused.ok, false);
        assert.match(refused.stderr, /AccessDenied/);
      } finally {
        await cli.close();
      }
    });
  } finally {
    await stack.close();
    await directory.stop();
    await certs.remove();
  }
});
