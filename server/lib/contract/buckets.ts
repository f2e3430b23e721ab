/** Wire types and input schemas of the Buckets area (api-index §5, spec 2). Imported by the server and islands. */
import * as s from "./schema.ts";
import type { PartFailure } from "./screen.ts";

export type BucketAccessLevel = "PRIVATE" | "PUBLIC" | "CUSTOM";

export interface BucketSummary {
  name: string;
  /** Bytes (data usage as last scanned). */
  size: number;
  creation_date: string;
  /** Present on the detail call; the list leaves it out (one policy read per bucket would not scale). */
  access?: BucketAccessLevel;
}

export interface BucketList {
  buckets: BucketSummary[];
  total: number;
}

/** Said in place of an empty bucket list when the account may not list buckets (s3:ListAllMyBuckets). */
export const BUCKETS_REFUSED = "You do not have permission to list buckets.";

export const QUOTA_TYPES = ["hard", "fifo"] as const;
export type QuotaType = typeof QUOTA_TYPES[number];

/**
 * The largest quota the console sends: 8 PiB less one byte. Bytes travel as JSON numbers, which are exact only
 * up to 2^53 - 1, so a larger size could not be sent faithfully (MinIO's own limit, 2^64 bytes, is higher).
 */
export const MAX_QUOTA_BYTES = 2 ** 53 - 1;
export const QUOTA_TOO_SMALL = "The quota must be greater than zero";
export const QUOTA_TOO_LARGE = "The quota must be less than 8 PiB";

/** What is wrong with a quota size in bytes, or null (shared by the dialogs and the server). */
export function quotaProblem(bytes: number): string | null {
  if (!Number.isFinite(bytes) || bytes < 1) return QUOTA_TOO_SMALL;
  if (bytes > MAX_QUOTA_BYTES) return QUOTA_TOO_LARGE;
  return null;
}

/** Bytes; below 1 is refused with QUOTA_TOO_SMALL where the quota is enabled (a disabled quota ignores it). */
const quotaAmount = s.optional(
  s.number({ max: MAX_QUOTA_BYTES, integer: true, message: QUOTA_TOO_LARGE }),
  0,
);
const RETENTION_MODES = ["compliance", "governance"] as const;
const RETENTION_UNITS = ["days", "years"] as const;

export const RetentionInput = s.object({
  mode: s.literal(...RETENTION_MODES),
  unit: s.literal(...RETENTION_UNITS),
  validity: s.number({ min: 1, max: 36_500, integer: true }),
});
export type RetentionInput = s.Infer<typeof RetentionInput>;

/** POST /api/v1/buckets */
export const MakeBucketInput = s.object({
  name: s.string({ min: 1, max: 63, trim: true }),
  versioning: s.optional(s.boolean(), false),
  locking: s.optional(s.boolean(), false),
  quota: s.optional(s.object({
    enabled: s.boolean(),
    quota_type: s.optional(s.literal(...QUOTA_TYPES), "hard"),
    amount: quotaAmount,
  })),
  retention: s.optional(RetentionInput),
});
export type MakeBucketInput = s.Infer<typeof MakeBucketInput>;

/** PUT /api/v1/buckets/{name}/set-policy */
export const SetBucketAccessInput = s.object({ access: s.literal("PRIVATE", "PUBLIC", "CUSTOM") });

/** PUT /api/v1/buckets/{name}/quota */
export const SetQuotaInput = s.object({
  enabled: s.boolean(),
  quota_type: s.optional(s.literal(...QUOTA_TYPES), "hard"),
  amount: quotaAmount,
});
export type SetQuotaInput = s.Infer<typeof SetQuotaInput>;

export interface BucketQuotaInfo {
  quota: number;
  type: QuotaType;
}

export interface BucketRetention {
  mode: "compliance" | "governance";
  unit: "days" | "years";
  validity: number;
}

/** How new objects in a bucket are encrypted: not at all, with the storage's key (SSE-S3) or a KMS key. */
export type EncryptionType = "disabled" | "sse-s3" | "sse-kms";

/**
 * The cards of a bucket's Summary (spec 2 Summary), in the order they show, with the title each shows and the
 * banner uses. Replication, Object Locking, Versioning and Quota show in distributed mode only, Retention
 * only while object locking is on.
 */
