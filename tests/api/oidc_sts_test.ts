/**
 * The embedded storage's AssumeRoleWithWebIdentity against a real OpenID provider (`oidc-provider`, started
 * here): identity_openid set through the console's Settings API takes effect after the restart MinIO also
 * needs; real id_tokens from the provider's code flow buy credentials whose rights are the policies their
 * claim names; the refusals carry MinIO's codes and texts (sts-handlers.go); a rotated key is fetched again.
 */
import assert from "node:assert/strict";
import { getConfigKV, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { accountInfo } from "../../server/lib/s3/admin/info.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { getObject, putObject } from "../../server/lib/s3/ops/objects.ts";
import { type ConsoleClient, signInAsRoot, startStack, type TestStack } from "../helpers.ts";
import { eventually } from "../eventually.ts";
import { foreignKey, startOidcProvider } from "../oidc/provider.ts";

const DECK = {
  client_id: "deck",
  client_secret: "deck-secret",
  redirect_uris: ["http://127.0.0.1:9/oauth_callback"],
};
const OTHER = {
  client_id: "other-app",
  client_secret: "other",
  redirect_uris: ["http://127.0.0.1:9/elsewhere"],
};

async function webIdentity(stack: TestStack, token: string, duration?: string) {
  const form = new URLSearchParams({
    Action: "AssumeRoleWithWebIdentity",
    Version: "2011-06-15",
    WebIdentityToken: token,
  });
  if (duration) form.set("DurationSeconds", duration);
  const res = await fetch(`${stack.storage.url}/`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const text = await res.text();
  const pick = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1] ?? "";
  return {
    status: res.status,
    code: pick("Code"),
    message: pick("Message"),
    expiration: Date.parse(pick("Expiration")),
    text,
    credentials: {
      accessKey: pick("AccessKeyId"),
      secretKey: pick("SecretAccessKey"),
      sessionToken: pick("SessionToken"),
    },
  };
}

async function configure(root: ConsoleClient, values: Record<string, string>) {
  await root.json("PUT", "/api/v1/configs/identity_openid", {
    key_values: Object.entries(values).map(([key, value]) => ({ key, value })),
  }, 200);
  const res = await root.request("POST", "/api/v1/service/restart", {});
  assert.equal(res.status, 204, await res.text());
}

Deno.test("AssumeRoleWithWebIdentity against oidc-provider: claims, MinIO's refusals, key rotation", async (t) => {
  const provider = await startOidcProvider({
    clients: [DECK, OTHER],
    accounts: {
      reader: { policy: "readonly" },
      "no-claim": {},
      stranger: { policy: "no-such-policy" },
      both: { "deck/roles": ["readonly", "writeonly"] },
      listed: { "deck/roles": "no-such-policy, readonly" },
    },
  });
  const stack = await startStack();
  try {
    const root = await signInAsRoot(stack);
    await makeBucket(stack.admin, "federated");
    await putObject(stack.admin, "federated", "hello.txt", "hi");

    await t.step("not configured: InvalidParameterValue", async () => {
      const answer = await webIdentity(stack, await provider.idTokenFor("reader"));
      assert.equal(answer.code, "InvalidParameterValue");
    });

    await configure(root, { config_url: provider.discoveryUrl, client_id: "deck" });
    await t.step(
      "the keys MinIO's own console uses (scopes, redirect_uri) are kept by the admin API",
      async () => {
        // The Settings form offers the spec's four fields; mc admin config set reaches the other two.
        await setConfigKV(
          stack.admin,
          "identity_openid scopes=openid,profile redirect_uri=http://127.0.0.1:9/cb",
        );
        const [entry] = await getConfigKV(stack.admin, "identity_openid");
        const values = Object.fromEntries(entry.kv.map(({ key, value }) => [key, value]));
        assert.equal(values.scopes, "openid,profile");
        assert.equal(values.config_url, provider.discoveryUrl, "the other keys stay as set");
      },
    );

    await t.step("a real token with a policy claim: credentials with that policy's rights", async () => {
      const token = await provider.idTokenFor("reader");
      const claims = JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(token.split(".")[1], {
        alphabet: "base64url",
      })));
      const ok = await webIdentity(stack, token);
      assert.equal(ok.status, 200, ok.text);
      assert.match(ok.text, /<SubjectFromWebIdentityToken>reader<\/SubjectFromWebIdentityToken>/);
      assert.match(ok.text, new RegExp(`<Provider>${provider.issuer}</Provider>`));
      assert.equal(
        ok.expiration,
        claims.exp * 1000,
        "without DurationSeconds the credentials end with the token",
      );
      const reader = new S3Client({ endpoint: stack.storage.url, credentials: ok.credentials });
      assert.equal(await (await getObject(reader, "federated", "hello.txt")).text(), "hi");
      await assert.rejects(putObject(reader, "federated", "nope.txt", "x"), /Access Denied/);
      assert.equal((await accountInfo(reader)).AccountName, "reader");

      const short = await webIdentity(stack, await provider.idTokenFor("reader"), "900");
      assert.ok(Math.abs(short.expiration - (Date.now() + 900_000)) < 5000, "DurationSeconds sets the end");
    });

    await t.step("refusals carry MinIO's codes and texts", async () => {
      const forOther = await webIdentity(stack, await provider.idTokenFor("reader", OTHER));
      assert.equal(forOther.code, "InvalidParameterValue", "a real token for another client");
      assert.equal(forOther.status, 400);

      const expired = await webIdentity(
        stack,
        await provider.sign({ sub: "reader", policy: "readonly", exp: Math.floor(Date.now() / 1000) - 10 }),
      );
      assert.equal(expired.code, "ExpiredToken");
      assert.match(expired.message, /expired or is not valid/);

      const forged = await webIdentity(
        stack,
        await provider.sign({ sub: "reader", policy: "readonly" }, await foreignKey(provider.key.jwk.kid)),
      );
      assert.equal(forged.code, "InvalidParameterValue", "same kid, key the provider never published");
      assert.match(forged.message, /signature/);

      const noClaim = await webIdentity(stack, await provider.idTokenFor("no-claim"));
      assert.equal(noClaim.code, "InvalidParameterValue");
      assert.equal(
        noClaim.message,
        "policy claim missing from the JWT token, credentials will not be generated",
      );

      const unknown = await webIdentity(stack, await provider.idTokenFor("stranger"));
      assert.equal(unknown.code, "InvalidParameterValue");
      assert.equal(
        unknown.message,
        "None of the given policies (`no-such-policy`) are defined, credentials will not be generated",
      );
    });

    await t.step("a rotated signing key is fetched again when a token names it", async () => {
      // The storage holds the old key set from the steps above; the provider now signs with a new key.
      await provider.rotate();
      // Refetches are at most a second apart (a step above may just have made one): within a few seconds.
      const token = await provider.idTokenFor("reader");
      await eventually("the rotated key to be fetched", () => webIdentity(stack, token), {
        until: (answer) => answer.status === 200,
        timeoutMs: 10_000,
      });
    });

    await t.step("claim_prefix + claim_name; a list or comma-separated text", async () => {
      await configure(root, {
        config_url: provider.discoveryUrl,
        client_id: "deck",
        claim_name: "roles",
        claim_prefix: "deck/",
      });
      const both = await webIdentity(stack, await provider.idTokenFor("both"));
      assert.equal(both.status, 200, both.text);
      const writer = new S3Client({ endpoint: stack.storage.url, credentials: both.credentials });
      await putObject(writer, "federated", "from-token.txt", "x");
      assert.equal(await (await getObject(writer, "federated", "hello.txt")).text(), "hi");

      const listed = await webIdentity(stack, await provider.idTokenFor("listed"));
      assert.equal(listed.status, 200, "the names that exist are granted, the others ignored");

      const plain = await webIdentity(stack, await provider.idTokenFor("reader"));
      assert.equal(
        plain.message,
        "deck/roles claim missing from the JWT token, credentials will not be generated",
      );
    });
  } finally {
    await stack.close();
    await provider.close();
  }
});
