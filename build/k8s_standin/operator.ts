/**
 * The MinIO operator's and the cluster's part in the stand-in: watches Tenants and, like the operator,
 * creates their Services, pool pods (with events and logs) and volume claims, starts what backs them (a real
 * Deck storage server and console, tenant_backing.ts) and keeps their status; recreates a deleted pod as its
 * StatefulSet would; formats DirectCSI drives as the direct-csi node agent does.
 */
import { serverInfo } from "../../server/lib/s3/admin/info.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { type K8sObject, RESOURCES } from "./resources.ts";
import type { Store, StoreEvent } from "./store.ts";
import { startTenantBacking, type TenantBacking } from "./tenant_backing.ts";
import { now, POOL_LABEL, TENANT_LABEL, TenantWorkloads } from "./workloads.ts";

const kind = (k: string) => RESOURCES.find((r) => r.kind === k)!;
const TENANTS = kind("Tenant");
const PODS = kind("Pod");
const SERVICES = kind("Service");
const SECRETS = kind("Secret");
const DRIVES = kind("DirectCSIDrive");

const decode = (
  value: string | undefined,
) => (value ? new TextDecoder().decode(Uint8Array.fromBase64(value)) : "");

/** `export KEY="value"` lines of a config.env, as the operator's ParseRawConfiguration reads them. */
export function parseConfigEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("export")) continue;
    const parts = line.slice(6).split("=");
    if (parts.length !== 2) continue;
    out[parts[0].trim()] = parts[1].trim().replace(/^"|"$/g, "");
  }
  return out;
}

export class TenantOperator {
  #store: Store;
  #back: boolean;
  #backings = new Map<string, Promise<TenantBacking | null>>();
  /** Backings that have started, for synchronous readers (pod logs). */
  #running = new Map<string, TenantBacking>();
  #observed = new Map<string, string>();
  #work = new Set<Promise<unknown>>();
  #tearingDown = new Set<string>();
  #unsubscribe: () => void = () => {};
  #workloads: TenantWorkloads;

  constructor(store: Store, options: { backTenants: boolean }) {
    this.#store = store;
    this.#back = options.backTenants;
    this.#workloads = new TenantWorkloads(store);
  }

  start(): void {
    this.#unsubscribe = this.#store.subscribe((event) => this.#track(this.#onEvent(event)));
    for (const tenant of this.#store.list(TENANTS)) {
      this.#track(this.#reconcile(tenant.metadata.namespace, tenant.metadata.name));
    }
  }

  /** Resolves when every reaction started so far (and those it started) has finished. */
  async settled(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  /** The backing of a tenant, once started (tests seed data through it). */
  async backing(namespace: string, name: string): Promise<TenantBacking | null> {
    await this.settled();
    return (await this.#backings.get(`${namespace}/${name}`)) ?? null;
  }

  async close(): Promise<void> {
    this.#unsubscribe();
    await this.settled();
    for (const backing of this.#backings.values()) await (await backing)?.close();
    this.#backings.clear();
  }

  #track(work: Promise<unknown>): void {
    const tracked = work.catch((error) => console.error("stand-in operator:", error)).finally(() =>
      this.#work.delete(tracked)
    );
    this.#work.add(tracked);
  }

  async #onEvent(event: StoreEvent): Promise<void> {
    const { metadata } = event.object;
    if (event.resource === TENANTS) {
      if (event.type === "DELETED") await this.#teardown(metadata.namespace, metadata.name);
      else await this.#reconcile(metadata.namespace, metadata.name);
    } else if (event.resource === PODS && event.type === "DELETED") {
      const tenant = metadata.labels?.[TENANT_LABEL];
      const key = `${metadata.namespace}/${tenant}`;
      if (tenant && !this.#tearingDown.has(key) && this.#store.get(TENANTS, metadata.namespace, tenant)) {
        this.#workloads.event(event.object, "Killing", "Stopping container minio", "Normal");
        this.#workloads.createPod(
          this.#store.get(TENANTS, metadata.namespace, tenant)!,
          metadata.labels[POOL_LABEL],
          metadata.name,
          event.object.spec?.nodeName,
        );
      }
    } else if (event.resource === DRIVES && event.type === "MODIFIED") {
      this.#formatDrive(event.object);
    }
  }

