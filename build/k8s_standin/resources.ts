/**
 * The kinds the stand-in serves (operator-k8s.md §6-§7), with what discovery, OpenAPI, tables and
 * validation need to know about each: group/version, names, scope, verbs, status subresource, printer
 * columns and a light schema.
 */
import { any, arr, bool, type FieldSchema, int, kindSchema, map, obj, open, str } from "./schema.ts";

export interface PrinterColumn {
  name: string;
  type: "string" | "integer" | "date";
  /** Computes the cell from the object. */
  cell: (object: K8sObject) => string | number;
}

export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  namespaced: boolean;
  verbs: string[];
  /** PUT/PATCH of the main resource ignore `status`; `/status` writes it. */
  statusSubresource?: boolean;
  /** A custom resource: list items carry apiVersion/kind, no strategic merge patch, updates need resourceVersion. */
  custom?: boolean;
  /** Subresources served besides status (pods/log). */
  subresources?: string[];
  columns?: PrinterColumn[];
  schema: FieldSchema;
}

// deno-lint-ignore no-explicit-any
export type K8sObject = Record<string, any> & { metadata: Record<string, any> };

export const apiVersionOf = (
  r: { group: string; version: string },
) => (r.group ? `${r.group}/${r.version}` : r.version);

const ALL_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

const podReady = (pod: K8sObject) => {
  const statuses: { ready?: boolean }[] = pod.status?.containerStatuses ?? [];
  return `${statuses.filter((s) => s.ready).length}/${pod.spec?.containers?.length ?? statuses.length}`;
};

const quotaSchema = obj({ hard: map(any), scopes: arr(str), scopeSelector: any });

const pvcSpec = obj({
  accessModes: arr(str),
  resources: obj({ requests: map(any), limits: map(any) }),
  storageClassName: str,
  volumeName: str,
  volumeMode: str,
  selector: any,
  dataSource: any,
  dataSourceRef: any,
});

const certRef = obj({ name: str, type: str });

const tenantPool = obj({
  name: str,
  servers: int,
  volumesPerServer: int,
  volumeClaimTemplate: obj({
    apiVersion: str,
    kind: str,
    metadata: obj({ name: str, labels: map(str), annotations: map(str) }),
    spec: pvcSpec,
    status: any,
  }),
  resources: obj({ requests: map(any), limits: map(any) }),
  nodeSelector: map(str),
  affinity: any,
  tolerations: arr(any),
  securityContext: any,
}, ["servers", "volumesPerServer", "volumeClaimTemplate"]);

const tenantSpec = obj({
  pools: arr(tenantPool),
  image: str,
  imagePullSecret: obj({ name: str }),
  imagePullPolicy: str,
  podManagementPolicy: str,
  credsSecret: obj({ name: str }),
  configuration: obj({ name: str }),
  env: arr(any),
  requestAutoCert: bool,
  externalCertSecret: arr(certRef),
  externalCaCertSecret: arr(certRef),
  externalClientCertSecret: certRef,
  certConfig: any,
  mountPath: str,
  subPath: str,
  s3: any,
  serviceAccountName: str,
  priorityClassName: str,
  sideCars: any,
  exposeServices: obj({ minio: bool, console: bool }),
  serviceMetadata: any,
  users: arr(obj({ name: str })),
  logging: any,
  kes: any,
  log: any,
  prometheus: any,
  prometheusOperator: any,
}, ["pools"]);

