/**
 * Wire types and input schemas of operator mode's tenant API (api-index §9, spec 3 §3, §7.1). Imported by the
 * server and the islands. Field names are the original console's, including its snake_case and camelCase mix.
 */
import * as s from "./schema.ts";

/** Any JSON object (affinity and tolerations are passed to Kubernetes as given). */
export function anyObject(): s.Schema<Record<string, unknown>> {
  return {
    check(value, path, issues) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return void issues.push({ path, message: "expected an object" });
      }
      return value as Record<string, unknown>;
    },
  };
}

export type HealthStatus = "green" | "yellow" | "red" | "";

export interface TenantListItem {
  name: string;
  namespace: string;
  creation_date?: string;
  deletion_date?: string;
  pool_count: number;
  instance_count: number;
  volume_count: number;
  total_size: number;
  currentState?: string;
  health_status?: string;
}

export interface TenantList {
  tenants: TenantListItem[];
  total: number;
  /**
   * Set when the token may not list tenants across the cluster (D): the namespaces listed instead, those
   * whose tenants it may not list either, and the API server's refusal of the cluster-wide list.
   */
  limited?: { namespaces: string[]; refused: string[]; detail: string };
}

export interface PoolInfo {
  name: string;
  servers: number;
  volumes_per_server: number;
  volume_configuration: { size: number; storage_class_name?: string };
  node_selector?: Record<string, string>;
  resources?: { requests?: Record<string, number>; limits?: Record<string, number> };
  affinity?: Record<string, unknown>;
  tolerations?: Record<string, unknown>[];
}

export interface SubnetLicense {
  email?: string;
  organization?: string;
  account_id?: number;
  storage_capacity?: number;
  plan?: string;
  expires_at?: string;
}

export interface TenantInfo {
  name: string;
  namespace: string;
  creation_date?: string;
  deletion_date?: string;
  currentState?: string;
  image?: string;
  total_size: number;
  pools: PoolInfo[];
  enable_prometheus: boolean;
  endpoints?: { minio?: string; console?: string };
  status: {
    health_status?: string;
    drives_online?: number;
    drives_offline?: number;
    drives_healing?: number;
    write_quorum?: number;
  };
  logEnabled: boolean;
  monitoringEnabled: boolean;
  encryptionEnabled: boolean;
  minioTLS: boolean;
  consoleTLS: boolean;
  consoleEnabled: boolean;
  idpAdEnabled: boolean;
  idpOidcEnabled: boolean;
  subnet_license?: SubnetLicense;
}

export interface TenantUsage {
  used: number;
  disk_used: number;
}

export interface PodInfo {
  name: string;
  status: string;
  /** Unix seconds. */
  timeCreated: number;
  podIP: string;
  restarts: number;
  node: string;
}

export interface PodEvent {
  namespace: string;
  /** Unix seconds. */
  last_seen: number;
  message: string;
  event_type: string;
  reason: string;
}

export interface CertificateInfo {
  serialNumber: string;
  name: string;
  domains: string[];
  expiry: string;
}

export interface TenantSecurity {
  autoCert: boolean;
  customCertificates: { minio: CertificateInfo[]; minioCAs: CertificateInfo[] };
}

export interface QuotaElement {
  name: string;
  hard: number;
  used: number;
}

export interface ResourceQuotaInfo {
  name: string;
  elements: QuotaElement[];
}

export interface CreateTenantResponse {
  externalIDP: boolean;
  console: { access_key: string; secret_key: string }[];
}

const KeyPair = s.object({ crt: s.string(), key: s.string() });
const Quantities = s.optional(s.record(s.number({ min: 0 })));

/** A pool of the create call and of Add Pool. */
export const PoolInput = s.object({
  name: s.optional(s.string({ max: 63 })),
  servers: s.number({ integer: true, min: 1, max: 1000 }),
  volumes_per_server: s.number({ integer: true, min: 1, max: 1000 }),
  volume_configuration: s.object({
    size: s.number({ integer: true, min: 1 }),
    storage_class_name: s.optional(s.string()),
    labels: s.optional(s.record(s.string())),
    annotations: s.optional(s.record(s.string())),
  }),
  resources: s.optional(s.object({ requests: Quantities, limits: Quantities })),
  node_selector: s.optional(s.record(s.string())),
  affinity: s.optional(anyObject()),
  tolerations: s.optional(s.array(anyObject())),
});
export type PoolInput = s.Infer<typeof PoolInput>;

const ImageRegistry = s.object({ registry: s.string(), username: s.string(), password: s.string() });

const Idp = s.object({
  keys: s.optional(s.array(s.object({ access_key: s.string(), secret_key: s.string() }))),
  oidc: s.optional(s.object({
    url: s.string(),
    configuration_url: s.string(),
    client_id: s.string(),
    secret_id: s.string(),
    claim_name: s.string(),
    callback_url: s.optional(s.string()),
    scopes: s.optional(s.string()),
  })),
  active_directory: s.optional(s.object({
    url: s.string(),
    skip_tls_verification: s.optional(s.boolean()),
    server_insecure: s.optional(s.boolean()),
    server_start_tls: s.optional(s.boolean()),
    username_format: s.optional(s.string()),
    username_search_filter: s.optional(s.string()),
    group_search_base_dn: s.optional(s.string()),
    group_search_filter: s.optional(s.string()),
    group_name_attribute: s.optional(s.string()),
    lookup_bind_dn: s.optional(s.string()),
    lookup_bind_password: s.optional(s.string()),
    user_dn_search_base_dn: s.optional(s.string()),
    user_dn_search_filter: s.optional(s.string()),
    user_dns: s.optional(s.array(s.string())),
  })),
});

