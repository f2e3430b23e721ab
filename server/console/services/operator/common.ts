/**
 * What several operator services need about a Tenant: its configuration (env, credentials secret and
 * config.env), whether it serves TLS, its pools in the console's shape, and where its Services listen.
 */
import type { PoolInfo, TenantListItem } from "../../../lib/contract/operator.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { t } from "../../../../islands/lib/i18n/t.ts";
import { corePath, K8sError, tenantPath } from "../../k8s/client.ts";
import { parseQuantity } from "../../../lib/contract/quantity.ts";
import type { Secret, Service, Tenant, TenantPool } from "../../k8s/types.ts";

export const decodeBase64 = (
  value: string | undefined,
) => (value ? new TextDecoder().decode(Uint8Array.fromBase64(value)) : "");
export const encodeBase64 = (value: string) => new TextEncoder().encode(value).toBase64();

/** Reads a Tenant; 404 "not found" when it does not exist. */
export function getTenant(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  timeoutMs?: number,
): Promise<Tenant> {
  return op.k8s.get<Tenant>(token, tenantPath(namespace, name), { timeoutMs });
}

/** The `export KEY="value"` lines of a config.env (operator-k8s.md §3.2); the value is everything after the first "=". */
export function parseConfigEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("export")) continue;
    const eq = line.indexOf("=");
    if (eq < 0) continue;
    const key = line.slice(6, eq).trim();
    if (key) out[key] = line.slice(eq + 1).trim().replace(/^"/, "").replace(/"$/, "");
  }
  return out;
}

/** Writes config.env lines, one `export KEY="value"` per variable. */
export function formatConfigEnv(values: Record<string, string>): string {
  return Object.entries(values).map(([k, v]) => `export ${k}="${v}"`).join("\n") + "\n";
}

/**
 * The tenant's configuration map: spec.env, then every key of the credentials secret, then config.env,
 * where MINIO_ROOT_USER/PASSWORD (or the older ACCESS/SECRET_KEY) also appear as accesskey/secretkey.
 */
export async function tenantConfiguration(
  op: OperatorDeps,
  token: string,
  tenant: Tenant,
): Promise<Record<string, string>> {
  const config: Record<string, string> = {};
  for (const env of tenant.spec.env ?? []) if (typeof env.value === "string") config[env.name] = env.value;
  const namespace = tenant.metadata.namespace!;
  if (tenant.spec.credsSecret?.name) {
    const secret = await op.k8s.get<Secret>(
      token,
      corePath("secrets", { namespace, name: tenant.spec.credsSecret.name }),
    );
    for (const [key, value] of Object.entries(secret.data ?? {})) config[key] = decodeBase64(value);
  }
  if (tenant.spec.configuration?.name) {
    try {
      const secret = await op.k8s.get<Secret>(
        token,
        corePath("secrets", { namespace, name: tenant.spec.configuration.name }),
      );
      const parsed = parseConfigEnv(decodeBase64(secret.data?.["config.env"]));
      Object.assign(config, parsed);
      const user = parsed.MINIO_ROOT_USER || parsed.MINIO_ACCESS_KEY;
      const password = parsed.MINIO_ROOT_PASSWORD || parsed.MINIO_SECRET_KEY;
      if (user) config.accesskey = user;
      if (password) config.secretkey = password;
    } catch (error) {
      if (!(error instanceof K8sError)) throw error;
    }
  }
  return config;
}

/** TLS(): auto-cert (on unless set to false) or external certificates (operator-k8s.md §3.2 step 3). */
export const tenantTls = (tenant: Tenant) =>
  tenant.spec.requestAutoCert !== false || (tenant.spec.externalCertSecret?.length ?? 0) > 0;

/** Bytes of a pool: servers × volumes × the claim template's request. */
export function poolBytes(pool: TenantPool): number {
  const size = parseQuantity(pool.volumeClaimTemplate?.spec?.resources?.requests?.storage) ?? 0;
  return pool.servers * pool.volumesPerServer * size;
}

