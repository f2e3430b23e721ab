/**
 * The embedded storage's own outgoing calls trust the certificates of its certificate directory (`public.crt`
 * and `CAs/`) besides the system's, as MinIO's do: replication to a storage whose certificate only a CA in the
 * source's CAs/ signed (through the send thread and, for a large version, from the main thread), a tier on
 * that storage (objects transitioned there and read back), a webhook notification and an audit webhook
 * served with a private CA's certificate, and an OpenID provider's discovery and keys on such a certificate. Without that CA, the same
 * target is refused with the TLS reason, a target already set fails its sends with that reason, and the source
 * keeps serving.
 */
import assert from "node:assert/strict";
import { addTier, setRemoteTarget } from "../../server/lib/s3/admin/buckets.ts";
import { serviceRestart, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { fetchTrusting } from "../../server/lib/http/trusted_cas.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { putBucketLifecycle } from "../../server/lib/s3/ops/lifecycle.ts";
import { putBucketNotification } from "../../server/lib/s3/ops/notification.ts";
import { getObject, headObject, listObjectsV2, putObject } from "../../server/lib/s3/ops/objects.ts";
import { getReplicationMetrics } from "../../server/lib/s3/ops/replication.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "../../server/storage/server.ts";
import { eventually } from "../eventually.ts";
import { webhookReceiver } from "../notify_services.ts";
import { makeCertificates, type TestCertificates } from "../tls_certs.ts";
import { addRule, ROOT, statusOf, versionedBucket } from "./replication_helpers.ts";

const KEY = "réplique/日本 + % # ? 🚀.txt";

function startOver(certs: TestCertificates, dataDir: string): Promise<EmbeddedStorage> {
  return startEmbeddedStorage({
    dataDir,
    port: 0,
    rootUser: ROOT.accessKey,
    rootPassword: ROOT.secretKey,
    certsDir: certs.certsDir,
    // A lifecycle "day" of a second, scanned often: transitions to a tier happen within the test.
    lifecycle: { intervalMs: 100, dayMs: 1000 },
  });
}

/** Copies a CA certificate into a certificate directory's CAs/, as an administrator adds one. */
async function addCa(certs: TestCertificates, caFile: string, name: string): Promise<void> {
  await Deno.copyFile(caFile, `${certs.certsDir}/CAs/${name}`);
}

Deno.test("the storage's outgoing calls trust the CAs in its certs dir: replication, a tier and webhooks over HTTPS", async () => {
  const sourceCerts = await makeCertificates();
  const targetCerts = await makeCertificates();
  const hookCerts = await makeCertificates();
  // The target's CA lives only in the source's CAs/ (not even in the target's own directory).
  const targetCa = await Deno.readTextFile(targetCerts.caFile);
  await addCa(sourceCerts, targetCerts.caFile, "target ca.crt");
  await Deno.remove(targetCerts.caFile);
  await addCa(sourceCerts, hookCerts.caFile, "hooks-ca.pem");
  const dirs = [
    await Deno.makeTempDir({ prefix: "deck-tls-out-" }),
    await Deno.makeTempDir({ prefix: "deck-tls-out-" }),
  ];
  const hook = webhookReceiver({
    tls: { cert: await Deno.readTextFile(hookCerts.cert), key: await Deno.readTextFile(hookCerts.key) },
  });
  const audit = webhookReceiver({
    tls: { cert: await Deno.readTextFile(hookCerts.cert), key: await Deno.readTextFile(hookCerts.key) },
  });
  const target = await startOver(targetCerts, dirs[0]);
  const source = await startOver(sourceCerts, dirs[1]);
  const trusting = fetchTrusting([await Deno.readTextFile(sourceCerts.caFile), targetCa]);
  const src = new S3Client({ endpoint: source.url, credentials: ROOT, fetch: trusting });
  const dst = new S3Client({ endpoint: target.url, credentials: ROOT, fetch: trusting });
  try {
    assert.match(target.url, /^https:/);
    assert.match(source.url, /^https:/);
    await versionedBucket(dst, "copies");
    await versionedBucket(src, "docs");
    // Setting the target checks it answers: the source calls it over HTTPS, trusting the CA in its CAs/.
    await addRule(src, "docs", target.url, "copies", {});

    // A small version goes out from the send thread (its client built from the PEMs of its start message).
    const small = await putObject(src, "docs", KEY, "over TLS to a private CA");
    await eventually(
      "the small version on the target",
      async () => (await statusOf(src, "docs", KEY)) === "COMPLETED",
    );
    const copy = await getObject(dst, "copies", KEY, { versionId: small.versionId });
    assert.equal(await copy.text(), "over TLS to a private CA");

    // A large one streams from the main thread, through the storage's trusting fetch.
    const large = new Uint8Array(2 * 1024 * 1024).fill(42);
    await putObject(src, "docs", "large 🐘.bin", large);
    await eventually(
      "the large version on the target",
      async () => (await statusOf(src, "docs", "large 🐘.bin")) === "COMPLETED",
    );
    const largeCopy = new Uint8Array(await (await getObject(dst, "copies", "large 🐘.bin")).arrayBuffer());
    assert.equal(largeCopy.length, large.length);

    // A tier on the target: adding it lists the remote bucket, the scanner moves the bytes there, and a read
    // through the source fetches them back, each over HTTPS trusting the CA in CAs/.
    await makeBucket(dst, "cold");
    await addTier(src, {
      Version: "v1",
      Type: "minio",
      Name: "COLD",
      MinIO: {
        Endpoint: target.url,
        AccessKey: ROOT.accessKey,
        SecretKey: ROOT.secretKey,
        Bucket: "cold",
        Prefix: "",
        Region: "",
      },
    });
    await makeBucket(src, "tiered");
    await putObject(src, "tiered", KEY, "kept on the tier");
    await putBucketLifecycle(src, "tiered", [
      { id: "cold", status: "Enabled", transition: { days: 1, storageClass: "COLD" } },
    ]);
    await eventually("the object transitioned", () => headObject(src, "tiered", KEY), {
      until: (h) => h.headers.get("x-amz-storage-class") === "COLD",
    });
    assert.equal((await listObjectsV2(dst, "cold", { maxKeys: 10 })).objects.length, 1);
    assert.equal(await (await getObject(src, "tiered", KEY)).text(), "kept on the tier");

    // A webhook notification target and an audit webhook, both served with the hooks' private CA.
    await setConfigKV(src, `notify_webhook:private endpoint=${hook.url}`);
    await setConfigKV(src, `audit_webhook:private endpoint=${audit.url} enable=on`);
    await serviceRestart(src);
    await makeBucket(src, "events");
    await putBucketNotification(src, "events", [{
      id: "created",
      arn: "arn:minio:sqs::private:webhook",
      events: ["s3:ObjectCreated:*"],
    }]);
    await putObject(src, "events", KEY, "an event over TLS");
    await eventually(
      "the event at the HTTPS webhook",
      () => hook.received.some((r) => r.body.Key === `events/${KEY}`),
    );
    await eventually("an audit entry at the HTTPS audit webhook", () => audit.received.length > 0);
  } finally {
    await source.close();
    await target.close();
    await hook.close();
    await audit.close();
    for (const dir of dirs) await Deno.remove(dir, { recursive: true });
    for (const certs of [sourceCerts, targetCerts, hookCerts]) await certs.remove();
  }
});

Deno.test("without the target's CA in CAs/, the replication target is refused with the TLS reason, and the source serves on", async () => {
  const sourceCerts = await makeCertificates();
  const targetCerts = await makeCertificates();
  const dirs = [
    await Deno.makeTempDir({ prefix: "deck-tls-out-" }),
    await Deno.makeTempDir({ prefix: "deck-tls-out-" }),
  ];
  const target = await startOver(targetCerts, dirs[0]);
  const source = await startOver(sourceCerts, dirs[1]);
  const trusting = fetchTrusting([
    await Deno.readTextFile(sourceCerts.caFile),
    await Deno.readTextFile(targetCerts.caFile),
  ]);
  const src = new S3Client({ endpoint: source.url, credentials: ROOT, fetch: trusting });
  const dst = new S3Client({ endpoint: target.url, credentials: ROOT, fetch: trusting });
  try {
    await versionedBucket(dst, "copies");
    await versionedBucket(src, "docs");
    await assert.rejects(
      setRemoteTarget(src, "docs", {
        sourcebucket: "docs",
        endpoint: new URL(target.url).host,
        secure: true,
        credentials: ROOT,
        targetbucket: "copies",
        type: "replication",
        bandwidthlimit: 0,
      }),
      (error: Error) => {
        assert.match(error.message, /not available/);
        assert.match(error.message, /certificate|UnknownIssuer/i);
        return true;
      },
    );
    // The refusal was an answer, not a crash: the source serves the next request.
    await putObject(src, "docs", KEY, "still serving");
    assert.equal(await (await getObject(src, "docs", KEY)).text(), "still serving");
  } finally {
    await source.close();
    await target.close();
    for (const dir of dirs) await Deno.remove(dir, { recursive: true });
    for (const certs of [sourceCerts, targetCerts]) await certs.remove();
  }
});

Deno.test("a target whose CA was removed from CAs/: sends fail with the certificate reason in the metrics, and the source serves on", async () => {
  const sourceCerts = await makeCertificates();
  const targetCerts = await makeCertificates();
  await addCa(sourceCerts, targetCerts.caFile, "target.crt");
  const dirs = [
    await Deno.makeTempDir({ prefix: "deck-tls-out-" }),
    await Deno.makeTempDir({ prefix: "deck-tls-out-" }),
  ];
  const target = await startOver(targetCerts, dirs[0]);
  let source = await startOver(sourceCerts, dirs[1]);
  const trusting = fetchTrusting([
    await Deno.readTextFile(sourceCerts.caFile),
    await Deno.readTextFile(targetCerts.caFile),
  ]);
  const dst = new S3Client({ endpoint: target.url, credentials: ROOT, fetch: trusting });
  try {
    await versionedBucket(dst, "copies");
    let src = new S3Client({ endpoint: source.url, credentials: ROOT, fetch: trusting });
    await versionedBucket(src, "docs");
    const arn = await addRule(src, "docs", target.url, "copies", {});
    // The administrator takes the CA out; the certificates are read at start, so the change needs a restart.
    await source.close();
    await Deno.remove(`${sourceCerts.certsDir}/CAs/target.crt`);
    source = await startOver(sourceCerts, dirs[1]);
    src = new S3Client({ endpoint: source.url, credentials: ROOT, fetch: trusting });
    await putObject(src, "docs", KEY, "cannot go");
    const metrics = await eventually(
      "the failed send in the metrics",
      () => getReplicationMetrics(src, "docs"),
      { until: (m) => !!m?.Stats?.[arn]?.lastError },
    );
    assert.match(metrics!.Stats![arn].lastError!, /cannot be reached.*(certificate|UnknownIssuer)/i);
    await eventually("the version FAILED", async () => (await statusOf(src, "docs", KEY)) === "FAILED");
    assert.equal(await (await getObject(src, "docs", KEY)).text(), "cannot go");
  } finally {
    await source.close();
    await target.close();
    for (const dir of dirs) await Deno.remove(dir, { recursive: true });
    for (const certs of [sourceCerts, targetCerts]) await certs.remove();
  }
});

/** A JWT signed with `key` (ES256), as a provider issues it. */
async function signJwt(key: CryptoKey, kid: string, claims: Record<string, unknown>): Promise<string> {
  const part = (value: unknown) =>
    new TextEncoder().encode(JSON.stringify(value)).toBase64({ alphabet: "base64url", omitPadding: true });
  const unsigned = `${part({ alg: "ES256", kid, typ: "JWT" })}.${part(claims)}`;
  const signature = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, new TextEncoder().encode(unsigned)),
  );
  return `${unsigned}.${signature.toBase64({ alphabet: "base64url", omitPadding: true })}`;
}

