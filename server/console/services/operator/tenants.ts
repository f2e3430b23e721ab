/**
 * Tenants (operator-k8s.md §3.2-§3.8): details, usage over the tenant's own admin API, delete, YAML,
 * version update and Add Pool (the list is in operator_tenant_list.ts). Every call carries the signed-in operator's token.
 */
import type {
  PoolInput,
  TenantInfo,
  TenantUsage,
  UpdateTenantInput,
} from "../../../lib/contract/operator.ts";
import { isImage } from "../../../lib/contract/operator_rules.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { t } from "../../../../islands/lib/i18n/t.ts";
import { corePath, K8sError, tenantPath } from "../../k8s/client.ts";
import { loadYaml } from "../../k8s/yaml.ts";
import { binaryQuantity, decimalQuantity } from "../../../lib/contract/quantity.ts";
import type { Secret, Service, Tenant, TenantPool } from "../../k8s/types.ts";
import { serverInfo } from "../../../lib/s3/admin/info.ts";
import { S3Client } from "../../../lib/s3/client.ts";
import type { LicenseStore } from "../../license/store.ts";
import {
  encodeBase64,
  getTenant,
  poolBytes,
  poolInfo,
  retryOnConflict,
  serviceUrl,
  tenantConfiguration,
  tenantTls,
} from "./common.ts";
import { tenantLicense } from "./license.ts";

const PROMETHEUS_ANNOTATIONS = {
  "prometheus.io/path": "/minio/prometheus/metrics",
  "prometheus.io/port": "9000",
  "prometheus.io/scrape": "true",
};

async function endpointFrom(
  op: OperatorDeps,
  token: string,
  tenant: Tenant,
  service: string,
): Promise<string> {
  try {
    const found = await op.k8s.get<Service>(
      token,
      corePath("services", { namespace: tenant.metadata.namespace, name: service }),
      { timeoutMs: 5000 },
    );
    const ingress = found.status?.loadBalancer?.ingress?.[0];
    return ingress?.hostname || ingress?.ip || "";
  } catch (error) {
    if (error instanceof K8sError) return ""; // services are optional for the details (§3.2 step 6)
    throw error;
  }
}

/** GET /namespaces/{ns}/tenants/{t} (operator-k8s.md §3.2). */
export async function tenantDetails(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  licenses?: LicenseStore,
): Promise<TenantInfo> {
  const tenant = await getTenant(op, token, namespace, name, 5000);
  let config: Record<string, string> = {};
  try {
    config = await tenantConfiguration(op, token, tenant);
  } catch (error) {
    if (!(error instanceof K8sError)) throw error; // an unreadable secret leaves the map empty; details still answer
  }
  const tls = tenantTls(tenant);
  const [minioHost, consoleHost] = await Promise.all([
    endpointFrom(op, token, tenant, "minio"),
    endpointFrom(op, token, tenant, `${name}-console`),
  ]);
  const endpoints: TenantInfo["endpoints"] = {};
  if (minioHost) endpoints.minio = `${tls ? "https" : "http"}://${minioHost}`;
  if (consoleHost) endpoints.console = tls ? `https://${consoleHost}:9443` : `http://${consoleHost}:9090`;
  const annotations = tenant.metadata.annotations ?? {};
  const pools = tenant.spec.pools ?? [];
  const status = tenant.status ?? {};
  const subnetLicense = licenses ? await tenantLicense(licenses, config) : undefined;
  return {
    name,
    namespace,
    ...(tenant.metadata.creationTimestamp ? { creation_date: tenant.metadata.creationTimestamp } : {}),
    ...(tenant.metadata.deletionTimestamp ? { deletion_date: tenant.metadata.deletionTimestamp } : {}),
    currentState: status.currentState ?? "",
    image: tenant.spec.image ?? "",
    total_size: pools.reduce((sum, p) => sum + poolBytes(p), 0),
    pools: pools.map(poolInfo),
    enable_prometheus: Object.keys(PROMETHEUS_ANNOTATIONS).every((k) => k in annotations),
    ...(Object.keys(endpoints).length ? { endpoints } : {}),
    status: {
      health_status: status.healthStatus ?? "",
      drives_online: status.drivesOnline ?? 0,
      drives_offline: status.drivesOffline ?? 0,
      drives_healing: status.drivesHealing ?? 0,
      write_quorum: status.writeQuorum ?? 0,
    },
    logEnabled: !!tenant.spec.log,
    monitoringEnabled: !!tenant.spec.prometheus,
    encryptionEnabled: !!tenant.spec.kes || !!config.MINIO_KMS_SECRET_KEY,
    minioTLS: tls,
    consoleTLS: tls,
    consoleEnabled: config.MINIO_BROWSER !== "off",
    idpAdEnabled: !!config.MINIO_IDENTITY_LDAP_SERVER_ADDR,
    idpOidcEnabled: !!config.MINIO_IDENTITY_OPENID_CONFIG_URL,
    ...(subnetLicense ? { subnet_license: subnetLicense } : {}),
  };
}

