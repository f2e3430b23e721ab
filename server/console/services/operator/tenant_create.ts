/**
 * Create tenant (operator-k8s.md §3.3): the credentials, identity, TLS, encryption and configuration
 * secrets, then the Tenant. Any failure after the first secret removes every secret labelled with the
 * tenant, so a refused create leaves nothing half-written.
 */
import { X509Certificate } from "node:crypto";
import { t } from "../../../../islands/lib/i18n/t.ts";
import type { CreateTenantInput, CreateTenantResponse } from "../../../lib/contract/operator.ts";
import { randomKey } from "../../../lib/contract/operator_rules.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { corePath, K8sError, tenantPath } from "../../k8s/client.ts";
import { loadYaml } from "../../k8s/yaml.ts";
import type { Secret, Tenant } from "../../k8s/types.ts";
import { decodeBase64, encodeBase64, formatConfigEnv } from "./common.ts";
import { poolFromInput } from "./tenants.ts";
import { validateCreateTenant } from "./validate.ts";

const KES_IMAGE = "minio/kes:v0.16.1";
const GiB = 2 ** 30;

type Enc = NonNullable<CreateTenantInput["encryption"]>;

class SecretWriter {
  constructor(
    private op: OperatorDeps,
    private token: string,
    private namespace: string,
    private tenant: string,
  ) {}

  /** Creates a secret labelled with the tenant; `replace` deletes a same-named one first (errors ignored). */
  async create(
    name: string,
    data: Record<string, string>,
    options: { type?: string; immutable?: boolean; replace?: boolean } = {},
  ): Promise<void> {
    if (options.replace) {
      await this.op.k8s.delete(this.token, corePath("secrets", { namespace: this.namespace, name })).catch(
        () => {},
      );
    }
    await this.op.k8s.create<Secret>(this.token, corePath("secrets", { namespace: this.namespace }), {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name, namespace: this.namespace, labels: { "v1.min.io/tenant": this.tenant } },
      type: options.type ?? "Opaque",
      immutable: options.immutable ?? false,
      data,
    });
  }

  /** A kubernetes.io/tls secret from base64 PEM key and certificate. */
  tls(name: string, pair: { crt: string; key: string }): Promise<void> {
    return this.create(name, { "tls.crt": pair.crt, "tls.key": pair.key }, {
      type: "kubernetes.io/tls",
      immutable: true,
      replace: true,
    });
  }

  /** Removes every secret of the tenant (the cleanup after a failed create). */
  async cleanup(): Promise<void> {
    await this.op.k8s.delete(this.token, corePath("secrets", { namespace: this.namespace }), {
      labelSelector: `v1.min.io/tenant=${this.tenant}`,
    }).catch(() => {});
  }
}