  /** A drive with a requested format becomes a formatted, mounted, Ready drive (direct-csi's node agent). */
  #formatDrive(drive: K8sObject): void {
    if (!drive.spec?.requestedFormat || drive.status?.driveStatus !== "Available") return;
    const formatted = structuredClone(drive);
    delete formatted.spec.requestedFormat;
    formatted.metadata.finalizers = ["direct.csi.min.io/data-protection"];
    formatted.status = {
      ...formatted.status,
      driveStatus: "Ready",
      filesystem: "xfs",
      mountpoint: `/var/lib/direct-csi/mnt/${drive.metadata.name}`,
      freeCapacity: formatted.status.totalCapacity,
      conditions: (formatted.status.conditions ?? []).map((c: Record<string, string>) => ({
        ...c,
        status: "True",
        reason: c.type,
        message: c.type === "Formatted" ? "xfs" : "",
        lastTransitionTime: now(),
      })),
    };
    this.#store.replace(DRIVES, formatted);
  }

  async #reconcile(namespace: string, name: string): Promise<void> {
    const key = `${namespace}/${name}`;
    const tenant = this.#store.get(TENANTS, namespace, name);
    if (!tenant) return;
    const observed = JSON.stringify(tenant.spec);
    if (this.#observed.get(key) === observed) return;
    this.#observed.set(key, observed);
    if (this.#back && !this.#backings.has(key)) this.#backings.set(key, this.#startBacking(tenant));
    const backing = await this.#backings.get(key);
    if (backing) this.#running.set(key, backing);
    const current = this.#store.get(TENANTS, namespace, name);
    if (!current || JSON.stringify(current.spec) !== observed) return; // changed again or deleted meanwhile: a later event reconciles
    this.#workloads.ensureServices(current, backing ?? null);
    this.#workloads.ensurePods(current);
    await this.#writeStatus(current, backing ?? null);
  }

  async #startBacking(tenant: K8sObject): Promise<TenantBacking | null> {
    const { namespace } = tenant.metadata;
    const secret = (name?: string) => (name ? this.#store.get(SECRETS, namespace, name) : undefined);
    const config = parseConfigEnv(decode(secret(tenant.spec.configuration?.name)?.data?.["config.env"]));
    const creds = secret(tenant.spec.credsSecret?.name)?.data ?? {};
    const accessKey = config.MINIO_ROOT_USER || config.MINIO_ACCESS_KEY || decode(creds.accesskey);
    const secretKey = config.MINIO_ROOT_PASSWORD || config.MINIO_SECRET_KEY || decode(creds.secretkey);
    if (!accessKey || !secretKey) return null;
    const users = (tenant.spec.users ?? []).map((u: { name: string }) => secret(u.name)?.data ?? {})
      .map((data: Record<string, string>) => ({
        accessKey: decode(data.CONSOLE_ACCESS_KEY),
        secretKey: decode(data.CONSOLE_SECRET_KEY),
      }))
      .filter((u: { accessKey: string; secretKey: string }) => u.accessKey && u.secretKey.length >= 8);
    return await startTenantBacking({ root: { accessKey, secretKey }, users });
  }

  /** Status as the operator writes it; health from the backing's real admin API. */
  async #writeStatus(tenant: K8sObject, backing: TenantBacking | null): Promise<void> {
    const pools = tenant.spec.pools ?? [];
    const drives = pools.reduce(
      (sum: number, p: { servers: number; volumesPerServer: number }) => sum + p.servers * p.volumesPerServer,
      0,
    );
    const config = parseConfigEnv(
      decode(
        this.#store.get(SECRETS, tenant.metadata.namespace, tenant.spec.configuration?.name ?? "")?.data
          ?.["config.env"],
      ),
    );
    const parity = Number(
      /EC:(\d+)/.exec(config.MINIO_STORAGE_CLASS_STANDARD ?? "")?.[1] ?? Math.min(4, Math.floor(drives / 2)),
    );
    const writeQuorum = parity * 2 === drives ? drives - parity + 1 : drives - parity;
    let online = drives;
    if (backing) {
      try {
        const info = await serverInfo(
          new S3Client({ endpoint: backing.storage.url, credentials: backing.storage.root }),
          AbortSignal.timeout(5000),
        );
        const states = (info.servers ?? []).flatMap((s) => s.drives ?? []).map((d) => d.state);
        online = states.length > 0 && states.every((s) => s === "ok") ? drives : 0;
      } catch {
        online = 0;
      }
    }
    const offline = drives - online;
    const latest = this.#store.get(TENANTS, tenant.metadata.namespace, tenant.metadata.name);
    if (!latest) return;
    latest.status = {
      currentState: this.#back && !backing ? "Waiting for Pods to be ready" : "Initialized",
      availableReplicas: pools.reduce((sum: number, p: { servers: number }) => sum + p.servers, 0),
      revision: 0,
      syncVersion: "v4.2.0",
      certificates: { autoCertEnabled: tenant.spec.requestAutoCert !== false },
      pools: pools.map((p: { name?: string }, i: number) => ({
        ssName: `${tenant.metadata.name}-${p.name || `ss-${i}`}`,
        state: "PoolInitialized",
      })),
      writeQuorum,
      drivesOnline: online,
      ...(offline ? { drivesOffline: offline } : {}),
      healthStatus: online < writeQuorum ? "red" : offline > 0 ? "yellow" : "green",
    };
    this.#store.replace(TENANTS, latest);
  }

  async #teardown(namespace: string, name: string): Promise<void> {
    const key = `${namespace}/${name}`;
    this.#tearingDown.add(key);
    this.#observed.delete(key);
    try {
      const backing = this.#backings.get(key);
      this.#backings.delete(key);
      this.#running.delete(key);
      await (await backing)?.close();
      // Garbage collection of what the Tenant owned; volume claims stay, as with a real StatefulSet.
      for (const resource of [PODS, SERVICES]) {
        for (const object of this.#store.list(resource, namespace)) {
          if (object.metadata.labels?.[TENANT_LABEL] === name) {
            this.#store.delete(resource, namespace, object.metadata.name);
          }
        }
      }
    } finally {
      this.#tearingDown.delete(key);
    }
  }

  /** Log text of a pod: MinIO's start-up banner (with its colour codes) and what the backing server logged. */
  podLog(namespace: string, name: string, container: string | null): string | undefined {
    if (container && container !== "minio") return undefined;
    const pod = this.#store.get(PODS, namespace, name);
    const tenantName = pod?.metadata.labels?.[TENANT_LABEL];
    const tenant = tenantName ? this.#store.get(TENANTS, namespace, tenantName) : undefined;
    const drives = (tenant?.spec.pools ?? []).reduce(
      (sum: number, p: { servers: number; volumesPerServer: number }) => sum + p.servers * p.volumesPerServer,
      0,
    );
    const ip = pod?.status?.podIP ?? "127.0.0.1";
    const banner = [
      "\u001b[1mMinIO Object Storage Server\u001b[0m",
      `Status:         ${drives} Online, 0 Offline. `,
      `API: http://${ip}:9000  http://127.0.0.1:9000`,
      "\tRootUser and RootPass are set from the tenant's configuration secret",
      `Console: http://${ip}:9090 http://127.0.0.1:9090 \u0007`,
      "",
      "\u001b[33mDocumentation:\u001b[0m https://docs.min.io",
      "Waiting for all MinIO sub-systems to be initialized.. lock acquired",
    ];
    const backingLines = tenant ? this.#running.get(`${namespace}/${tenantName}`)?.logLines ?? [] : [];
    return [...banner, ...backingLines].join("\n") + "\n";
  }
}
