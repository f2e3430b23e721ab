/**
 * The Kubernetes objects the console reads and writes, with only the fields it uses (operator-k8s.md §4,
 * §6.3, §7.1). Everything else in an object is kept as read, so a full-object update never drops it.
 */

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

export interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface List<T> {
  items: T[];
  metadata?: { continue?: string; resourceVersion?: string };
}

export interface NameRef {
  name: string;
}

export interface CertRef {
  name: string;
  type?: string;
}

export interface VolumeClaimTemplate {
  metadata?: {
    name?: string;
    labels?: Record<string, string> | null;
    annotations?: Record<string, string> | null;
  };
  spec?: {
    accessModes?: string[];
    resources?: { requests?: Record<string, string> };
    storageClassName?: string;
  };
}

export interface TenantPool {
  name?: string;
  servers: number;
  volumesPerServer: number;
  volumeClaimTemplate?: VolumeClaimTemplate;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  nodeSelector?: Record<string, string>;
  affinity?: Record<string, unknown>;
  tolerations?: Record<string, unknown>[];
  [field: string]: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  [field: string]: unknown;
}

export interface TenantSpec {
  pools: TenantPool[];
  image?: string;
  imagePullSecret?: NameRef;
  credsSecret?: NameRef;
  configuration?: NameRef;
  env?: EnvVar[];
  requestAutoCert?: boolean;
  externalCertSecret?: CertRef[];
  externalCaCertSecret?: CertRef[];
  externalClientCertSecret?: CertRef;
  mountPath?: string;
  exposeServices?: { minio?: boolean; console?: boolean };
  users?: NameRef[];
  kes?: Record<string, unknown>;
  log?: Record<string, unknown>;
  prometheus?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface TenantStatus {
  currentState?: string;
  availableReplicas?: number;
  healthStatus?: string;
  drivesOnline?: number;
  drivesOffline?: number;
  drivesHealing?: number;
  writeQuorum?: number;
  [field: string]: unknown;
}

export interface Tenant extends K8sObject {
  scheduler?: { name: string };
  spec: TenantSpec;
  status?: TenantStatus;
}

export interface Secret extends K8sObject {
  type?: string;
  immutable?: boolean;
  /** base64 values. */
  data?: Record<string, string>;
}

export interface Service extends K8sObject {
  spec?: {
    type?: string;
    clusterIP?: string;
    ports?: { name?: string; port: number; targetPort?: number | string }[];
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

export interface Pod extends K8sObject {
  spec?: { nodeName?: string; containers?: { name: string; image?: string }[] };
  status?: {
    phase?: string;
    podIP?: string;
    containerStatuses?: { name: string; ready?: boolean; restartCount?: number }[];
  };
}

export interface K8sEvent extends K8sObject {
  involvedObject?: { kind?: string; name?: string; uid?: string };
  reason?: string;
  message?: string;
  type?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
}

export interface Node extends K8sObject {
  spec?: { taints?: { key: string; value?: string; effect: string }[] };
  status?: { allocatable?: Record<string, string> };
}

export interface PersistentVolumeClaim extends K8sObject {
  spec?: {
    storageClassName?: string;
    volumeName?: string;
    resources?: { requests?: Record<string, string> };
  };
  status?: { phase?: string; capacity?: Record<string, string> };
}

export interface ResourceQuota extends K8sObject {
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

export interface DirectCSIDrive extends K8sObject {
  spec: {
    directCSIOwned: boolean;
    requestedFormat?: { force?: boolean; filesystem?: string };
    [field: string]: unknown;
  };
  status: {
    path: string;
    nodeName?: string;
    driveStatus?: string;
    filesystem?: string;
    totalCapacity?: number;
    allocatedCapacity?: number;
    conditions?: { type: string; status: string; message?: string }[];
    [field: string]: unknown;
  };
}

export interface DirectCSIVolume extends K8sObject {
  status?: { drive?: string; nodeName?: string; totalCapacity?: number };
}

export const TENANT_LABEL = "v1.min.io/tenant";
export const POOL_LABEL = "v1.min.io/pool";