/** KES's identity for MinIO: SHA-256 of the client certificate's public key, or the variable KES expands. */
async function kesIdentity(clientCrt?: string): Promise<string> {
  if (!clientCrt) return "${MINIO_KES_IDENTITY}";
  let spki: Uint8Array<ArrayBuffer>;
  try {
    spki = new Uint8Array(
      new X509Certificate(decodeBase64(clientCrt)).publicKey.export({ type: "spki", format: "der" }),
    );
  } catch {
    throw new ApiError(400, t("wizard.server.invalidRequest"), {
      detail: t("wizard.server.clientCertNotPem"),
    });
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", spki)).toHex();
}

/** KES server-config.yaml: listen, TLS files, one policy for MinIO's key, and the chosen key store. */
async function kesConfig(enc: Enc): Promise<string> {
  const identity = await kesIdentity(enc.client?.crt);
  const keys: Record<string, unknown> = {};
  if (enc.vault) {
    const v = enc.vault;
    keys.vault = {
      endpoint: v.endpoint,
      ...(v.engine ? { engine: v.engine } : {}),
      ...(v.namespace ? { namespace: v.namespace } : {}),
      ...(v.prefix ? { prefix: v.prefix } : {}),
      approle: {
        ...(v.approle.engine ? { engine: v.approle.engine } : {}),
        id: v.approle.id,
        secret: v.approle.secret,
        retry: `${v.approle.retry ?? 0}s`,
      },
      ...(v.tls?.key || v.tls?.ca
        ? { tls: { key: "/tmp/kes/client.key", cert: "/tmp/kes/client.crt", ca: "/tmp/kes/ca.crt" } }
        : {}),
      status: { ping: `${v.status?.ping ?? 0}s` },
    };
  } else if (enc.aws) {
    const a = enc.aws.secretsmanager;
    keys.aws = {
      secretsmanager: {
        endpoint: a.endpoint,
        region: a.region,
        kmskey: a.kmskey ?? "",
        credentials: {
          accesskey: a.credentials.accesskey,
          secretkey: a.credentials.secretkey,
          token: a.credentials.token ?? "",
        },
      },
    };
  } else if (enc.gemalto) {
    const g = enc.gemalto.keysecure;
    keys.gemalto = {
      keysecure: {
        endpoint: g.endpoint,
        credentials: {
          token: g.credentials.token,
          domain: g.credentials.domain,
          retry: `${g.credentials.retry ?? 0}s`,
        },
        ...(g.tls?.ca ? { tls: { ca: "/tmp/kes/ca.crt" } } : {}),
      },
    };
  } else if (enc.gcp) {
    const g = enc.gcp.secretmanager;
    keys.gcp = {
      secretmanager: {
        project_id: g.project_id,
        endpoint: g.endpoint ?? "",
        credentials: g.credentials ?? {},
      },
    };
  }
  return (await loadYaml()).stringify({
    address: "0.0.0.0:7373",
    root: "disabled",
    tls: { key: "/tmp/kes/server.key", cert: "/tmp/kes/server.crt" },
    policy: {
      "default-policy": {
        paths: [
          "/v1/key/create/my-minio-key",
          "/v1/key/generate/my-minio-key",
          "/v1/key/decrypt/my-minio-key",
        ],
        identities: [identity],
      },
    },
    keys,
  });
}

/** POST /api/v1/tenants. */
/** `licence`: the licence in force ("" for none), passed on to the tenant as MINIO_SUBNET_LICENSE. */
export async function createTenant(
  op: OperatorDeps,
  token: string,
  input: CreateTenantInput,
  licence = "",
): Promise<CreateTenantResponse> {
  const fields = validateCreateTenant(input);
  if (Object.keys(fields).length > 0) {
    throw new ApiError(400, Object.values(fields)[0], {
      detail: Object.entries(fields).map(([f, m]) => `${f}: ${m}`).join("; "),
      fields,
    });
  }
  const { name, namespace } = input;
  const existing = await op.k8s.list<Tenant>(token, tenantPath(namespace), { limit: 1 });
  if (existing.items.length > 0) {
    throw new ApiError(409, t("wizard.name.oneTenantPerNamespace"), {
      detail: `namespace ${namespace} already has tenant ${existing.items[0].metadata.name}`,
    });
  }

  const secrets = new SecretWriter(op, token, namespace, name);
  const accessKey = input.access_key || randomKey(16);
  const secretKey = input.secret_key || randomKey(32);
  await secrets.create(`${name}-secret`, { accesskey: "", secretkey: "" }, { immutable: true });
  try {
    const config: Record<string, string> = {
      MINIO_BROWSER: input.enable_console === false ? "off" : "on",
      MINIO_ROOT_USER: accessKey,
      MINIO_ROOT_PASSWORD: secretKey,
    };
    if (input.erasureCodingParity) config.MINIO_STORAGE_CLASS_STANDARD = `EC:${input.erasureCodingParity}`;
    const spec: Tenant["spec"] = {
      image: input.image || op.config.minioImage,
      mountPath: "/export",
      credsSecret: { name: `${name}-secret` },
      requestAutoCert: input.enable_tls,
      exposeServices: { minio: input.expose_minio, console: input.expose_console },
      pools: [],
    };

    let externalIDP = false;
    const idp = input.idp;
    if (idp?.active_directory) {
      const ad = idp.active_directory;
      const ldap: Record<string, string | boolean | undefined> = {
        SERVER_ADDR: ad.url,
        TLS_SKIP_VERIFY: ad.skip_tls_verification ? "on" : undefined,
        SERVER_INSECURE: ad.server_insecure ? "on" : undefined,
        SERVER_STARTTLS: ad.server_start_tls ? "on" : undefined,
        USERNAME_FORMAT: ad.username_format,
        USERNAME_SEARCH_FILTER: ad.username_search_filter,
        LOOKUP_BIND_DN: ad.lookup_bind_dn,
        LOOKUP_BIND_PASSWORD: ad.lookup_bind_password,
        USER_DN_SEARCH_BASE_DN: ad.user_dn_search_base_dn,
        USER_DN_SEARCH_FILTER: ad.user_dn_search_filter,
        GROUP_NAME_ATTRIBUTE: ad.group_name_attribute,
        GROUP_SEARCH_BASE_DN: ad.group_search_base_dn,
        GROUP_SEARCH_FILTER: ad.group_search_filter,
      };
      for (const [key, value] of Object.entries(ldap)) {
        if (value) config[`MINIO_IDENTITY_LDAP_${key}`] = String(value);
      }
      spec.users = [];
      for (const [i, dn] of (ad.user_dns ?? []).entries()) {
        await secrets.create(`${name}-user-${i}`, { CONSOLE_ACCESS_KEY: encodeBase64(dn) }, {
          immutable: true,
        });
        spec.users.push({ name: `${name}-user-${i}` });
      }
      externalIDP = true;
    } else if (idp?.oidc) {
      const o = idp.oidc;
      Object.assign(config, {
        MINIO_IDENTITY_OPENID_CONFIG_URL: o.configuration_url,
        MINIO_IDENTITY_OPENID_CLIENT_ID: o.client_id,
        MINIO_IDENTITY_OPENID_CLIENT_SECRET: o.secret_id,
        MINIO_IDENTITY_OPENID_CLAIM_NAME: o.claim_name,
        MINIO_IDENTITY_OPENID_REDIRECT_URI: o.callback_url ?? "",
        MINIO_IDENTITY_OPENID_SCOPES: o.scopes || "openid,profile,email",
      });
      externalIDP = true;
    } else if (idp?.keys?.length) {
      spec.users = [];
      for (const [i, pair] of idp.keys.entries()) {
        await secrets.create(`${name}-user-${i}`, {
          CONSOLE_ACCESS_KEY: encodeBase64(pair.access_key),
          CONSOLE_SECRET_KEY: encodeBase64(pair.secret_key),
        }, { immutable: true });
        spec.users.push({ name: `${name}-user-${i}` });
      }
    }

    const minioCerts = input.tls?.minio ?? [];
    if (minioCerts.length) {
      spec.externalCertSecret = [];
      for (const [i, pair] of minioCerts.entries()) {
        const secretName = `${name}-secret-instance-external-certificates-${i}`;
        await secrets.tls(secretName, pair);
        spec.externalCertSecret.push({ name: secretName, type: "kubernetes.io/tls" });
      }
    }

    const enc = input.encryption;
    if (enc && (input.enable_tls || minioCerts.length > 0)) {
      const kes: Record<string, unknown> = {
        image: enc.image || KES_IMAGE,
        replicas: 1,
        kesSecret: { name: `${name}-secret-kes-configuration` },
      };
      if (enc.client?.crt && enc.client.key) {
        await secrets.tls(`${name}-secret-tenant-external-client-cert-0`, enc.client);
        spec.externalClientCertSecret = {
          name: `${name}-secret-tenant-external-client-cert-0`,
          type: "kubernetes.io/tls",
        };
      }
      if (enc.server?.crt && enc.server.key) {
        await secrets.tls(`${name}-secret-kes-external-cert-0`, enc.server);
        kes.externalCertSecret = { name: `${name}-secret-kes-external-cert-0`, type: "kubernetes.io/tls" };
      }
      await secrets.create(`${name}-secret-kes-configuration`, {
        "server-config.yaml": encodeBase64(await kesConfig(enc)),
      }, { immutable: true, replace: true });
      const clientMaterial: Record<string, string> = {};
      if (enc.vault?.tls?.crt) clientMaterial["client.crt"] = enc.vault.tls.crt;
      if (enc.vault?.tls?.key) clientMaterial["client.key"] = enc.vault.tls.key;
      if (enc.vault?.tls?.ca) clientMaterial["ca.crt"] = enc.vault.tls.ca;
      if (enc.gemalto?.keysecure.tls?.ca) clientMaterial["ca.crt"] = enc.gemalto.keysecure.tls.ca;
      if (Object.keys(clientMaterial).length) {
        await secrets.create(`${name}-secret-kes-client-cert`, clientMaterial, {
          immutable: true,
          replace: true,
        });
        kes.clientCertSecret = { name: `${name}-secret-kes-client-cert` };
      }
      spec.kes = kes;
    }

    const cas = input.tls?.ca_certificates ?? [];
    if (cas.length) {
      spec.externalCaCertSecret = [];
      for (const [i, ca] of cas.entries()) {
        // Prefixed with the tenant, unlike the original's bare ca-certificate-{i}, so two tenants never share one.
        const secretName = `${name}-ca-certificate-${i}`;
        await secrets.create(secretName, { "public.crt": ca }, { replace: true });
        spec.externalCaCertSecret.push({ name: secretName, type: "Opaque" });
      }
    }

    // The licence in force (the License page's, kept by the console rather than in a subnet-license secret).
    if (licence) config.MINIO_SUBNET_LICENSE = licence;

    spec.pools = input.pools.map((pool, i) => poolFromInput(pool, pool.name || `pool-${i}`));
    const firstClass = spec.pools[0].volumeClaimTemplate?.spec?.storageClassName ?? "";
    const annotations = { ...(input.annotations ?? {}) };
    if (input.enable_prometheus && input.annotations) {
      Object.assign(annotations, {
        "prometheus.io/path": "/minio/prometheus/metrics",
        "prometheus.io/port": "9000",
        "prometheus.io/scrape": "true",
      });
    }
    if (input.image_pull_secret) spec.imagePullSecret = { name: input.image_pull_secret };
    else if (input.image_registry) {
      const r = input.image_registry;
      const docker = JSON.stringify({
        auths: {
          [r.registry]: {
            username: r.username,
            password: r.password,
            auth: encodeBase64(`${r.username}:${r.password}`),
          },
        },
      });
      await secrets.create(`${name}-regcred`, { ".dockerconfigjson": encodeBase64(docker) }, {
        type: "kubernetes.io/dockerconfigjson",
        replace: true,
      });
      spec.imagePullSecret = { name: `${name}-regcred` };
    }
    const log = input.logSearchConfiguration;
    const logSize = log?.storageSize ?? 5;
    spec.log = {
      audit: { diskCapacityGB: Math.min(10, logSize) },
      db: {
        volumeClaimTemplate: {
          metadata: { name: `${name}-log` },
          spec: {
            accessModes: ["ReadWriteOnce"],
            resources: { requests: { storage: String(logSize * GiB) } },
            storageClassName: log?.storageClass || (log ? firstClass : ""),
          },
        },
        ...(log?.postgres_image ? { image: log.postgres_image } : {}),
        ...(log?.postgres_init_image ? { initimage: log.postgres_init_image } : {}),
      },
      ...(log?.image ? { image: log.image } : {}),
    };
    const prom = input.prometheusConfiguration;
    spec.prometheus = {
      diskCapacityGB: prom?.storageSize ?? 5,
      storageClassName: prom?.storageClass || (prom ? firstClass : ""),
      ...(prom?.image ? { image: prom.image } : {}),
      ...(prom?.sidecar_image ? { sidecarimage: prom.sidecar_image } : {}),
      ...(prom?.init_image ? { initimage: prom.init_image } : {}),
    };

    await secrets.create(
      `${name}-env-configuration`,
      { "config.env": encodeBase64(formatConfigEnv(config)) },
      { replace: true },
    );
    spec.configuration = { name: `${name}-env-configuration` };

    await op.k8s.create<Tenant>(token, tenantPath(namespace), {
      apiVersion: "minio.min.io/v2",
      kind: "Tenant",
      metadata: { name, namespace, labels: input.labels ?? {}, annotations },
      scheduler: { name: "" },
      spec,
    });
    const keys = externalIDP ? [] : (idp?.keys ?? []);
    return {
      externalIDP,
      console: keys.map((k) => ({ access_key: k.access_key, secret_key: k.secret_key })),
    };
  } catch (error) {
    await secrets.cleanup();
    if (error instanceof K8sError && error.status === 409) {
      throw new ApiError(409, t("wizard.server.tenantExists"), { detail: error.message });
    }
    throw error;
  }
}
