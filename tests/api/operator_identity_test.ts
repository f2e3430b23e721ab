/**
 * The tenant wizard's identity settings (spec 3 §idp) become the configuration MinIO reads: the
 * MINIO_IDENTITY_OPENID_* or MINIO_IDENTITY_LDAP_* variables of the tenant's configuration secret, which the
 * Tenant resource names; and the tenant summary's OpenID / Active Directory flags follow that configuration.
 * Checked on the Kubernetes stand-in's stored objects.
 */
import assert from "node:assert/strict";
import { RESOURCES } from "../../build/k8s_standin/resources.ts";
import { ConsoleClient } from "../helpers.ts";
import { type OperatorStack, startOperatorStack } from "../operator_helpers.ts";

const GI = 1024 ** 3;
const SECRET = RESOURCES.find((r) => r.kind === "Secret")!;
const TENANT = RESOURCES.find((r) => r.kind === "Tenant")!;

const tenant = (name: string, namespace: string, idp: unknown) => ({
  name,
  namespace,
  enable_tls: false,
  image: "",
  pools: [{
    name: "pool-0",
    servers: 4,
    volumes_per_server: 1,
    volume_configuration: { size: 2 * GI, storage_class_name: "standard" },
    resources: { requests: { memory: 2 * GI }, limits: { memory: 8 * GI } },
  }],
  erasureCodingParity: 2,
  idp,
});

/** The variables of the configuration secret the Tenant resource names (config.env, `export K="V"` lines). */
function tenantEnv(stack: OperatorStack, namespace: string, name: string): Record<string, string> {
  const resource = stack.cluster.store.get(TENANT, namespace, name) as unknown as {
    spec: { configuration?: { name: string } };
  };
  assert.ok(resource?.spec.configuration, "the Tenant names its configuration secret");
  const secret = stack.cluster.store.get(SECRET, namespace, resource.spec.configuration.name) as unknown as {
    data: Record<string, string>;
  };
  const text = new TextDecoder().decode(Uint8Array.fromBase64(secret.data["config.env"]));
  return Object.fromEntries(
    text.trim().split("\n").map((line) => {
      const match = /^export ([A-Z0-9_]+)="(.*)"$/.exec(line);
      assert.ok(match, `a config.env line: ${line}`);
      return [match[1], match[2]];
    }),
  );
}

Deno.test("operator: the wizard's OpenID and Active Directory settings reach the tenant's configuration", async (t) => {
  const stack = await startOperatorStack({ seedTenant: false });
  try {
    const client = new ConsoleClient(stack.consoleUrl);
    await client.json("POST", "/api/v1/login/operator", { jwt: stack.cluster.operatorToken }, 201);

    await t.step("OpenID: MINIO_IDENTITY_OPENID_* and the summary's OpenID flag", async () => {
      const created = await client.json<{ externalIDP: boolean }>(
        "POST",
        "/api/v1/tenants",
        tenant("sso", "ns-a", {
          oidc: {
            url: "https://idp.example.com",
            configuration_url: "https://idp.example.com/.well-known/openid-configuration",
            client_id: "minio-tenant",
            secret_id: "tenant-client-secret",
            claim_name: "minio_policies",
            callback_url: "https://console.sso.example.com/oauth_callback",
            scopes: "openid,groups",
          },
        }),
        200,
      );
      assert.equal(created.externalIDP, true);
      const env = tenantEnv(stack, "ns-a", "sso");
      assert.deepEqual(
        Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith("MINIO_IDENTITY_"))),
        {
          MINIO_IDENTITY_OPENID_CONFIG_URL: "https://idp.example.com/.well-known/openid-configuration",
          MINIO_IDENTITY_OPENID_CLIENT_ID: "minio-tenant",
          MINIO_IDENTITY_OPENID_CLIENT_SECRET: "tenant-client-secret",
          MINIO_IDENTITY_OPENID_CLAIM_NAME: "minio_policies",
          MINIO_IDENTITY_OPENID_REDIRECT_URI: "https://console.sso.example.com/oauth_callback",
          MINIO_IDENTITY_OPENID_SCOPES: "openid,groups",
        },
      );
      const info = await client.json<{ idpOidcEnabled: boolean; idpAdEnabled: boolean }>(
        "GET",
        "/api/v1/namespaces/ns-a/tenants/sso",
        undefined,
        200,
      );
      assert.equal(info.idpOidcEnabled, true);
      assert.equal(info.idpAdEnabled, false);
    });

    await t.step(
      "Active Directory: MINIO_IDENTITY_LDAP_*, the user DNs, and the summary's flag",
      async () => {
        await client.json(
          "POST",
          "/api/v1/tenants",
          tenant("directory", "ns-b", {
            active_directory: {
              url: "ldap.example.com:636",
              skip_tls_verification: false,
              server_insecure: false,
              server_start_tls: true,
              username_format: "",
              username_search_filter: "",
              lookup_bind_dn: "cn=reader,dc=example,dc=com",
              lookup_bind_password: "reader-password",
              user_dn_search_base_dn: "ou=people,dc=example,dc=com",
              user_dn_search_filter: "(uid=%s)",
              group_search_base_dn: "ou=groups,dc=example,dc=com",
              group_search_filter: "(&(objectclass=groupOfNames)(member=%d))",
              group_name_attribute: "cn",
              user_dns: ["uid=admin,ou=people,dc=example,dc=com"],
            },
          }),
          200,
        );
        const env = tenantEnv(stack, "ns-b", "directory");
        assert.deepEqual(
          Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith("MINIO_IDENTITY_"))),
          {
            MINIO_IDENTITY_LDAP_SERVER_ADDR: "ldap.example.com:636",
            MINIO_IDENTITY_LDAP_SERVER_STARTTLS: "on",
            MINIO_IDENTITY_LDAP_LOOKUP_BIND_DN: "cn=reader,dc=example,dc=com",
            MINIO_IDENTITY_LDAP_LOOKUP_BIND_PASSWORD: "reader-password",
            MINIO_IDENTITY_LDAP_USER_DN_SEARCH_BASE_DN: "ou=people,dc=example,dc=com",
            MINIO_IDENTITY_LDAP_USER_DN_SEARCH_FILTER: "(uid=%s)",
            MINIO_IDENTITY_LDAP_GROUP_NAME_ATTRIBUTE: "cn",
            MINIO_IDENTITY_LDAP_GROUP_SEARCH_BASE_DN: "ou=groups,dc=example,dc=com",
            MINIO_IDENTITY_LDAP_GROUP_SEARCH_FILTER: "(&(objectclass=groupOfNames)(member=%d))",
          },
        );
        const info = await client.json<{ idpOidcEnabled: boolean; idpAdEnabled: boolean }>(
          "GET",
          "/api/v1/namespaces/ns-b/tenants/directory",
          undefined,
          200,
        );
        assert.equal(info.idpAdEnabled, true);
        assert.equal(info.idpOidcEnabled, false);
      },
    );
  } finally {
    await stack.close();
  }
});