Deno.test("an OpenID provider on a private CA's certificate: its discovery and keys are fetched trusting CAs/", async () => {
  const sourceCerts = await makeCertificates();
  const idpCerts = await makeCertificates();
  await addCa(sourceCerts, idpCerts.caFile, "idp.crt");
  const dataDir = await Deno.makeTempDir({ prefix: "deck-tls-out-" });
  // The provider's discovery document and key set, served over HTTPS with the private CA's certificate.
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]);
  const publicJwk = {
    ...(await crypto.subtle.exportKey("jwk", pair.publicKey)),
    kid: "tls-key",
    alg: "ES256",
  };
  const idp = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
    cert: await Deno.readTextFile(idpCerts.cert),
    key: await Deno.readTextFile(idpCerts.key),
  }, (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/.well-known/openid-configuration") {
      return Response.json({ issuer, jwks_uri: `${issuer}/jwks` });
    }
    return pathname === "/jwks" ? Response.json({ keys: [publicJwk] }) : new Response(null, { status: 404 });
  });
  const issuer: string = `https://127.0.0.1:${(idp.addr as Deno.NetAddr).port}`;
  const source = await startOver(sourceCerts, dataDir);
  const trusting = fetchTrusting([await Deno.readTextFile(sourceCerts.caFile)]);
  const src = new S3Client({ endpoint: source.url, credentials: ROOT, fetch: trusting });
  try {
    await setConfigKV(
      src,
      `identity_openid config_url=${issuer}/.well-known/openid-configuration client_id=deck`,
    );
    await serviceRestart(src);
    const now = Math.floor(Date.now() / 1000);
    const token = await signJwt(pair.privateKey, "tls-key", {
      iss: issuer,
      aud: "deck",
      sub: "reader",
      iat: now,
      exp: now + 600,
      policy: "readonly",
    });
    const res = await trusting(`${source.url}/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        Action: "AssumeRoleWithWebIdentity",
        Version: "2011-06-15",
        WebIdentityToken: token,
      }),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.match(text, /<AccessKeyId>[^<]+<\/AccessKeyId>/);
  } finally {
    await source.close();
    await idp.shutdown();
    trusting.close();
    await Deno.remove(dataDir, { recursive: true });
    for (const certs of [sourceCerts, idpCerts]) await certs.remove();
  }
});