export const SUMMARY_CARDS = [
  { id: "access", title: "Access Policy" },
  { id: "encryption", title: "Encryption" },
  { id: "usage", title: "Reported Usage" },
  { id: "replication", title: "Replication", distributedOnly: true },
  { id: "locking", title: "Object Locking", distributedOnly: true },
  { id: "versioning", title: "Versioning", distributedOnly: true },
  { id: "quota", title: "Quota", distributedOnly: true },
  { id: "retention", title: "Retention" },
] as const;
export type SummaryCard = typeof SUMMARY_CARDS[number]["id"];

/**
 * GET /api/v1/buckets/{bucket}/summary: the Summary as the account may read it, for the page and for the
 * island's reload after every change. A value is null when it was not read: its card is not shown, or its read
 * failed and `unavailable` says why in its place.
 */
export interface BucketSummaryView {
  /** The cards to show, in order. */
  cards: SummaryCard[];
  access: BucketAccessLevel;
  /** Bytes, as last scanned. */
  size: number;
  encryption: { type: EncryptionType; kmsKey: string } | null;
  versioning: boolean | null;
  locking: boolean | null;
  /** True when the bucket has replication rules. */
  replication: boolean | null;
  /** Replicated, pending and failed versions (null: no replication configuration, or not allowed to read it). */
  replicationStatus: ReplicationStatusView | null;
  quota: BucketQuotaInfo | null;
  /** The default retention; null when there is none. */
  retention: BucketRetention | null;
  /** Cards whose read failed, with the reason to show in their place ("access denied"), never "Disabled". */
  unavailable: Partial<Record<SummaryCard, string>>;
  /** Every failed read, for the page's banner. */
  failures: PartFailure[];
}

/** PUT /api/v1/buckets/{bucket}/versioning */
export const SetVersioningInput = s.object({ versioning: s.boolean() });

/** POST /api/v1/buckets/{bucket}/encryption/enable */
export const EnableEncryptionInput = s.object({
  encType: s.literal("sse-s3", "sse-kms"),
  kmsKeyID: s.optional(s.string({ max: 256 }), ""),
});
export type EnableEncryptionInput = s.Infer<typeof EnableEncryptionInput>;

export interface EncryptionInfo {
  algorithm: string;
  kmsMasterKeyID: string;
}

/** POST /api/v1/has-permission */
export const HasPermissionInput = s.object({
  actions: s.array(
    s.object({
      id: s.string({ min: 1, max: 128 }),
      action: s.string({ min: 1, max: 128 }),
      bucket_name: s.optional(s.string({ max: 63 }), ""),
    }),
    { max: 100 },
  ),
});
export type HasPermissionInput = s.Infer<typeof HasPermissionInput>;

export interface PermissionList {
  permissions: { id: string; can: boolean }[];
}

// Events
export const EVENT_TYPES = ["put", "get", "delete"] as const;

export interface BucketEvent {
  id: string;
  arn: string;
  events: string[];
  prefix: string;
  suffix: string;
}

export const CreateEventInput = s.object({
  configuration: s.object({
    arn: s.string({ min: 1, max: 512 }),
    events: s.array(s.literal(...EVENT_TYPES), { min: 1, max: 3 }),
    prefix: s.optional(s.string({ max: 1024 }), ""),
    suffix: s.optional(s.string({ max: 1024 }), ""),
    id: s.optional(s.string({ max: 256 }), ""),
  }),
  ignoreExisting: s.optional(s.boolean(), true),
});
export type CreateEventInput = s.Infer<typeof CreateEventInput>;

export const DeleteEventInput = s.object({
  events: s.array(s.literal(...EVENT_TYPES), { max: 3 }),
  prefix: s.optional(s.string({ max: 1024 }), ""),
  suffix: s.optional(s.string({ max: 1024 }), ""),
});
export type DeleteEventInput = s.Infer<typeof DeleteEventInput>;

// Replication
export interface ReplicationRuleView {
  id: string;
  status: "Enabled" | "Disabled";
  priority: number;
  syncMode: "async" | "sync";
  bandwidth: number;
  healthCheckPeriod: number;
  delete_marker_replication: boolean;
  deletes_replication: boolean;
  metadata_replication: boolean;
  prefix: string;
  tags: string;
  destination: { bucket: string };
}

/** A bucket's replication progress (the storage's replication metrics), as the bucket page shows it. */
export interface ReplicationStatusView {
  /** Versions (and deletes) sent to every target. */
  replicated: number;
  replicatedBytes: number;
  /** Waiting for their first attempt or between attempts. */
  pending: number;
  /** Last attempt failed; retried with backoff. */
  failed: number;
  /** The last failure reported by any target ("" when none), and when. */
  lastError: string;
  lastErrorTime: string;
}

