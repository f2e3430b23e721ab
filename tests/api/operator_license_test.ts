/**
 * The tenant side of the subscription against the stand-in cluster: 'Attach License'
 * (POST /subscription/namespaces/{ns}/tenants/{t}/activate) writes the licence in force into the tenant's
 * config.env secret (other lines untouched) or, for a tenant without one, into spec.env; the tenant's details
 * then carry the verified subnet_license; a tenant created afterwards gets it at once. RBAC matrix, a missing
 * licence, a missing tenant and an immutable configuration secret.
 */
import assert from "node:assert/strict";
import type { SubscriptionInfo } from "../../server/lib/contract/license.ts";
import type { TenantInfo } from "../../server/lib/contract/operator.ts";
import { corePath, tenantPath } from "../../server/console/k8s/client.ts";
import type { Secret, Tenant } from "../../server/console/k8s/types.ts";
import { createLicenseSigner, standardClaims } from "../license_fixture.ts";
import { runOperatorScenarios, signInOperator, startOperatorStack } from "../operator_helpers.ts";

const GI = 2 ** 30;
const activate = (ns: string, t: string) => `/api/v1/subscription/namespaces/${ns}/tenants/${t}/activate`;
const b64 = (text: string) => new TextEncoder().encode(text).toBase64();
const unb64 = (text: string | undefined) => new TextDecoder().decode(Uint8Array.fromBase64(text ?? ""));

const pool = {
  name: "pool-0",
  servers: 4,
  volumesPerServer: 1,
  volumeClaimTemplate: {
    metadata: { name: "data" },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: String(GI) } },
      storageClassName: "standard",
    },
  },
};

