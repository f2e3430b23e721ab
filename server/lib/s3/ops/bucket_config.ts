/**
 * Per-bucket configuration sub-resources as typed values: versioning, object lock, policy, encryption,
 * tagging (minio-protocol §5.4–5.7, §5.11). Lifecycle, replication and notification have their own modules.
 */
import type { S3Client } from "../client.ts";
import { md5Base64 } from "../md5.ts";
import { buildXml, child, children, childText, parseXml } from "../xml.ts";
import { isNotConfigured } from "./buckets.ts";

export type VersioningStatus = "Enabled" | "Suspended" | "";

export interface VersioningConfig {
  status: VersioningStatus;
  excludedPrefixes?: string[];
  excludeFolders?: boolean;
}

export async function getBucketVersioning(client: S3Client, bucket: string): Promise<VersioningConfig> {
  const root = parseXml(await client.text({ method: "GET", bucket, query: { versioning: "" } }));
  return {
    status: (childText(root, "Status") ?? "") as VersioningStatus,
    excludedPrefixes: children(root, "ExcludedPrefixes").map((p) => childText(p, "Prefix") ?? ""),
    excludeFolders: childText(root, "ExcludeFolders") === "true",
  };
}

export async function putBucketVersioning(
  client: S3Client,
  bucket: string,
  config: VersioningConfig,
): Promise<void> {
  const body = buildXml("VersioningConfiguration", {
    Status: config.status,
    ExcludedPrefixes: config.excludedPrefixes?.map((p) => ({ Prefix: p })),
    ExcludeFolders: config.excludeFolders ? "true" : undefined,
  });
  await client.empty({ method: "PUT", bucket, query: { versioning: "" }, body });
}

export type RetentionMode = "GOVERNANCE" | "COMPLIANCE";

export interface ObjectLockConfig {
  enabled: boolean;
  defaultRetention?: { mode: RetentionMode; days?: number; years?: number };
}

/** Object lock configuration; `enabled: false` when the bucket has none. */
export async function getObjectLockConfig(client: S3Client, bucket: string): Promise<ObjectLockConfig> {
  try {
    const root = parseXml(await client.text({ method: "GET", bucket, query: { "object-lock": "" } }));
    const retention = child(child(root, "Rule"), "DefaultRetention");
    const days = childText(retention, "Days");
    const years = childText(retention, "Years");
    return {
      enabled: childText(root, "ObjectLockEnabled") === "Enabled",
      defaultRetention: retention
        ? {
          mode: childText(retention, "Mode") as RetentionMode,
          days: days ? Number(days) : undefined,
          years: years ? Number(years) : undefined,
        }
        : undefined,
    };
  } catch (error) {
    if (isNotConfigured(error)) return { enabled: false };
    throw error;
  }
}

export async function putObjectLockConfig(
  client: S3Client,
  bucket: string,
  config: ObjectLockConfig,
): Promise<void> {
  const r = config.defaultRetention;
  const body = buildXml("ObjectLockConfiguration", {
    ObjectLockEnabled: "Enabled",
    Rule: r ? { DefaultRetention: { Mode: r.mode, Days: r.days, Years: r.years } } : undefined,
  });
  await client.empty({
    method: "PUT",
    bucket,
    query: { "object-lock": "" },
    body,
    headers: { "content-md5": await md5Base64(body) },
  });
}

/** The bucket policy JSON text, or "" when the bucket has none. */
export async function getBucketPolicy(client: S3Client, bucket: string): Promise<string> {
  try {
    return await client.text({ method: "GET", bucket, query: { policy: "" } });
  } catch (error) {
    if (isNotConfigured(error)) return "";
    throw error;
  }
}

/** Sets the bucket policy; an empty policy deletes it (as minio-go's SetBucketPolicy does). */
export async function putBucketPolicy(client: S3Client, bucket: string, policy: string): Promise<void> {
  if (policy.trim() === "") {
    await client.empty({ method: "DELETE", bucket, query: { policy: "" } });
    return;
  }
  await client.empty({
    method: "PUT",
    bucket,
    query: { policy: "" },
    body: policy,
    headers: { "content-type": "application/json" },
  });
}

export interface EncryptionConfig {
  algorithm: "AES256" | "aws:kms";
  kmsMasterKeyId?: string;
}

/** Default encryption, or null when none is configured. */
export async function getBucketEncryption(
  client: S3Client,
  bucket: string,
): Promise<EncryptionConfig | null> {
  try {
    const root = parseXml(await client.text({ method: "GET", bucket, query: { encryption: "" } }));
    const rule = child(child(root, "Rule"), "ApplyServerSideEncryptionByDefault");
    return {
      algorithm: (childText(rule, "SSEAlgorithm") ?? "AES256") as EncryptionConfig["algorithm"],
      kmsMasterKeyId: childText(rule, "KMSMasterKeyID") || undefined,
    };
  } catch (error) {
    if (isNotConfigured(error)) return null;
    throw error;
  }
}

export async function putBucketEncryption(
  client: S3Client,
  bucket: string,
  config: EncryptionConfig,
): Promise<void> {
  const body = buildXml("ServerSideEncryptionConfiguration", {
    Rule: {
      ApplyServerSideEncryptionByDefault: {
        SSEAlgorithm: config.algorithm,
        KMSMasterKeyID: config.kmsMasterKeyId,
      },
    },
  });
  await client.empty({ method: "PUT", bucket, query: { encryption: "" }, body });
}

export async function deleteBucketEncryption(client: S3Client, bucket: string): Promise<void> {
  await client.empty({ method: "DELETE", bucket, query: { encryption: "" } });
}

export type Tags = Record<string, string>;

export function tagsXml(tags: Tags): string {
  return buildXml("Tagging", {
    TagSet: { Tag: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) },
  });
}

export function parseTagsXml(text: string): Tags {
  const tags: Tags = {};
  for (const tag of children(child(parseXml(text), "TagSet"), "Tag")) {
    tags[childText(tag, "Key") ?? ""] = childText(tag, "Value") ?? "";
  }
  return tags;
}

/** Bucket tags ({} when none). */
export async function getBucketTagging(client: S3Client, bucket: string): Promise<Tags> {
  try {
    return parseTagsXml(await client.text({ method: "GET", bucket, query: { tagging: "" } }));
  } catch (error) {
    if (isNotConfigured(error)) return {};
    throw error;
  }
}

export async function putBucketTagging(client: S3Client, bucket: string, tags: Tags): Promise<void> {
  if (Object.keys(tags).length === 0) {
    await client.empty({ method: "DELETE", bucket, query: { tagging: "" } });
    return;
  }
  await client.empty({ method: "PUT", bucket, query: { tagging: "" }, body: tagsXml(tags) });
}