const Encryption = s.object({
  image: s.optional(s.string()),
  replicas: s.optional(s.string()),
  server: s.optional(KeyPair),
  client: s.optional(KeyPair),
  gemalto: s.optional(s.object({
    keysecure: s.object({
      endpoint: s.string(),
      credentials: s.object({
        token: s.string(),
        domain: s.string(),
        retry: s.optional(s.number({ min: 0 })),
      }),
      tls: s.optional(s.object({ ca: s.string() })),
    }),
  })),
  aws: s.optional(s.object({
    secretsmanager: s.object({
      endpoint: s.string(),
      region: s.string(),
      kmskey: s.optional(s.string()),
      credentials: s.object({ accesskey: s.string(), secretkey: s.string(), token: s.optional(s.string()) }),
    }),
  })),
  gcp: s.optional(s.object({
    secretmanager: s.object({
      project_id: s.string(),
      endpoint: s.optional(s.string()),
      credentials: s.optional(s.object({
        client_email: s.optional(s.string()),
        client_id: s.optional(s.string()),
        private_key_id: s.optional(s.string()),
        private_key: s.optional(s.string()),
      })),
    }),
  })),
  vault: s.optional(s.object({
    endpoint: s.string(),
    engine: s.optional(s.string()),
    namespace: s.optional(s.string()),
    prefix: s.optional(s.string()),
    approle: s.object({
      engine: s.optional(s.string()),
      id: s.string(),
      secret: s.string(),
      retry: s.optional(s.number({ min: 0 })),
    }),
    tls: s.optional(
      s.object({ key: s.optional(s.string()), crt: s.optional(s.string()), ca: s.optional(s.string()) }),
    ),
    status: s.optional(s.object({ ping: s.optional(s.number({ min: 0 })) })),
  })),
});

const StorageOverride = {
  storageClass: s.optional(s.string()),
  storageSize: s.optional(s.number({ min: 0 })),
  image: s.optional(s.string()),
};

/** POST /api/v1/tenants (spec 3 §3 "Tenant create payload"). */
export const CreateTenantInput = s.object({
  name: s.string(),
  namespace: s.string(),
  access_key: s.optional(s.string()),
  secret_key: s.optional(s.string()),
  access_keys: s.optional(s.array(s.string())),
  secret_keys: s.optional(s.array(s.string())),
  enable_tls: s.optional(s.boolean(), true),
  enable_console: s.optional(s.boolean(), true),
  enable_prometheus: s.optional(s.boolean(), true),
  service_name: s.optional(s.string()),
  image: s.optional(s.string(), ""),
  expose_minio: s.optional(s.boolean(), true),
  expose_console: s.optional(s.boolean(), true),
  pools: s.array(PoolInput, { min: 1 }),
  erasureCodingParity: s.optional(s.number({ integer: true, min: 0 }), 0),
  image_registry: s.optional(ImageRegistry),
  image_pull_secret: s.optional(s.string()),
  annotations: s.optional(s.record(s.string())),
  labels: s.optional(s.record(s.string())),
  logSearchConfiguration: s.optional(
    s.object({
      ...StorageOverride,
      postgres_image: s.optional(s.string()),
      postgres_init_image: s.optional(s.string()),
    }),
  ),
  prometheusConfiguration: s.optional(
    s.object({
      ...StorageOverride,
      sidecar_image: s.optional(s.string()),
      init_image: s.optional(s.string()),
    }),
  ),
  tls: s.optional(s.object({
    minio: s.optional(s.array(KeyPair)),
    console: s.optional(KeyPair),
    ca_certificates: s.optional(s.array(s.string())),
    console_ca_certificates: s.optional(s.array(s.string())),
  })),
  encryption: s.optional(Encryption),
  idp: s.optional(Idp),
});
export type CreateTenantInput = s.Infer<typeof CreateTenantInput>;

/** PUT /api/v1/namespaces/{ns}/tenants/{t} (update version dialog). */
export const UpdateTenantInput = s.object({
  image: s.optional(s.string(), ""),
  image_registry: s.optional(ImageRegistry),
  image_pull_secret: s.optional(s.string()),
  enable_prometheus: s.optional(s.boolean()),
});
export type UpdateTenantInput = s.Infer<typeof UpdateTenantInput>;

export const TenantYamlInput = s.object({ yaml: s.string({ max: 1024 * 1024 }) });
export type TenantYamlInput = s.Infer<typeof TenantYamlInput>;

export const DeleteTenantInput = s.object({
  delete_pvcs: s.optional(s.boolean(), false),
  confirm: s.optional(s.string()),
});
export type DeleteTenantInput = s.Infer<typeof DeleteTenantInput>;

export const CreateNamespaceInput = s.object({ name: s.string({ trim: true }) });

export const UpdateSecurityInput = s.object({
  autoCert: s.boolean(),
  customCertificates: s.object({
    secretsToBeDeleted: s.optional(s.array(s.string()), []),
    minio: s.optional(s.array(KeyPair), []),
    minioCAs: s.optional(s.array(s.string()), []),
  }),
});
export type UpdateSecurityInput = s.Infer<typeof UpdateSecurityInput>;

export const DeletePodInput = s.object({ confirm: s.optional(s.string()) });
