/**
 * A small cluster to start from: namespaces, nodes (one tainted control plane), storage classes, a storage
 * quota, DirectCSI drives in every state the format rules distinguish, and optionally a tenant made the way
 * the console makes one (secrets, then the Tenant).
 */
import { ALL_RULES, makeToken, type StandinUser } from "./auth.ts";
import { type K8sObject, RESOURCES } from "./resources.ts";
import type { Store } from "./store.ts";

const kind = (k: string) => RESOURCES.find((r) => r.kind === k)!;
const b64 = (text: string) => new TextEncoder().encode(text).toBase64();
const GI = 2 ** 30;

export interface SeededUsers {
  operatorToken: string;
  /** May read tenants, pods and services in `tenant-lite` only. */
  viewerToken: string;
  /** Authenticated, with no rights at all. */
  nobodyToken: string;
  users: Map<string, StandinUser>;
}

export function seedUsers(): SeededUsers {
  const operatorToken = makeToken("system:serviceaccount:minio-operator:console-sa");
  const viewerToken = makeToken("system:serviceaccount:tenant-lite:viewer");
  const nobodyToken = makeToken("system:serviceaccount:default:nobody");
  const user = (username: string, rules: StandinUser["rules"]): StandinUser => ({
    username,
    uid: crypto.randomUUID(),
    groups: ["system:serviceaccounts", "system:authenticated"],
    rules,
  });
  const users = new Map<string, StandinUser>([
    [operatorToken, user("system:serviceaccount:minio-operator:console-sa", ALL_RULES)],
    [
      viewerToken,
      user("system:serviceaccount:tenant-lite:viewer", [{
        verbs: ["get", "list", "watch"],
        apiGroups: ["", "minio.min.io"],
        resources: ["tenants", "pods", "pods/log", "events", "services", "secrets"],
        namespaces: ["tenant-lite"],
      }]),
    ],
    [nobodyToken, user("system:serviceaccount:default:nobody", [])],
  ]);
  return { operatorToken, viewerToken, nobodyToken, users };
}

const DRIVE_PREFIX = "/var/lib/direct-csi/devices/";

