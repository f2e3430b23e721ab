/**
 * Subscription API (api-index §11) answered from a licence configured locally and verified offline: info,
 * an expired or foreign licence refused, and operator-mode activation that keeps a pasted key or reports at
 * once that credential activation needs the network.
 */
import assert from "node:assert/strict";
import type { SubscriptionInfo } from "../../server/lib/contract/license.ts";
import { ConsoleClient, signInAsRoot, startStack } from "../helpers.ts";
import { signInOperator, startOperatorStack } from "../operator_helpers.ts";
import { createLicenseSigner, standardClaims } from "../license_fixture.ts";

Deno.test("licence API: a configured licence is verified offline and reported", async (t) => {
  const signer = await createLicenseSigner();
  const license = await signer.sign(standardClaims());
  const stack = await startStack({
    env: { CONSOLE_SUBNET_LICENSE: license, CONSOLE_SUBNET_PUBLIC_KEY_FILE: signer.publicKeyFile },
  });
  try {
    const root = await signInAsRoot(stack);
    await t.step("GET /subscription/info answers with the licence's claims", async () => {
      const info = await root.json<SubscriptionInfo>("GET", "/api/v1/subscription/info", undefined, 200);
      assert.equal(info.organization, "Example Corp");
      assert.equal(info.plan, "STANDARD");
      assert.equal(info.storage_capacity, 50);
      assert.equal(info.email, "ops@example.com");
      assert.equal(info.account_id, 42);
      assert.match(info.expires_at, /^\d{4}-\d\d-\d\dT/);
    });
    await t.step(
      "validate, refresh and tenant activation are operator-mode calls: 404 for a console session",
      async () => {
        await root.json("POST", "/api/v1/subscription/validate", { license }, 404);
        await root.json("POST", "/api/v1/subscription/refresh", {}, 404);
        await root.json("POST", "/api/v1/subscription/namespaces/ns/tenants/t/activate", {}, 404);
      },
    );
    await t.step("no session: 401", async () => {
      await new ConsoleClient(stack.consoleUrl).json("GET", "/api/v1/subscription/info", undefined, 401);
    });
  } finally {
    await stack.close();
    await signer.cleanup();
  }
});

Deno.test("licence API: expired, forged or absent licences give 404 'license not found' with the reason", async () => {
  const signer = await createLicenseSigner();
  const other = await createLicenseSigner();
  const cases: [string, string, RegExp][] = [
    ["expired", await signer.sign(standardClaims({ exp: Math.floor(Date.now() / 1000) - 10 })), /expired on/],
    ["signed by an untrusted key", await other.sign(standardClaims()), /signature/],
    ["not a licence", "hello.world.again", /malformed/],
    ["none", "", /no licence is configured/],
  ];
  try {
    for (const [name, license, reason] of cases) {
      const stack = await startStack({
        env: { CONSOLE_SUBNET_LICENSE: license, CONSOLE_SUBNET_PUBLIC_KEY_FILE: signer.publicKeyFile },
      });
      try {
        const root = await signInAsRoot(stack);
        const body = await root.json<{ message: string; detailedMessage: string }>(
          "GET",
          "/api/v1/subscription/info",
          undefined,
          404,
        );
        assert.equal(body.message, "license not found", name);
        assert.match(body.detailedMessage, reason, name);
      } finally {
        await stack.close();
      }
    }
  } finally {
    await signer.cleanup();
    await other.cleanup();
  }
});

Deno.test("licence API: operator mode activates a pasted key and refuses credential activation at once", async (t) => {
  const signer = await createLicenseSigner();
  const stack = await startOperatorStack({ seedTenant: false, licensePublicKeyFile: signer.publicKeyFile });
  try {
    const operator = await signInOperator(stack, stack.cluster.operatorToken);
    await t.step("no licence yet: 404", async () => {
      await operator.json("GET", "/api/v1/subscription/info", undefined, 404);
    });
    await t.step(
      "email and password: 501 saying activation needs network access, without waiting",
      async () => {
        const started = performance.now();
        const body = await operator.json<{ message: string }>("POST", "/api/v1/subscription/validate", {
          email: "ops@example.com",
          password: "secret",
        }, 501);
        assert.equal(body.message, "Activation with SUBNET credentials needs network access");
        assert.ok(performance.now() - started < 2000);
      },
    );
    await t.step("nothing given: 400; a bad key: 400 'invalid license key' and nothing is kept", async () => {
      await operator.json("POST", "/api/v1/subscription/validate", {}, 400);
      const bad = await operator.json<{ message: string }>("POST", "/api/v1/subscription/validate", {
        license: "not.a.licence",
      }, 400);
      assert.equal(bad.message, "invalid license key");
      await operator.json("GET", "/api/v1/subscription/info", undefined, 404);
    });
    await t.step(
      "a valid key is verified, kept (mode 0600) and reported; refresh reads it again",
      async () => {
        const key = await signer.sign(standardClaims({ plan: "ENTERPRISE", org: "Activated Inc" }));
        const info = await operator.json<SubscriptionInfo>("POST", "/api/v1/subscription/validate", {
          license: key,
        }, 200);
        assert.equal(info.organization, "Activated Inc");
        const stat = await Deno.stat(`${stack.dataDir}/.deck/subnet-license`);
        assert.equal(stat.mode! & 0o777, 0o600);
        assert.equal(
          (await operator.json<SubscriptionInfo>("GET", "/api/v1/subscription/info", undefined, 200)).plan,
          "ENTERPRISE",
        );
        assert.equal(
          (await operator.json<SubscriptionInfo>("POST", "/api/v1/subscription/refresh", {}, 200))
            .organization,
          "Activated Inc",
        );
      },
    );
  } finally {
    await stack.close();
    await signer.cleanup();
  }
});
