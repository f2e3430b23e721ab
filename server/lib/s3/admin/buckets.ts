/** Bucket quota, remote targets and tiers (minio-protocol §3.10–3.12). */
import type { S3Client } from "../client.ts";
import { S3Error } from "../errors.ts";
import { adminDo, adminJson } from "./request.ts";

export interface BucketQuota {
  quota: number;
  size?: number;
  quotatype: "hard" | "fifo" | "";
}

/** A quota's limit in bytes: `size` on current servers, `quota` (deprecated, still sent) on older ones. */
export const quotaLimit = (quota: BucketQuota | null | undefined): number => quota?.size || quota?.quota || 0;

/** The bucket's quota, or null when none is set. */
export async function getBucketQuota(client: S3Client, bucket: string): Promise<BucketQuota | null> {
  try {
    const quota = await adminJson<BucketQuota>(client, {
      method: "GET",
      op: "get-bucket-quota",
      query: { bucket },
    });
    return quotaLimit(quota) > 0 ? quota : null;
  } catch (error) {
    if (error instanceof S3Error && error.code === "XMinioAdminNoSuchQuotaConfiguration") return null;
    throw error;
  }
}

/** Sets a hard quota in bytes; 0 clears it. */
export async function setBucketQuota(
  client: S3Client,
  bucket: string,
  bytes: number,
  type: "hard" | "fifo" = "hard",
): Promise<void> {
  const body = bytes > 0
    ? { quota: bytes, size: bytes, quotatype: type }
    : { quota: 0, size: 0, quotatype: "" };
  await adminDo(client, { method: "PUT", op: "set-bucket-quota", query: { bucket }, body });
}

export interface BucketTarget {
  sourcebucket: string;
  endpoint: string;
  credentials?: { accessKey: string; secretKey?: string };
  targetbucket: string;
  secure: boolean;
  path?: string;
  api?: string;
  arn?: string;
  type: "replication";
  region?: string;
  bandwidthlimit?: number;
  replicationSync?: boolean;
  storageclass?: string;
  /** Nanoseconds. */
  healthCheckDuration?: number;
  isOnline?: boolean;
}

export async function listRemoteTargets(
  client: S3Client,
  bucket: string,
  type = "replication",
): Promise<BucketTarget[]> {
  return (await adminJson<BucketTarget[] | null>(client, {
    method: "GET",
    op: "list-remote-targets",
    query: { bucket, type },
  })) ?? [];
}

/** Registers a remote target; returns its ARN. */
export function setRemoteTarget(client: S3Client, bucket: string, target: BucketTarget): Promise<string> {
  return adminJson<string>(client, {
    method: "PUT",
    op: "set-remote-target",
    query: { bucket },
    body: target,
    encrypt: true,
  });
}

export async function removeRemoteTarget(client: S3Client, bucket: string, arn: string): Promise<void> {
  await adminDo(client, { method: "DELETE", op: "remove-remote-target", query: { bucket, arn } });
}

export type TierType = "s3" | "minio" | "gcs" | "azure";

export interface TierConfig {
  Version: "v1";
  Type: TierType;
  Name: string;
  S3?: {
    Endpoint: string;
    AccessKey: string;
    SecretKey: string;
    Bucket: string;
    Prefix: string;
    Region: string;
    StorageClass?: string;
  };
  MinIO?: {
    Endpoint: string;
    AccessKey: string;
    SecretKey: string;
    Bucket: string;
    Prefix: string;
    Region: string;
  };
  GCS?: {
    Endpoint: string;
    Creds: string;
    Bucket: string;
    Prefix: string;
    Region: string;
    StorageClass?: string;
  };
  Azure?: {
    Endpoint: string;
    AccountName: string;
    AccountKey: string;
    Bucket: string;
    Prefix: string;
    Region: string;
    StorageClass?: string;
  };
}

export async function listTiers(client: S3Client): Promise<TierConfig[]> {
  return (await adminJson<TierConfig[] | null>(client, { method: "GET", op: "tier" })) ?? [];
}

export async function addTier(client: S3Client, tier: TierConfig): Promise<void> {
  await adminDo(client, { method: "PUT", op: "tier", body: tier, encrypt: true });
}

export async function editTierCredentials(
  client: S3Client,
  name: string,
  creds: { access?: string; secret?: string; creds?: string },
): Promise<void> {
  await adminDo(client, {
    method: "POST",
    op: `tier/${encodeURIComponent(name)}`,
    body: creds,
    encrypt: true,
  });
}

export async function removeTier(client: S3Client, name: string): Promise<void> {
  await adminDo(client, { method: "DELETE", op: `tier/${encodeURIComponent(name)}` });
}
