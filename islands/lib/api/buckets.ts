/** Browser calls of the Buckets area (api-index §5, spec 2 §7). */
import type {
  AccessRuleList,
  BucketEvent,
  BucketList,
  BucketQuotaInfo,
  BucketRetention,
  BucketSummary,
  BucketSummaryView,
  EncryptionInfo,
  LifecycleRuleView,
  MakeBucketInput,
  MultiReplicationInput,
  PermissionList,
  ReplicationResult,
  ReplicationRuleView,
  ReplicationStatusView,
} from "../../../server/lib/contract/buckets.ts";
import type { PolicySummary } from "../../../server/lib/contract/policies.ts";
import { api, segment } from "../request.ts";

const b = (bucket: string) => `/api/v1/buckets/${segment(bucket)}`;

export const bucketsApi = {
  list: async () => (await api.get<BucketList>("/api/v1/buckets")).buckets ?? [],
  info: (bucket: string) => api.get<BucketSummary>(b(bucket)),
  /** The Summary's view model, as the page was rendered from it. */
  summary: (bucket: string) => api.get<BucketSummaryView>(`${b(bucket)}/summary`),
  create: (input: MakeBucketInput) => api.post("/api/v1/buckets", input),
  remove: (bucket: string) => api.delete(b(bucket)),
  setAccess: (bucket: string, access: "PRIVATE" | "PUBLIC") =>
    api.put<BucketSummary>(`${b(bucket)}/set-policy`, { access }),
  quota: (bucket: string) => api.get<BucketQuotaInfo>(`${b(bucket)}/quota`),
  setQuota: (bucket: string, enabled: boolean, amount: number, quota_type: "hard" | "fifo" = "hard") =>
    api.put<BucketQuotaInfo>(`${b(bucket)}/quota`, { enabled, amount, quota_type }),
  retention: (bucket: string) => api.get<BucketRetention>(`${b(bucket)}/retention`),
  setRetention: (bucket: string, r: BucketRetention) => api.put(`${b(bucket)}/retention`, r),
  versioning: (bucket: string) => api.get<{ is_versioned: boolean }>(`${b(bucket)}/versioning`),
  setVersioning: (bucket: string, versioning: boolean) => api.put(`${b(bucket)}/versioning`, { versioning }),
  locking: (bucket: string) => api.get<{ object_locking_enabled: boolean }>(`${b(bucket)}/object-locking`),
  encryption: (bucket: string) => api.get<EncryptionInfo>(`${b(bucket)}/encryption/info`),
  enableEncryption: (bucket: string, encType: "sse-s3" | "sse-kms", kmsKeyID = "") =>
    api.post(`${b(bucket)}/encryption/enable`, { encType, kmsKeyID }),
  disableEncryption: (bucket: string) => api.post(`${b(bucket)}/encryption/disable`, {}),
  hasPermission: (actions: { id: string; action: string; bucket_name?: string }[]) =>
    api.post<PermissionList>("/api/v1/has-permission", { actions }),
  events: async (bucket: string) =>
    (await api.get<{ events: BucketEvent[] | null }>(`${b(bucket)}/events`)).events ?? [],
  addEvent: (
    bucket: string,
    configuration: { arn: string; events: string[]; prefix: string; suffix: string },
  ) => api.post(`${b(bucket)}/events`, { configuration, ignoreExisting: true }),
  deleteEvent: (bucket: string, e: BucketEvent) =>
    api.delete(`${b(bucket)}/events/${segment(e.arn)}`, {
      events: e.events,
      prefix: e.prefix,
      suffix: e.suffix,
    }),
  arns: async () => (await api.get<{ arns: string[] | null }>("/api/v1/admin/arns")).arns ?? [],
  replication: async (bucket: string) =>
    (await api.get<{ rules: ReplicationRuleView[] | null }>(`${b(bucket)}/replication`)).rules ?? [],
  replicationStatus: async (bucket: string) =>
    (await api.get<{ status: ReplicationStatusView | null }>(`${b(bucket)}/replication-status`)).status,
  deleteReplicationRule: (bucket: string, id: string) =>
    api.delete(`${b(bucket)}/replication/${segment(id)}`),
  replicate: (input: Partial<MultiReplicationInput>) =>
    api.post<ReplicationResult>("/api/v1/buckets-replication", input),
  externalBuckets: async (
    input: { accessKey: string; secretKey: string; targetURL: string; useTLS: boolean; region: string },
  ) =>
    (await api.post<{ buckets: { name: string }[] | null }>("/api/v1/list-external-buckets", input))
      .buckets ?? [],
  lifecycle: async (bucket: string) =>
    (await api.get<{ lifecycle: LifecycleRuleView[] | null }>(`${b(bucket)}/lifecycle`)).lifecycle ?? [],
  addLifecycle: (bucket: string, rule: Record<string, unknown>) => api.post(`${b(bucket)}/lifecycle`, rule),
  updateLifecycle: (bucket: string, id: string, disable: boolean) =>
    api.put(`${b(bucket)}/lifecycle/${segment(id)}`, { disable }),
  tiers: async () =>
    (await api.get<{ items: { type: string; [k: string]: unknown }[] | null }>("/api/v1/admin/tiers"))
      .items ?? [],
  accessRules: async (bucket: string) =>
    (await api.get<AccessRuleList>(`/api/v1/bucket/${segment(bucket)}/access-rules`)).accessRules ?? [],
  /** `replace: false` (Add) is refused with 409 when the prefix has a rule already. */
  setAccessRule: (bucket: string, prefix: string, access: string, replace = true) =>
    api.put(`/api/v1/bucket/${segment(bucket)}/access-rules`, { prefix, access, replace }),
  deleteAccessRule: (bucket: string, prefix: string) =>
    api.delete(`/api/v1/bucket/${segment(bucket)}/access-rules`, { prefix }),
  auditPolicies: async (bucket: string) =>
    (await api.get<{ policies: PolicySummary[] | null }>(`/api/v1/bucket-policy/${segment(bucket)}`))
      .policies ?? [],
  auditUsers: async (bucket: string) =>
    (await api.get<string[] | null>(`/api/v1/bucket-users/${segment(bucket)}`)) ?? [],
};