export const MultiReplicationInput = s.object({
  accessKey: s.string({ min: 1, max: 128 }),
  secretKey: s.string({ min: 1, max: 128 }),
  targetURL: s.string({ min: 1, max: 512 }),
  region: s.optional(s.string({ max: 64 }), ""),
  syncMode: s.optional(s.literal("async", "sync"), "async"),
  bandwidth: s.optional(s.number({ min: 0 }), 0),
  healthCheckPeriod: s.optional(s.number({ min: 0, integer: true }), 60),
  prefix: s.optional(s.string({ max: 1024 }), ""),
  tags: s.optional(s.string({ max: 4096 }), ""),
  replicateDeleteMarkers: s.optional(s.boolean(), true),
  replicateDeletes: s.optional(s.boolean(), true),
  replicateMetadata: s.optional(s.boolean(), true),
  bucketsRelation: s.array(
    s.object({
      originBucket: s.string({ min: 1, max: 63 }),
      destinationBucket: s.string({ min: 1, max: 63 }),
    }),
    { min: 1, max: 1000 },
  ),
});
export type MultiReplicationInput = s.Infer<typeof MultiReplicationInput>;

export interface ReplicationResult {
  replicationState: { originBucket: string; targetBucket: string; errorString: string }[];
}

export const ListExternalBucketsInput = s.object({
  accessKey: s.string({ min: 1, max: 128 }),
  secretKey: s.string({ min: 1, max: 128 }),
  targetURL: s.string({ min: 1, max: 512 }),
  useTLS: s.boolean(),
  region: s.optional(s.string({ max: 64 }), ""),
});
export type ListExternalBucketsInput = s.Infer<typeof ListExternalBucketsInput>;

/**
 * What is wrong with a set of tag keys, or null: S3 refuses a filter naming one key twice, and one value per key
 * is what the user means (shared by the tag editor and the server).
 */
export function tagKeysProblem(keys: string[]): string | null {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) return `The tag key ${key} is used twice; each key can have one value`;
    seen.add(key);
  }
  return null;
}

// Lifecycle
export interface LifecycleRuleView {
  id: string;
  prefix: string;
  status: "Enabled" | "Disabled";
  expiration: { date: string; days: number; delete_marker: boolean };
  transition: { date: string; days: number; storage_class: string };
  tags: { key: string; value: string }[];
}

const days = s.optional(s.number({ min: 0, max: 36_500, integer: true }), 0);
export const AddLifecycleInput = s.object({
  prefix: s.optional(s.string({ max: 1024 }), ""),
  /** "k1=v1&k2=v2" (spec 2 tag editor). */
  tags: s.optional(s.string({ max: 4096 }), ""),
  expiry_date: s.optional(s.string({ max: 40 }), ""),
  expiry_days: days,
  transition_date: s.optional(s.string({ max: 40 }), ""),
  transition_days: days,
  storage_class: s.optional(s.string({ max: 256 }), ""),
  disable: s.optional(s.boolean(), false),
  expired_object_delete_marker: s.optional(s.boolean(), false),
  noncurrentversion_expiration_days: days,
  noncurrentversion_transition_days: days,
  noncurrentversion_transition_storage_class: s.optional(s.string({ max: 256 }), ""),
});
export type AddLifecycleInput = s.Infer<typeof AddLifecycleInput>;

export const UpdateLifecycleInput = s.object({
  disable: s.boolean(),
  tags: s.optional(s.string({ max: 4096 })),
});
export type UpdateLifecycleInput = s.Infer<typeof UpdateLifecycleInput>;

// Access rules and audit
export const AccessRuleInput = s.object({
  prefix: s.string({ min: 1, max: 1024, trim: true }),
  access: s.literal("readonly", "writeonly", "readwrite"),
  /** Deck: false when adding, so an existing prefix's rule is refused (409) rather than replaced. */
  replace: s.optional(s.boolean(), true),
});
export type AccessRuleInput = s.Infer<typeof AccessRuleInput>;

/** The refusal of an Add Access Rule for a prefix that has one (the dialog checks the list it shows too). */
export const accessRuleExists = (prefix: string, access: string) =>
  `The prefix ${prefix} already has a rule (${access}); edit that rule instead.`;

export const DeleteAccessRuleInput = s.object({ prefix: s.string({ min: 1, max: 1024, trim: true }) });

export interface AccessRuleList {
  accessRules: { prefix: string; access: "readonly" | "writeonly" | "readwrite" }[];
  total: number;
}
