/**
 * What the operator and the cluster create for a Tenant in the stand-in: its Services (pointing where its
 * backing really listens), its pool pods with their events, and their volume claims.
 */
import { type K8sObject, RESOURCES } from "./resources.ts";
import type { Store } from "./store.ts";

const kind = (k: string) => RESOURCES.find((r) => r.kind === k)!;
const PODS = kind("Pod");
const SERVICES = kind("Service");
const PVCS = kind("PersistentVolumeClaim");
const EVENTS = kind("Event");
const NODES = kind("Node");

export const TENANT_LABEL = "v1.min.io/tenant";
export const POOL_LABEL = "v1.min.io/pool";
export const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");

export class TenantWorkloads {
  #store: Store;
  #podCounter = 10;

  constructor(store: Store) {
    this.#store = store;
  }

  private ownerRef(tenant: K8sObject) {
    return [{
      apiVersion: "minio.min.io/v2",
      kind: "Tenant",
      name: tenant.metadata.name,
      uid: tenant.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    }];
  }

  private upsert(resource: typeof SERVICES, object: K8sObject): void {
    const existing = this.#store.get(resource, object.metadata.namespace, object.metadata.name);
    if (!existing) this.#store.create(resource, object);
    else if (
      JSON.stringify(existing.spec) !== JSON.stringify(object.spec) ||
      JSON.stringify(existing.status) !== JSON.stringify(object.status)
    ) {
      this.#store.replace(resource, { ...existing, spec: object.spec, status: object.status });
    }
  }

  /** MinIO, console and headless services; their ports are where the backing really listens. */
  ensureServices(tenant: K8sObject, backing: { storagePort: number; consolePort: number } | null): void {
    const { namespace, name } = tenant.metadata;
    const labels = { [TENANT_LABEL]: name };
    const exposed = (flag: boolean | undefined) => flag !== false;
    const service = (
      svcName: string,
      port: { name: string; port: number; targetPort: number },
      expose: boolean,
      extraLabels = {},
    ): K8sObject => ({
      metadata: {
        name: svcName,
        namespace,
        labels: { ...labels, ...extraLabels },
        ownerReferences: this.ownerRef(tenant),
      },
      spec: {
        type: expose ? "LoadBalancer" : "ClusterIP",
        clusterIP: "127.0.0.1",
        ports: [{ ...port, protocol: "TCP" }],
        selector: labels,
      },
      status: { loadBalancer: expose ? { ingress: [{ ip: "127.0.0.1" }] } : {} },
    });
    this.upsert(
      SERVICES,
      service(
        "minio",
        { name: "http-minio", port: backing?.storagePort ?? 80, targetPort: 9000 },
        exposed(tenant.spec.exposeServices?.minio),
      ),
    );
    this.upsert(
      SERVICES,
      service(
        `${name}-console`,
        { name: "http-console", port: backing?.consolePort ?? 9090, targetPort: 9090 },
        exposed(tenant.spec.exposeServices?.console),
        { "v1.min.io/console": `${name}-console` },
      ),
    );
    this.upsert(SERVICES, {
      metadata: { name: `${name}-hl`, namespace, labels, ownerReferences: this.ownerRef(tenant) },
      spec: {
        type: "ClusterIP",
        clusterIP: "None",
        ports: [{ name: "http-minio", port: 9000, targetPort: 9000, protocol: "TCP" }],
        selector: labels,
      },
      status: { loadBalancer: {} },
    });
  }

  ensurePods(tenant: K8sObject): void {
    const nodes = this.#store.list(NODES).filter((n) =>
      !(n.spec?.taints ?? []).some((t: { effect: string }) => t.effect === "NoSchedule")
    );
    (tenant.spec.pools ?? []).forEach((pool: { name?: string; servers: number }, index: number) => {
      const poolName = pool.name || `ss-${index}`;
      for (let ordinal = 0; ordinal < pool.servers; ordinal++) {
        const podName = `${tenant.metadata.name}-${poolName}-${ordinal}`;
        const existing = this.#store.get(PODS, tenant.metadata.namespace, podName);
        if (!existing) {
          this.createPod(
            tenant,
            poolName,
            podName,
            nodes[ordinal % Math.max(1, nodes.length)]?.metadata.name ?? "node-1",
          );
        } else if (existing.spec.containers?.[0]?.image !== tenant.spec.image) {
          existing.spec.containers[0].image = tenant.spec.image;
          this.#store.replace(PODS, existing);
        }
      }
    });
  }

  createPod(tenant: K8sObject, poolName: string, podName: string, nodeName: string): void {
    const { namespace, name } = tenant.metadata;
    const pool = (tenant.spec.pools ?? []).find((p: { name?: string }, i: number) =>
      (p.name || `ss-${i}`) === poolName
    );
    if (!pool) return;
    const labels = { [TENANT_LABEL]: name, [POOL_LABEL]: poolName };
    const ordinal = Number(podName.slice(podName.lastIndexOf("-") + 1));
    const pod = this.#store.create(PODS, {
      metadata: { name: podName, namespace, labels, ownerReferences: this.ownerRef(tenant) },
      spec: { nodeName, containers: [{ name: "minio", image: tenant.spec.image ?? "minio/minio" }] },
      status: {
        phase: "Running",
        podIP: `10.244.${1 + (ordinal % 250)}.${this.#podCounter++ % 250}`,
        startTime: now(),
        containerStatuses: [{
          name: "minio",
          ready: true,
          restartCount: 0,
          image: tenant.spec.image ?? "minio/minio",
        }],
      },
    });
    this.event(
      pod,
      "Scheduled",
      `Successfully assigned ${namespace}/${podName} to ${nodeName}`,
      "Normal",
      "default-scheduler",
    );
    this.event(
      pod,
      "Pulled",
      `Container image "${tenant.spec.image ?? "minio/minio"}" already present on machine`,
      "Normal",
    );
    this.event(pod, "Created", "Created container minio", "Normal");
    this.event(pod, "Started", "Started container minio", "Normal");
    const template = pool.volumeClaimTemplate ?? {};
    for (let v = 0; v < pool.volumesPerServer; v++) {
      const claim = `${template.metadata?.name ?? "data"}${v}-${podName}`;
      if (this.#store.get(PVCS, namespace, claim)) continue;
      const storage = template.spec?.resources?.requests?.storage ?? "1Gi";
      this.#store.create(PVCS, {
        metadata: { name: claim, namespace, labels },
        spec: {
          accessModes: ["ReadWriteOnce"],
          resources: { requests: { storage } },
          storageClassName: template.spec?.storageClassName || "standard",
          volumeName: `pvc-${crypto.randomUUID().slice(0, 8)}`,
        },
        status: { phase: "Bound", accessModes: ["ReadWriteOnce"], capacity: { storage } },
      });
    }
  }

  event(pod: K8sObject, reason: string, message: string, type: string, component = "kubelet"): void {
    const at = now();
    this.#store.create(EVENTS, {
      metadata: {
        name: `${pod.metadata.name}.${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`,
        namespace: pod.metadata.namespace,
      },
      involvedObject: {
        kind: "Pod",
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
        uid: pod.metadata.uid,
        apiVersion: "v1",
      },
      reason,
      message,
      type,
      source: { component, host: pod.spec?.nodeName },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    });
  }
}
