/**
 * What the connected storage server speaks (GET /api/v1/capabilities): found over the wire at sign-in and on
 * demand (server/console/session/capabilities.ts), so areas the server cannot serve are hidden and a page
 * reached directly can say what is missing.
 */

/** "unknown": the server did not answer the question (down, timed out), or nothing could be asked yet. */
export type Support = "yes" | "no" | "unknown";

/** How people sign in to this server through Deck. */
export type IdentityMode =
  /** MinIO users (or the root account): the typed keys are traded for temporary credentials with STS AssumeRole. */
  | "sts"
  /** The typed access key and secret key are used as they are (any server but MinIO). */
  | "access-keys"
  /** Single sign-on through the configured OpenID provider (STS AssumeRoleWithWebIdentity). */
  | "openid";

export interface ServerCapabilities {
  /** The storage endpoint the answer is about. */
  endpoint: string;
  /** The Server header it sends ("MinIO" for MinIO and Deck's embedded server), "" when none. */
  server: string;
  /** MinIO's admin API (/minio/admin/v3): users, groups, policies, settings, service accounts, logs, trace. */
  adminApi: Support;
  /** The MinIO release the admin API reports; null when not MinIO or the account may not read server info. */
  minioVersion: string | null;
  /** The newest Prometheus metrics endpoint: v3 (/minio/metrics/v3), v2 (/minio/v2/metrics/cluster) or none. */
  metrics: "v3" | "v2" | "none" | "unknown";
  /** MinIO's STS (AssumeRole and the web-identity and LDAP variants) on the root path. */
  sts: Support;
  identityModes: IdentityMode[];
  /** Plain S3 bucket features, read from one bucket's configuration ("unknown" until a bucket exists). */
  s3: {
    versioning: Support;
    objectLock: Support;
    /** Bucket tags; object tags are tried object by object. */
    tagging: Support;
    lifecycle: Support;
    /** The bucket whose configuration answered, or null. */
    probedBucket: string | null;
  };
  /** When the server was last asked (ISO 8601). */
  checkedAt: string;
}
