/**
 * Contracts between the parts of the embedded storage server.
 *
 * The S3 front (`s3_server.ts`: routing, SigV4 verification, bucket and object handlers, disk store)
 * and the identity side (`iam/`, `admin/`, `sts.ts`: users, groups, policies, service accounts,
 * STS sessions, admin API v3, config KV) are built apart. They meet only through these interfaces,
 * so either side can change its internals without touching the other. Nothing here knows the
 * console: the embedded server is reached over HTTP like any MinIO.
 */
import type { BucketQuota } from "../../lib/s3/admin/buckets.ts";

/** The server configuration as stored and applied: subsystem → target ("_" by default) → key → value. */
export type ConfigTree = Record<string, Record<string, Record<string, string>>>;

/** Which objects the compression subsystem stores compressed (fs/compression.ts applies it). */
export interface CompressionRule {
  /** Lower-case, each with its leading dot. Empty with `mimeTypes` empty: every object qualifies. */
  extensions: string[];
  /** Patterns such as `text/*` or `application/json`. */
  mimeTypes: string[];
}

/** Who signed a request. Anonymous requests have no credential at all. */
export type CredentialKind = "root" | "user" | "serviceAccount" | "sts";

/** A key pair the server accepts, with what is needed to verify and authorise requests signed by it. */
export interface Credential {
  accessKey: string;
  secretKey: string;
  kind: CredentialKind;
  /** The long-term user behind the key: itself for root and users, the owner for service accounts and STS. */
  parentUser: string;
  /** Present only for STS credentials; must match X-Amz-Security-Token exactly (minio-protocol §1.9). */
  sessionToken?: string;
  /** Epoch milliseconds after which the key is rejected (STS, expiring service accounts). */
  expiresAt?: number;
  /** False for a disabled user, a disabled service account, or a key whose parent is disabled. */
  enabled: boolean;
  /**
   * This server made up the secret (STS, a service account created without one): 40 random characters no
   * one can guess, so wrong signatures for it are not throttled (auth/guess_throttle.ts).
   */
  generatedSecret?: boolean;
}

/** Condition values of one request, keyed by condition key (`s3:prefix`, `aws:SourceIp`, ...). */
export type ConditionValues = Record<string, string[]>;

/** What the S3 front asks of the identity side for every authenticated request. */
export interface IdentityAuthority {
  /** Looks up a key; undefined when unknown. Expired STS keys are returned with their expiry so the caller can name the error. */
  lookupCredential(accessKey: string): Credential | undefined;
  /**
   * Whether `cred` may perform `action` on `bucket`/`key` (either may be empty for service-level calls),
   * after user, group, service-account and session policies: explicit Deny wins, then root, then Allow.
   */
  isAllowed(
    cred: Credential,
    action: string,
    bucket: string,
    key: string,
    conditions: ConditionValues,
  ): boolean;
}

/** Facts about the object store the identity/admin side needs (server info, quota, usage, bucket existence). */
export interface StoreFacts {
  /** The data directory (shown as the one drive of the single node). */
  readonly dataDir: string;
  /** Stable id of this deployment (created with the data directory). */
  readonly deploymentId: string;
  /** AccountInfo `details` of a bucket. */
  bucketDetails(
    bucket: string,
  ): Promise<
    {
      versioning: boolean;
      versioningSuspended: boolean;
      locking: boolean;
      replication: boolean;
      /** The stored quota document as MinIO reports it (limit, type), null when none is set. */
      quota: BucketQuota | null;
    }
  >;
  bucketExists(bucket: string): Promise<boolean>;
  listBucketNames(): Promise<string[]>;
  /** Usage totals, computed from the store (may be cached for a few seconds). */
  usage(): Promise<StoreUsage>;
  /** Per-bucket metadata documents owned by the admin side (quota.json, targets.json, ...). */
  getBucketDocument(bucket: string, name: string): Promise<string | undefined>;
  /** Writes (or with `undefined` removes) a per-bucket metadata document atomically. */
  putBucketDocument(bucket: string, name: string, value: string | undefined): Promise<void>;
  /** Disk totals of the data directory's filesystem, in bytes. */
  diskSpace(): Promise<{ total: number; used: number; free: number }>;
}

export interface BucketUsage {
  size: number;
  objects: number;
  versions: number;
  deleteMarkers: number;
  created: string;
}

export interface StoreUsage {
  buckets: number;
  objects: number;
  versions: number;
  deleteMarkers: number;
  size: number;
  perBucket: Record<string, BucketUsage>;
}

/** Facts about server configuration the S3 front validates bucket configurations against. */
export interface ServerFacts {
  /** ARNs of configured notification targets, as ServerInfo `sqsARN` lists them. */
  notificationArns(): string[];
  /** Names of configured tiers (valid lifecycle transition storage classes). */
  tierNames(): string[];
  /** A configured tier's type (s3, minio, gcs, azure): lifecycle rules may transition only to s3 and minio. */
  tierType(name: string): string | undefined;
  /** Remote-target ARNs configured for a bucket (valid replication destinations). */
  remoteTargetArns(bucket: string): Promise<string[]>;
  /** Hard quota in bytes for a bucket, or 0 when none. */
  bucketQuota(bucket: string): Promise<number>;
  /** Configured server region; "" when none. */
  region(): string;
  /** Which objects are stored compressed; null when compression is off. */
  compression(): CompressionRule | null;
  /** Origins CORS is answered for outside buckets with their own CORS rules (MinIO's `api cors_allow_origin`). */
  corsAllowOrigins(): string[];
}

/** An authenticated admin API v3 or STS request, handed from the front to the identity side. */
export interface VerifiedRequest {
  request: Request;
  url: URL;
  /** The signer; null only for unsigned STS actions (web identity, LDAP). */
  credential: Credential | null;
  /** The body, already read and (when signed) checked against X-Amz-Content-Sha256. */
  body: Uint8Array;
  sourceIp: string;
  requestId: string;
}

/** Handles `/minio/admin/v3/*` after the front has verified the signature. */
export type AdminHandler = (req: VerifiedRequest) => Promise<Response>;

/** Handles STS POSTs after the front has classified them (and verified the signature of AssumeRole). */
export type StsHandler = (req: VerifiedRequest) => Promise<Response>;