Deno.test("operator API: Attach License hands the licence in force to a tenant", async (t) => {
  const signer = await createLicenseSigner();
  const stack = await startOperatorStack({
    seedTenant: true,
    backTenants: false,
    licensePublicKeyFile: signer.publicKeyFile,
  });
  const k8s = stack.deps.operator!.k8s;
  const admin = stack.cluster.operatorToken;
  try {
    // A tenant without a configuration secret (licence goes to spec.env) and one whose secret is immutable.
    await k8s.create(admin, tenantPath("ns-a"), {
      apiVersion: "minio.min.io/v2",
      kind: "Tenant",
      metadata: { name: "plain", namespace: "ns-a" },
      spec: {
        pools: [pool],
        env: [{ name: "MINIO_BROWSER", value: "on" }, { name: "MINIO_SUBNET_LICENSE", value: "stale" }],
      },
    });
    await k8s.create(admin, corePath("secrets", { namespace: "ns-b" }), {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "frozen-env-configuration", namespace: "ns-b" },
      immutable: true,
      data: { "config.env": b64('export MINIO_ROOT_USER="frozen"\n') },
    });
    await k8s.create(admin, tenantPath("ns-b"), {
      apiVersion: "minio.min.io/v2",
      kind: "Tenant",
      metadata: { name: "frozen", namespace: "ns-b" },
      spec: { pools: [pool], configuration: { name: "frozen-env-configuration" } },
    });
    const operator = await signInOperator(stack, admin);
    const configEnv = async () =>
      unb64(
        (await k8s.get<Secret>(
          admin,
          corePath("secrets", { namespace: "tenant-lite", name: "storage-lite-env-configuration" }),
        )).data?.["config.env"],
      );
    const before = await configEnv();
    const key = await signer.sign(standardClaims({ org: "Tenant Owner Ltd", plan: "ENTERPRISE" }));

    await runOperatorScenarios(t, stack, [
      {
        name: "no session",
        as: "none",
        method: "POST",
        path: activate("tenant-lite", "storage-lite"),
        status: 401,
      },
      {
        name: "token without rights",
        as: "nobody",
        method: "POST",
        path: activate("tenant-lite", "storage-lite"),
        status: 403,
      },
      {
        name: "no licence is active yet",
        as: "operator",
        method: "POST",
        path: activate("tenant-lite", "storage-lite"),
        status: 404,
        check: (b) => {
          assert.equal((b as { message: string }).message, "license not found");
          assert.match((b as { detailedMessage: string }).detailedMessage, /License page/);
        },
      },
      {
        name: "the License page activates a key",
        as: "operator",
        method: "POST",
        path: "/api/v1/subscription/validate",
        body: { license: key },
        status: 200,
        check: (b) => assert.equal((b as SubscriptionInfo).organization, "Tenant Owner Ltd"),
      },
      {
        name: "no licence on the tenant before",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/tenant-lite/tenants/storage-lite",
        status: 200,
        check: (b) => assert.equal((b as TenantInfo).subnet_license, undefined),
      },
      {
        name: "a token that may read but not write the tenant's secret",
        as: "viewer",
        method: "POST",
        path: activate("tenant-lite", "storage-lite"),
        status: 403,
      },
      {
        name: "missing tenant",
        as: "operator",
        method: "POST",
        path: activate("tenant-lite", "nope"),
        status: 404,
      },
      {
        name: "attach to a tenant with a config.env secret",
        as: "operator",
        method: "POST",
        path: activate("tenant-lite", "storage-lite"),
        status: 204,
      },
      {
        name: "attach again: still one licence line",
        as: "operator",
        method: "POST",
        path: activate("tenant-lite", "storage-lite"),
        status: 204,
      },
      {
        name: "the tenant's details carry the verified licence",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/tenant-lite/tenants/storage-lite",
        status: 200,
        check: (b) => {
          const licence = (b as TenantInfo).subnet_license!;
          assert.equal(licence.organization, "Tenant Owner Ltd");
          assert.equal(licence.plan, "ENTERPRISE");
          assert.equal(licence.storage_capacity, 50);
          assert.equal(licence.email, "ops@example.com");
        },
      },
      {
        name: "attach to a tenant without configuration secret",
        as: "operator",
        method: "POST",
        path: activate("ns-a", "plain"),
        status: 204,
      },
      {
        name: "an immutable configuration secret is refused with a message",
        as: "operator",
        method: "POST",
        path: activate("ns-b", "frozen"),
        status: 409,
        check: (b) => {
          assert.equal((b as { message: string }).message, "unable to attach the licence");
          assert.match(
            (b as { detailedMessage: string }).detailedMessage,
            /frozen-env-configuration is immutable/,
          );
        },
      },
    ]);

    await t.step(
      "config.env gains exactly one MINIO_SUBNET_LICENSE line; every other line is kept",
      async () => {
        const after = await configEnv();
        assert.equal(after, `${before}export MINIO_SUBNET_LICENSE="${key}"\n`);
      },
    );
    await t.step("spec.env: the stale value is replaced, other variables kept", async () => {
      const tenant = await k8s.get<Tenant>(admin, tenantPath("ns-a", "plain"));
      assert.deepEqual(tenant.spec.env, [{ name: "MINIO_BROWSER", value: "on" }, {
        name: "MINIO_SUBNET_LICENSE",
        value: key,
      }]);
      const info = await operator.json<TenantInfo>(
        "GET",
        "/api/v1/namespaces/ns-a/tenants/plain",
        undefined,
        200,
      );
      assert.equal(info.subnet_license?.organization, "Tenant Owner Ltd");
    });
    await t.step("the immutable secret is unchanged", async () => {
      const secret = await k8s.get<Secret>(
        admin,
        corePath("secrets", { namespace: "ns-b", name: "frozen-env-configuration" }),
      );
      assert.equal(unb64(secret.data?.["config.env"]), 'export MINIO_ROOT_USER="frozen"\n');
    });
    await t.step("a tenant created while a licence is active carries it from the start", async () => {
      await operator.json("POST", "/api/v1/tenants", {
        name: "licensed",
        namespace: "default",
        enable_tls: false,
        pools: [{
          name: "pool-0",
          servers: 4,
          volumes_per_server: 1,
          volume_configuration: { size: 2 * GI, storage_class_name: "standard" },
        }],
        erasureCodingParity: 2,
        idp: { keys: [{ access_key: "licensed-user", secret_key: "licensed-secret-123" }] },
      }, 200);
      const info = await operator.json<TenantInfo>(
        "GET",
        "/api/v1/namespaces/default/tenants/licensed",
        undefined,
        200,
      );
      assert.equal(info.subnet_license?.organization, "Tenant Owner Ltd");
    });
    await t.step("a forged licence on a tenant is not reported", async () => {
      const other = await createLicenseSigner();
      try {
        const tenant = await k8s.get<Tenant>(admin, tenantPath("ns-a", "plain"));
        tenant.spec.env = [{ name: "MINIO_SUBNET_LICENSE", value: await other.sign(standardClaims()) }];
        await k8s.replace(admin, tenantPath("ns-a", "plain"), tenant);
        const info = await operator.json<TenantInfo>(
          "GET",
          "/api/v1/namespaces/ns-a/tenants/plain",
          undefined,
          200,
        );
        assert.equal(info.subnet_license, undefined);
      } finally {
        await other.cleanup();
      }
    });
    await t.step("a console-mode path: not served for other methods", async () => {
      await operator.json("GET", activate("tenant-lite", "storage-lite"), undefined, 404);
    });
  } finally {
    await stack.close();
    await signer.cleanup();
  }
});
