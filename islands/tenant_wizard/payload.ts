/** The POST /api/v1/tenants body built from the wizard's state (spec 3 §3 "Tenant create payload"). */
import type { CreateTenantInput } from "../../server/lib/contract/operator.ts";
import {
  defaultAffinity,
  joinLabels,
  nodeSelectorAffinity,
  parityOf,
} from "../../server/lib/contract/operator_rules.ts";
import type { SizeComputation } from "./rules.ts";
import { completePairs, type FileValue, type WizardState } from "./state.ts";

const file = (f: FileValue) => f.value;

/** The POST /api/v1/tenants body (spec 3 §3). */
export function buildPayload(s: WizardState, size: SizeComputation): CreateTenantInput {
  const c = s.configure;
  const poolName = "pool-0";
  const affinity = s.affinity.kind === "none"
    ? undefined
    : s.affinity.kind === "default"
    ? defaultAffinity(s.name.tenantName, poolName)
    : nodeSelectorAffinity(
      s.name.tenantName,
      poolName,
      joinLabels(s.affinity.labels),
      s.affinity.withPodAntiAffinity,
    );
  const payload: CreateTenantInput = {
    name: s.name.tenantName,
    namespace: s.name.namespace,
    access_key: "",
    secret_key: "",
    access_keys: [],
    secret_keys: [],
    enable_tls: s.security.enableTLS && s.security.autoCert,
    enable_console: true,
    enable_prometheus: true,
    service_name: "",
    image: c.customImage ? c.imageName : "",
    expose_minio: c.exposeMinio,
    expose_console: c.exposeConsole,
    pools: [{
      name: poolName,
      servers: size.distribution.nodes,
      volumes_per_server: size.distribution.disks,
      volume_configuration: { size: size.distribution.pvSize, storage_class_name: s.name.storageClass },
      resources: { requests: { memory: size.memory.request }, limits: { memory: size.memory.limit } },
      ...(affinity ? { affinity } : {}),
    }],
    erasureCodingParity: parityOf(s.size.ecParity),
    logSearchConfiguration: {
      ...(c.logSearchCustom ? { storageClass: c.logSearchClass, storageSize: Number(c.logSearchSize) } : {}),
      ...(c.customImage && c.logSearchImage ? { image: c.logSearchImage } : {}),
      ...(c.customImage && c.postgresImage ? { postgres_image: c.postgresImage } : {}),
      ...(c.customImage && c.postgresInitImage ? { postgres_init_image: c.postgresInitImage } : {}),
    },
    prometheusConfiguration: {
      ...(c.prometheusCustom
        ? { storageClass: c.prometheusClass, storageSize: Number(c.prometheusSize) }
        : {}),
      ...(c.customImage && c.prometheusImage ? { image: c.prometheusImage } : {}),
      ...(c.customImage && c.prometheusSidecarImage ? { sidecar_image: c.prometheusSidecarImage } : {}),
      ...(c.customImage && c.prometheusInitImage ? { init_image: c.prometheusInitImage } : {}),
    },
    idp: idpPayload(s),
  };
  if (c.customRegistry) {
    payload.image_registry = {
      registry: c.registry,
      username: c.registryUsername,
      password: c.registryPassword,
    };
  }
  if (s.security.enableTLS && s.security.customCerts) {
    payload.tls = {
      minio: completePairs(s.security.minioCerts),
      ca_certificates: s.security.caCerts.map((c) => file(c.cert)).filter(Boolean),
      console_ca_certificates: [],
    };
  }
  if (s.encryption.enabled) payload.encryption = encryptionPayload(s);
  return payload;
}

function idpPayload(s: WizardState): CreateTenantInput["idp"] {
  if (s.idp.kind === "openid") {
    const o = s.idp.openid;
    return {
      oidc: {
        url: o.url,
        configuration_url: o.configurationUrl,
        client_id: o.clientId,
        secret_id: o.secretId,
        claim_name: o.claimName,
        callback_url: o.callbackUrl,
        scopes: o.scopes,
      },
    };
  }
  if (s.idp.kind === "ad") {
    const a = s.idp.ad;
    return {
      active_directory: {
        url: a.url,
        skip_tls_verification: a.skipTls,
        server_insecure: a.serverInsecure,
        server_start_tls: a.startTls,
        username_format: a.usernameFormat,
        username_search_filter: a.usernameSearchFilter,
        group_search_base_dn: a.groupSearchBaseDn,
        group_search_filter: a.groupSearchFilter,
        group_name_attribute: a.groupNameAttribute,
        user_dns: a.userDns,
        lookup_bind_dn: a.lookupBindDn,
        lookup_bind_password: a.lookupBindPassword,
        user_dn_search_base_dn: a.userDnSearchBaseDn,
        user_dn_search_filter: a.userDnSearchFilter,
      },
    };
  }
  return { keys: s.idp.keys.map((k) => ({ access_key: k.accessKey, secret_key: k.secretKey })) };
}

function encryptionPayload(s: WizardState): NonNullable<CreateTenantInput["encryption"]> {
  const e = s.encryption;
  const pair = (
    p: { key: FileValue; cert: FileValue },
  ) => (p.key.value && p.cert.value ? { crt: p.cert.value, key: p.key.value } : undefined);
  const out: NonNullable<CreateTenantInput["encryption"]> = {
    ...(s.configure.customImage && s.configure.kesImage ? { image: s.configure.kesImage } : {}),
    ...(e.customCerts && pair(e.server) ? { server: pair(e.server) } : {}),
    ...(e.customCerts && pair(e.client) ? { client: pair(e.client) } : {}),
  };
  if (e.kind === "vault") {
    const v = e.vault;
    out.vault = {
      endpoint: v.endpoint,
      engine: v.engine,
      namespace: v.namespace,
      prefix: v.prefix,
      approle: { engine: v.approleEngine, id: v.approleId, secret: v.approleSecret, retry: Number(v.retry) },
      ...(v.key.value || v.cert.value || v.ca.value
        ? { tls: { key: v.key.value, crt: v.cert.value, ca: v.ca.value } }
        : {}),
      status: { ping: Number(v.ping) },
    };
  } else if (e.kind === "aws") {
    const a = e.aws;
    out.aws = {
      secretsmanager: {
        endpoint: a.endpoint,
        region: a.region,
        kmskey: a.kmsKey,
        credentials: { accesskey: a.accessKey, secretkey: a.secretKey, token: a.token },
      },
    };
  } else if (e.kind === "gemalto") {
    const g = e.gemalto;
    out.gemalto = {
      keysecure: {
        endpoint: g.endpoint,
        credentials: { token: g.token, domain: g.domain, retry: Number(g.retry) },
        ...(g.ca.value ? { tls: { ca: g.ca.value } } : {}),
      },
    };
  } else {
    const g = e.gcp;
    out.gcp = {
      secretmanager: {
        project_id: g.projectId,
        endpoint: g.endpoint,
        credentials: {
          client_email: g.clientEmail,
          client_id: g.clientId,
          private_key_id: g.privateKeyId,
          private_key: g.privateKey,
        },
      },
    };
  }
  return out;
}