async function driveName(node: string, path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${node}-${path}`));
  return new Uint8Array(digest).toHex();
}

function condition(type: string, status: boolean, message = "") {
  return {
    type,
    status: status ? "True" : "False",
    reason: status ? type : "NotAdded",
    message,
    lastTransitionTime: "2021-08-05T18:00:00Z",
  };
}

export async function seedCluster(store: Store): Promise<void> {
  for (const name of ["default", "kube-system", "minio-operator", "tenant-lite", "ns-a", "ns-b"]) {
    store.create(kind("Namespace"), {
      metadata: { name },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
  }
  const nodes: [string, string, boolean][] = [
    ["control-plane", "8Gi", true],
    ["node-1", "32Gi", false],
    ["node-2", "32Gi", false],
    ["node-3", "16Gi", false],
    ["node-4", "16Gi", false],
    ["node-5", "8Gi", false],
  ];
  for (const [name, memory, master] of nodes) {
    store.create(kind("Node"), {
      metadata: {
        name,
        labels: {
          "kubernetes.io/hostname": name,
          "kubernetes.io/os": "linux",
          "topology.kubernetes.io/zone": master ? "zone-a" : `zone-${"abc"[Number(name.slice(-1)) % 3]}`,
          ...(master
            ? { "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/master": "" }
            : { "disk-type": Number(name.slice(-1)) <= 2 ? "nvme" : "ssd" }),
        },
      },
      spec: master ? { taints: [{ key: "node-role.kubernetes.io/master", effect: "NoSchedule" }] } : {},
      status: { allocatable: { cpu: "8", memory, pods: "110" }, capacity: { cpu: "8", memory, pods: "110" } },
    });
  }
  store.create(kind("StorageClass"), {
    metadata: { name: "standard" },
    provisioner: "rancher.io/local-path",
    reclaimPolicy: "Delete",
    volumeBindingMode: "WaitForFirstConsumer",
  });
  store.create(kind("StorageClass"), {
    metadata: { name: "direct-csi-min-io" },
    provisioner: "direct-csi-min-io",
    reclaimPolicy: "Delete",
    volumeBindingMode: "WaitForFirstConsumer",
  });
  for (const ns of ["ns-a", "tenant-lite"]) {
    const quota = {
      "standard.storageclass.storage.k8s.io/requests.storage": "1Ti",
      "direct-csi-min-io.storageclass.storage.k8s.io/requests.storage": "500Gi",
    };
    store.create(kind("ResourceQuota"), {
      metadata: { name: `${ns}-storagequota`, namespace: ns },
      spec: { hard: quota },
      status: {
        hard: quota,
        used: {
          "standard.storageclass.storage.k8s.io/requests.storage": "100Gi",
          "direct-csi-min-io.storageclass.storage.k8s.io/requests.storage": "0",
        },
      },
    });
  }
  await seedDrives(store);
}

/** Drives: free ones, one with a filesystem (needs force), one owned (Ready), one in use, one unavailable. */
async function seedDrives(store: Store): Promise<void> {
  const drives: {
    node: string;
    dev: string;
    status: string;
    fs?: string;
    capacity: number;
    allocated?: number;
    owned?: boolean;
    message?: string;
  }[] = [
    { node: "node-1", dev: "sdb", status: "Available", capacity: 100 * GI },
    {
      node: "node-1",
      dev: "sdc",
      status: "InUse",
      fs: "xfs",
      capacity: 100 * GI,
      allocated: 25 * GI,
      owned: true,
    },
    { node: "node-2", dev: "sdb", status: "Available", capacity: 200 * GI },
    { node: "node-2", dev: "sdc-part-1", status: "Available", fs: "ext4", capacity: 50 * GI },
    { node: "node-3", dev: "sdb", status: "Ready", fs: "xfs", capacity: 100 * GI, owned: true },
    {
      node: "node-4",
      dev: "sdb",
      status: "Unavailable",
      capacity: 20 * GI,
      message: "drive /var/lib/direct-csi/devices/sdb is too small\nsecond line",
    },
  ];
  let inUse = "";
  for (const d of drives) {
    const path = DRIVE_PREFIX + d.dev;
    const name = await driveName(d.node, path);
    if (d.status === "InUse") inUse = name;
    store.create(kind("DirectCSIDrive"), {
      metadata: { name },
      spec: { directCSIOwned: !!d.owned },
      status: {
        path,
        nodeName: d.node,
        driveStatus: d.status,
        filesystem: d.fs ?? "",
        totalCapacity: d.capacity,
        allocatedCapacity: d.allocated ?? 0,
        freeCapacity: d.capacity - (d.allocated ?? 0),
        conditions: [
          condition("Owned", !!d.owned, d.message ?? ""),
          condition("Mounted", !!d.owned),
          condition("Formatted", !!d.fs, d.fs ?? ""),
          condition("Initialized", true),
        ],
      },
    });
  }
  store.create(kind("DirectCSIVolume"), {
    metadata: { name: "pvc-7a1b2c3d" },
    status: {
      drive: inUse,
      nodeName: "node-1",
      totalCapacity: 25 * GI,
      availableCapacity: 25 * GI,
      usedCapacity: 0,
    },
  });
}

export interface SeedTenant {
  namespace: string;
  name: string;
  root: { accessKey: string; secretKey: string };
  servers?: number;
  volumesPerServer?: number;
  /** Bytes per volume. */
  volumeSize?: number;
  storageClass?: string;
  users?: { accessKey: string; secretKey: string }[];
}

/** Writes a tenant the way the console's create call does: the empty creds secret, config.env, user secrets, the Tenant. */
export function seedTenant(store: Store, t: SeedTenant): K8sObject {
  const labels = { "v1.min.io/tenant": t.name };
  const secret = (name: string, data: Record<string, string>, immutable = true) =>
    store.create(kind("Secret"), {
      metadata: { name, namespace: t.namespace, labels },
      type: "Opaque",
      immutable,
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
    });
  secret(`${t.name}-secret`, { accesskey: "", secretkey: "" });
  secret(`${t.name}-env-configuration`, {
    "config.env":
      `export MINIO_BROWSER="on"\nexport MINIO_ROOT_USER="${t.root.accessKey}"\nexport MINIO_ROOT_PASSWORD="${t.root.secretKey}"\nexport MINIO_STORAGE_CLASS_STANDARD="EC:2"\n`,
  }, false);
  const users = (t.users ?? []).map((u, i) => {
    secret(`${t.name}-user-${i}`, { CONSOLE_ACCESS_KEY: u.accessKey, CONSOLE_SECRET_KEY: u.secretKey });
    return { name: `${t.name}-user-${i}` };
  });
  const servers = t.servers ?? 4;
  return store.create(kind("Tenant"), {
    metadata: { name: t.name, namespace: t.namespace },
    scheduler: { name: "" },
    spec: {
      image: "minio/minio:RELEASE.2021-08-17T20-53-08Z",
      mountPath: "/export",
      credsSecret: { name: `${t.name}-secret` },
      configuration: { name: `${t.name}-env-configuration` },
      requestAutoCert: false,
      users,
      exposeServices: { minio: true, console: true },
      pools: [{
        name: "pool-0",
        servers,
        volumesPerServer: t.volumesPerServer ?? 1,
        volumeClaimTemplate: {
          metadata: { name: "data" },
          spec: {
            accessModes: ["ReadWriteOnce"],
            resources: { requests: { storage: String(t.volumeSize ?? 2 * GI) } },
            storageClassName: t.storageClass ?? "standard",
          },
        },
        resources: { requests: { memory: "2Gi" }, limits: { memory: "32Gi" } },
      }],
    },
  });
}