/** A pool as the console answers it (operator-k8s.md §4.4). */
export function poolInfo(pool: TenantPool, index: number): PoolInfo {
  const quantities = (map?: Record<string, string>) =>
    map && Object.keys(map).length
      ? Object.fromEntries(Object.entries(map).map(([k, v]) => [k, parseQuantity(v) ?? 0]))
      : undefined;
  const requests = quantities(pool.resources?.requests);
  const limits = quantities(pool.resources?.limits);
  return {
    name: pool.name || `ss-${index}`,
    servers: pool.servers,
    volumes_per_server: pool.volumesPerServer,
    volume_configuration: {
      size: parseQuantity(pool.volumeClaimTemplate?.spec?.resources?.requests?.storage) ?? 0,
      ...(pool.volumeClaimTemplate?.spec?.storageClassName
        ? { storage_class_name: pool.volumeClaimTemplate.spec.storageClassName }
        : {}),
    },
    ...(pool.nodeSelector ? { node_selector: pool.nodeSelector } : {}),
    ...(requests || limits
      ? { resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } }
      : {}),
    ...(pool.affinity ? { affinity: pool.affinity } : {}),
    ...(pool.tolerations ? { tolerations: pool.tolerations } : {}),
  };
}

/** A list row of a tenant (operator-k8s.md §3.1). */
export function tenantListItem(tenant: Tenant): TenantListItem {
  const pools = tenant.spec?.pools ?? [];
  return {
    name: tenant.metadata.name,
    namespace: tenant.metadata.namespace ?? "",
    ...(tenant.metadata.creationTimestamp ? { creation_date: tenant.metadata.creationTimestamp } : {}),
    ...(tenant.metadata.deletionTimestamp ? { deletion_date: tenant.metadata.deletionTimestamp } : {}),
    pool_count: pools.length,
    instance_count: pools.reduce((sum, p) => sum + p.servers, 0),
    volume_count: pools.reduce((sum, p) => sum + p.servers * p.volumesPerServer, 0),
    total_size: pools.reduce((sum, p) => sum + poolBytes(p), 0),
    currentState: tenant.status?.currentState ?? "",
    health_status: tenant.status?.healthStatus ?? "",
  };
}

/**
 * Where a tenant Service listens: the port named for it (http-console, https-minio...) read from the Service,
 * on the Service's DNS name or cluster IP (CONSOLE_K8S_SERVICE_ACCESS). The port name says whether it
 * speaks TLS, as the operator names them; without a name, the tenant's TLS setting decides.
 */
export async function serviceUrl(
  op: OperatorDeps,
  token: string,
  tenant: Tenant,
  serviceName: string,
  kind: "minio" | "console",
): Promise<string> {
  const namespace = tenant.metadata.namespace!;
  let service: Service;
  try {
    service = await op.k8s.get<Service>(token, corePath("services", { namespace, name: serviceName }), {
      timeoutMs: 5000,
    });
  } catch (error) {
    if (error instanceof K8sError && error.status === 404) {
      throw new ApiError(502, t("operator.api.serviceMissing", { kind }), { detail: error.message });
    }
    throw error;
  }
  const ports = service.spec?.ports ?? [];
  const port = ports.find((p) => p.name === `https-${kind}` || p.name === `http-${kind}`) ?? ports[0];
  if (!port) throw new ApiError(502, t("operator.api.serviceNoPort", { kind }));
  const scheme = port.name?.startsWith("https")
    ? "https"
    : port.name?.startsWith("http")
    ? "http"
    : tenantTls(tenant)
    ? "https"
    : "http";
  let host = `${serviceName}.${namespace}.svc.${op.config.clusterDomain}`;
  if (op.config.serviceAccess === "cluster-ip") {
    const ip = service.spec?.clusterIP;
    if (!ip || ip === "None") throw new ApiError(502, t("operator.api.serviceNoIp", { kind }));
    host = ip.includes(":") ? `[${ip}]` : ip;
  }
  return `${scheme}://${host}:${port.port}`;
}

/**
 * Runs a read-modify-write of a Tenant again when the API server says the object changed meanwhile: the
 * operator updates a Tenant's status all the time, so a change computed from the current object (add a
 * pool, set an image) would otherwise fail for no reason the user could act on (client-go's
 * RetryOnConflict does the same). A user's own stale edit (Edit YAML) is not retried: that 409 is theirs.
 */
export async function retryOnConflict(change: () => Promise<void>, attempts = 5): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof K8sError && error.status === 409) || attempt >= attempts) throw error;
    }
  }
}