/** GET .../usage: the tenant's own admin ServerInfo with its root credentials (operator-k8s.md §3.8). */
export async function tenantUsage(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  fetchImpl: typeof fetch = fetch,
): Promise<TenantUsage> {
  const tenant = await getTenant(op, token, namespace, name);
  const config = await tenantConfiguration(op, token, tenant);
  if (!config.accesskey || !config.secretkey) {
    throw new ApiError(500, t("operator.summary.usageFailed"), {
      detail: t("operator.api.noRootCredentials"),
    });
  }
  const endpoint = await serviceUrl(op, token, tenant, "minio", "minio");
  try {
    const info = await serverInfo(
      new S3Client({
        endpoint,
        credentials: { accessKey: config.accesskey, secretKey: config.secretkey },
        fetch: fetchImpl,
      }),
      AbortSignal.timeout(30_000),
    );
    const diskUsed = (info.servers ?? []).flatMap((s) => s.drives ?? []).reduce(
      (sum, d) => sum + (d.usedspace ?? 0),
      0,
    );
    return { used: info.usage?.size ?? 0, disk_used: diskUsed };
  } catch (error) {
    throw new ApiError(500, t("operator.summary.usageFailed"), {
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}

/** DELETE .../tenants/{t}: the typed name must match; optionally its volume claims and secrets too (§3.6). */
export async function deleteTenant(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  options: { confirm?: string; deletePvcs?: boolean },
): Promise<void> {
  if (options.confirm !== name) {
    throw new ApiError(400, t("operator.tenants.nameIncorrect"), {
      detail: t("operator.api.typeTenantName"),
    });
  }
  await getTenant(op, token, namespace, name);
  try {
    await op.k8s.delete(token, tenantPath(namespace, name));
  } catch (error) {
    if (!(options.deletePvcs && error instanceof K8sError && error.status === 404)) throw error;
  }
  if (!options.deletePvcs) return;
  for (
    const selector of [
      `v1.min.io/tenant=${name}`,
      `v1.min.io/log-pg=${name}-log`,
      `v1.min.io/prometheus=${name}-prometheus`,
    ]
  ) {
    await op.k8s.delete(token, corePath("persistentvolumeclaims", { namespace }), {
      labelSelector: selector,
    });
  }
  await op.k8s.delete(token, corePath("secrets", { namespace }), {
    labelSelector: `v1.min.io/tenant=${name}`,
  });
}

/** GET .../yaml: the Tenant without managed fields and type meta, status included (§3.5). */
export async function tenantYaml(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
): Promise<string> {
  const tenant = await getTenant(op, token, namespace, name);
  const { apiVersion: _a, kind: _k, ...rest } = tenant;
  delete rest.metadata.managedFields;
  return (await loadYaml()).stringify(rest);
}

/** PUT .../yaml: labels, annotations, finalizers and spec from the text onto the stored Tenant (§3.5). */
export async function putTenantYaml(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  text: string,
): Promise<void> {
  if (!text.trim()) throw ApiError.badRequest(t("operator.api.yamlEmpty"));
  const { parse } = await loadYaml();
  let parsed: Tenant;
  try {
    parsed = parse(text) as Tenant;
  } catch (error) {
    throw new ApiError(
      400,
      error instanceof Error ? error.message.split("\n")[0] : t("operator.api.yamlInvalid"),
      {
        detail: error instanceof Error ? error.message : String(error),
      },
    );
  }
  if (typeof parsed !== "object" || parsed === null || typeof parsed.spec !== "object") {
    throw ApiError.badRequest(t("operator.api.yamlNotTenant"));
  }
  const tenant = await getTenant(op, token, namespace, name);
  tenant.metadata.labels = parsed.metadata?.labels;
  tenant.metadata.annotations = parsed.metadata?.annotations;
  tenant.metadata.finalizers = parsed.metadata?.finalizers;
  tenant.spec = parsed.spec;
  try {
    await op.k8s.replace(token, tenantPath(namespace, name), tenant);
  } catch (error) {
    if (error instanceof K8sError && error.status < 500 && error.status !== 401 && error.status !== 403) {
      throw new ApiError(400, error.message, { detail: error.message });
    }
    throw error;
  }
}

function dockerConfig(registry: { registry: string; username: string; password: string }): string {
  const auth = encodeBase64(`${registry.username}:${registry.password}`);
  return JSON.stringify({
    auths: { [registry.registry]: { username: registry.username, password: registry.password, auth } },
  });
}

/** PUT .../tenants/{t}: image, custom registry and monitoring annotations (§3.4). */
export async function updateTenant(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  input: UpdateTenantInput,
): Promise<void> {
  if (input.image && !isImage(input.image)) {
    throw new ApiError(400, t("operator.summary.invalidImage"), {
      detail: t("operator.summary.imageFormat"),
      fields: { image: t("operator.summary.imageFormat") },
    });
  }
  await retryOnConflict(() => applyTenantUpdate(op, token, namespace, name, input));
}

async function applyTenantUpdate(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  input: UpdateTenantInput,
): Promise<void> {
  const tenant = await getTenant(op, token, namespace, name);
  if (input.image_pull_secret) tenant.spec.imagePullSecret = { name: input.image_pull_secret };
  else if (input.image_registry) {
    const r = input.image_registry;
    if (!r.registry || !r.username || !r.password) {
      throw new ApiError(400, t("operator.api.invalidRequest"), {
        detail: t("operator.api.registryRequired"),
      });
    }
    const secretName = `${name}-regcred`;
    const data = { ".dockerconfigjson": encodeBase64(dockerConfig(r)) };
    const path = corePath("secrets", { namespace, name: secretName });
    try {
      const existing = await op.k8s.get<Secret>(token, path);
      await op.k8s.replace(token, path, { ...existing, data });
    } catch (error) {
      if (!(error instanceof K8sError && error.status === 404)) throw error;
      await op.k8s.create(token, corePath("secrets", { namespace }), {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: secretName, namespace, labels: { "v1.min.io/tenant": name } },
        type: "kubernetes.io/dockerconfigjson",
        data,
      });
    }
    // Unlike the original, also reference it: a registry secret the pods never use changes nothing.
    tenant.spec.imagePullSecret = { name: secretName };
  }
  if (input.image) tenant.spec.image = input.image;
  if (input.enable_prometheus !== undefined) setPrometheusAnnotations(tenant, input.enable_prometheus);
  await patchWhole(op, token, tenant, t("operator.api.updateFailed"));
}

function setPrometheusAnnotations(tenant: Tenant, enabled: boolean): void {
  const apply = (annotations: Record<string, string> | null | undefined) => {
    const next = { ...(annotations ?? {}) };
    for (const [k, v] of Object.entries(PROMETHEUS_ANNOTATIONS)) {
      if (enabled) next[k] = v;
      else delete next[k];
    }
    return next;
  };
  if (enabled && !tenant.metadata.annotations) return; // as the original: only tenants that carry annotations get them
  tenant.metadata.annotations = apply(tenant.metadata.annotations);
  for (const pool of tenant.spec.pools ?? []) {
    if (pool.volumeClaimTemplate) {
      pool.volumeClaimTemplate.metadata = {
        ...pool.volumeClaimTemplate.metadata,
        annotations: apply(pool.volumeClaimTemplate.metadata?.annotations),
      };
    }
  }
}

/**
 * Merge patch with the whole modified Tenant, as the original sends it: arrays replace wholesale and the
 * resourceVersion inside makes a concurrent change a 409 instead of a lost update.
 */
async function patchWhole(op: OperatorDeps, token: string, tenant: Tenant, friendly: string): Promise<void> {
  const { apiVersion: _a, kind: _k, status: _s, ...patch } = tenant;
  try {
    await op.k8s.mergePatch(token, tenantPath(tenant.metadata.namespace, tenant.metadata.name), patch);
  } catch (error) {
    if (error instanceof K8sError && (error.status === 400 || error.status === 422)) {
      throw new ApiError(400, friendly, { detail: error.message });
    }
    throw error;
  }
}

/** A pool as written to the Tenant (operator-k8s.md §4.3). */
export function poolFromInput(input: PoolInput, name: string): TenantPool {
  const quantities = (
    map?: Record<string, number>,
  ) => (map && Object.keys(map).length
    ? Object.fromEntries(Object.entries(map).map(([k, v]) => [k, binaryQuantity(v)]))
    : undefined);
  const requests = quantities(input.resources?.requests);
  const limits = quantities(input.resources?.limits);
  const vc = input.volume_configuration;
  return {
    name,
    servers: input.servers,
    volumesPerServer: input.volumes_per_server,
    volumeClaimTemplate: {
      metadata: {
        name: "data",
        ...(vc.labels ? { labels: vc.labels } : {}),
        ...(vc.annotations ? { annotations: vc.annotations } : {}),
      },
      spec: {
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: decimalQuantity(vc.size) } },
        ...(vc.storage_class_name ? { storageClassName: vc.storage_class_name } : {}),
      },
    },
    ...(requests || limits
      ? { resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } }
      : {}),
    ...(input.node_selector && Object.keys(input.node_selector).length
      ? { nodeSelector: input.node_selector }
      : {}),
    ...(input.affinity && Object.keys(input.affinity).length ? { affinity: input.affinity } : {}),
    ...(input.tolerations?.length ? { tolerations: input.tolerations } : {}),
  };
}

/** POST .../pools: appends a pool named pool-{count} unless named (§3.7). */
export async function addPool(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  input: PoolInput,
): Promise<void> {
  await retryOnConflict(async () => {
    const tenant = await getTenant(op, token, namespace, name);
    const pools = tenant.spec.pools ?? [];
    const poolName = input.name || `pool-${pools.length}`;
    if (pools.some((p, i) => (p.name || `ss-${i}`) === poolName)) {
      throw new ApiError(409, t("operator.pools.addFailed"), {
        detail: t("operator.api.poolExists", { name: poolName }),
      });
    }
    tenant.spec.pools = [...pools, poolFromInput(input, poolName)];
    await patchWhole(op, token, tenant, t("operator.pools.addFailed"));
  });
}