export const RESOURCES: ResourceType[] = [
  {
    group: "",
    version: "v1",
    kind: "Namespace",
    plural: "namespaces",
    singular: "namespace",
    shortNames: ["ns"],
    namespaced: false,
    verbs: ["create", "delete", "get", "list", "patch", "update", "watch"],
    statusSubresource: true,
    columns: [{ name: "Status", type: "string", cell: (o) => o.status?.phase ?? "" }],
    schema: kindSchema({ spec: obj({ finalizers: arr(str) }), status: open }),
  },
  {
    group: "",
    version: "v1",
    kind: "Node",
    plural: "nodes",
    singular: "node",
    shortNames: ["no"],
    namespaced: false,
    verbs: ALL_VERBS,
    statusSubresource: true,
    columns: [
      { name: "Status", type: "string", cell: () => "Ready" },
      {
        name: "Roles",
        type: "string",
        cell: (o) =>
          Object.keys(o.metadata.labels ?? {}).filter((k) => k.startsWith("node-role.kubernetes.io/")).map((
            k,
          ) => k.slice(24)).join(",") || "<none>",
      },
    ],
    schema: kindSchema({ spec: open, status: open }),
  },
  {
    group: "",
    version: "v1",
    kind: "Secret",
    plural: "secrets",
    singular: "secret",
    namespaced: true,
    verbs: ALL_VERBS,
    columns: [
      { name: "Type", type: "string", cell: (o) => o.type ?? "Opaque" },
      { name: "Data", type: "integer", cell: (o) => Object.keys(o.data ?? {}).length },
    ],
    schema: kindSchema({ data: map(str), stringData: map(str), type: str, immutable: bool }),
  },
  {
    group: "",
    version: "v1",
    kind: "Service",
    plural: "services",
    singular: "service",
    shortNames: ["svc"],
    namespaced: true,
    verbs: ALL_VERBS,
    statusSubresource: true,
    columns: [
      { name: "Type", type: "string", cell: (o) => o.spec?.type ?? "ClusterIP" },
      { name: "Cluster-IP", type: "string", cell: (o) => o.spec?.clusterIP ?? "<none>" },
      {
        name: "Ports",
        type: "string",
        cell: (o) =>
          (o.spec?.ports ?? []).map((p: { port: number; protocol?: string }) =>
            `${p.port}/${p.protocol ?? "TCP"}`
          ).join(","),
      },
    ],
    schema: kindSchema({ spec: open, status: open }),
  },
  {
    group: "",
    version: "v1",
    kind: "Pod",
    plural: "pods",
    singular: "pod",
    shortNames: ["po"],
    namespaced: true,
    verbs: ALL_VERBS,
    statusSubresource: true,
    subresources: ["log"],
    columns: [
      { name: "Ready", type: "string", cell: podReady },
      { name: "Status", type: "string", cell: (o) => o.status?.phase ?? "Pending" },
      { name: "Restarts", type: "integer", cell: (o) => o.status?.containerStatuses?.[0]?.restartCount ?? 0 },
    ],
    schema: kindSchema({ spec: open, status: open }),
  },
  {
    group: "",
    version: "v1",
    kind: "Event",
    plural: "events",
    singular: "event",
    shortNames: ["ev"],
    namespaced: true,
    verbs: ALL_VERBS,
    columns: [
      { name: "Type", type: "string", cell: (o) => o.type ?? "" },
      { name: "Reason", type: "string", cell: (o) => o.reason ?? "" },
      {
        name: "Object",
        type: "string",
        cell: (o) => `${String(o.involvedObject?.kind ?? "").toLowerCase()}/${o.involvedObject?.name ?? ""}`,
      },
      { name: "Message", type: "string", cell: (o) => o.message ?? "" },
    ],
    schema: kindSchema({
      involvedObject: any,
      reason: str,
      message: str,
      type: str,
      source: any,
      firstTimestamp: str,
      lastTimestamp: str,
      eventTime: any,
      count: int,
      reportingComponent: str,
      reportingInstance: str,
    }),
  },
  {
    group: "",
    version: "v1",
    kind: "PersistentVolumeClaim",
    plural: "persistentvolumeclaims",
    singular: "persistentvolumeclaim",
    shortNames: ["pvc"],
    namespaced: true,
    verbs: ALL_VERBS,
    statusSubresource: true,
    columns: [
      { name: "Status", type: "string", cell: (o) => o.status?.phase ?? "Pending" },
      { name: "Volume", type: "string", cell: (o) => o.spec?.volumeName ?? "" },
      { name: "Capacity", type: "string", cell: (o) => o.status?.capacity?.storage ?? "" },
      { name: "StorageClass", type: "string", cell: (o) => o.spec?.storageClassName ?? "" },
    ],
    schema: kindSchema({ spec: pvcSpec, status: open }),
  },
  {
    group: "",
    version: "v1",
    kind: "ResourceQuota",
    plural: "resourcequotas",
    singular: "resourcequota",
    shortNames: ["quota"],
    namespaced: true,
    verbs: ALL_VERBS,
    statusSubresource: true,
    schema: kindSchema({ spec: quotaSchema, status: obj({ hard: map(any), used: map(any) }) }),
  },
  {
    group: "storage.k8s.io",
    version: "v1",
    kind: "StorageClass",
    plural: "storageclasses",
    singular: "storageclass",
    shortNames: ["sc"],
    namespaced: false,
    verbs: ALL_VERBS,
    columns: [{ name: "Provisioner", type: "string", cell: (o) => o.provisioner ?? "" }],
    schema: kindSchema({
      provisioner: str,
      parameters: map(str),
      reclaimPolicy: str,
      volumeBindingMode: str,
      allowVolumeExpansion: bool,
      mountOptions: arr(str),
      allowedTopologies: any,
    }),
  },
  {
    group: "minio.min.io",
    version: "v2",
    kind: "Tenant",
    plural: "tenants",
    singular: "tenant",
    shortNames: ["tenant"],
    namespaced: true,
    verbs: ALL_VERBS,
    statusSubresource: true,
    custom: true,
    columns: [{ name: "State", type: "string", cell: (o) => o.status?.currentState ?? "" }],
    schema: kindSchema({ scheduler: obj({ name: str }), spec: tenantSpec, status: any }, ["spec"]),
  },
  {
    group: "direct.csi.min.io",
    version: "v1beta1",
    kind: "DirectCSIDrive",
    plural: "directcsidrives",
    singular: "directcsidrive",
    namespaced: false,
    verbs: ALL_VERBS,
    custom: true,
    columns: [
      { name: "Node", type: "string", cell: (o) => o.status?.nodeName ?? "" },
      { name: "Path", type: "string", cell: (o) => o.status?.path ?? "" },
      { name: "Status", type: "string", cell: (o) => o.status?.driveStatus ?? "" },
    ],
    schema: kindSchema({
      spec: obj({
        directCSIOwned: bool,
        requestedFormat: obj({
          force: bool,
          purge: bool,
          filesystem: str,
          mountpoint: str,
          mountOptions: arr(str),
        }),
        driveTaint: map(str),
      }, ["directCSIOwned"]),
      status: any,
    }),
  },
  {
    group: "direct.csi.min.io",
    version: "v1beta1",
    kind: "DirectCSIVolume",
    plural: "directcsivolumes",
    singular: "directcsivolume",
    namespaced: false,
    verbs: ALL_VERBS,
    custom: true,
    columns: [{ name: "Drive", type: "string", cell: (o) => o.status?.drive ?? "" }],
    schema: kindSchema({ status: any }),
  },
];

/** The token review kind: create only, never stored. */
export const TOKEN_REVIEW = {
  group: "authentication.k8s.io",
  version: "v1",
  kind: "TokenReview",
  plural: "tokenreviews",
  singular: "",
};

/** Finds the resource served at a group/version under a plural name. */
export function resourceFor(group: string, version: string, plural: string): ResourceType | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.plural === plural);
}

/** Group/versions served, in discovery order (core first). */
export function groupVersions(): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of RESOURCES) seen.set(apiVersionOf(r), { group: r.group, version: r.version });
  seen.set(apiVersionOf(TOKEN_REVIEW), { group: TOKEN_REVIEW.group, version: TOKEN_REVIEW.version });
  return [...seen.values()];
}
