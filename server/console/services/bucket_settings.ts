/** Per-bucket settings shown on the Summary (spec 2): quota, versioning, object locking, retention, encryption. */
import {
  type BucketQuotaInfo,
  type BucketRetention,
  type EnableEncryptionInput,
  type EncryptionInfo,
  type RetentionInput,
  type SetQuotaInput,
} from "../../lib/contract/buckets.ts";
import { ApiError } from "../http/errors.ts";
import { type BucketQuota, getBucketQuota, quotaLimit, setBucketQuota } from "../../lib/s3/admin/buckets.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import {
  deleteBucketEncryption,
  getBucketEncryption,
  getBucketVersioning,
  getObjectLockConfig,
  type ObjectLockConfig,
  putBucketEncryption,
  putBucketVersioning,
  putObjectLockConfig,
} from "../../lib/s3/ops/bucket_config.ts";
import { unlessUnsupported } from "./unsupported.ts";
import { quotaMessage } from "../../../islands/lib/bucket_texts.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

export async function getQuota(client: S3Client, bucket: string): Promise<BucketQuotaInfo> {
  return quotaInfo(await getBucketQuota(client, bucket));
}

/** A quota as the Summary and the quota dialog show it (none set: 0 bytes, hard). */
export function quotaInfo(quota: BucketQuota | null | undefined): BucketQuotaInfo {
  return { quota: quotaLimit(quota), type: quota?.quotatype === "fifo" ? "fifo" : "hard" };
}

export async function setQuota(
  client: S3Client,
  bucket: string,
  input: SetQuotaInput,
): Promise<BucketQuotaInfo> {
  const problem = input.enabled ? quotaMessage(input.amount ?? 0) : null;
  if (problem) throw ApiError.badRequest(t("buckets.error.invalidQuota"), problem);
  await setBucketQuota(client, bucket, input.enabled ? input.amount ?? 0 : 0, input.quota_type ?? "hard");
  return await getQuota(client, bucket);
}

export async function isVersioned(client: S3Client, bucket: string): Promise<{ is_versioned: boolean }> {
  return { is_versioned: (await getBucketVersioning(client, bucket)).status === "Enabled" };
}

export async function setVersioning(client: S3Client, bucket: string, on: boolean): Promise<void> {
  await unlessUnsupported(
    t("buckets.unsupported.versioning"),
    putBucketVersioning(client, bucket, { status: on ? "Enabled" : "Suspended" }),
  );
}

export async function objectLocking(
  client: S3Client,
  bucket: string,
): Promise<{ object_locking_enabled: boolean }> {
  return { object_locking_enabled: (await getObjectLockConfig(client, bucket)).enabled };
}

export function retentionToLock(r: RetentionInput): ObjectLockConfig {
  const mode = r.mode === "compliance" ? "COMPLIANCE" : "GOVERNANCE";
  return {
    enabled: true,
    defaultRetention: r.unit === "days" ? { mode, days: r.validity } : { mode, years: r.validity },
  };
}

/** The bucket's default retention; 404 when it has none (the Summary then shows it as disabled). */
export async function getRetention(client: S3Client, bucket: string): Promise<BucketRetention> {
  return retentionOf(await getObjectLockConfig(client, bucket));
}

/**
 * Locking and default retention from one read of the bucket's lock configuration, for a page that shows
 * both (the Summary read it twice per page).
 */
export function lockReader(client: S3Client, bucket: string) {
  let lock: Promise<ObjectLockConfig> | undefined;
  const read = () => (lock ??= getObjectLockConfig(client, bucket));
  return {
    locking: async (): Promise<{ object_locking_enabled: boolean }> => ({
      object_locking_enabled: (await read()).enabled,
    }),
    retention: async (): Promise<BucketRetention> => retentionOf(await read()),
  };
}

function retentionOf(lock: ObjectLockConfig): BucketRetention {
  const r = lock.defaultRetention;
  if (!lock.enabled || !r) throw ApiError.notFound("not found", t("buckets.retentionDialog.none"));
  return {
    mode: r.mode === "COMPLIANCE" ? "compliance" : "governance",
    unit: r.years ? "years" : "days",
    validity: r.years ?? r.days ?? 0,
  };
}

export async function setRetention(client: S3Client, bucket: string, input: RetentionInput): Promise<void> {
  const lock = await getObjectLockConfig(client, bucket);
  if (!lock.enabled) {
    throw ApiError.badRequest(t("buckets.error.lockingOff"), t("buckets.retentionDialog.needsLocking"));
  }
  await putObjectLockConfig(client, bucket, retentionToLock(input));
}

/** The encryption configuration; 404 with MinIO's text when none is set (the UI treats that as disabled). */
export async function encryptionInfo(client: S3Client, bucket: string): Promise<EncryptionInfo> {
  const config = await getBucketEncryption(client, bucket);
  if (!config) {
    throw ApiError.notFound(
      "The server side encryption configuration was not found",
      "The server side encryption configuration was not found",
    );
  }
  return { algorithm: config.algorithm, kmsMasterKeyID: config.kmsMasterKeyId ?? "" };
}

/**
 * What the Encryption dialog says when the storage server has no KMS (spec 2 has no wording; docs/notes.md), in
 * English; the API answers with buckets.encryption.noKms in the visitor's language.
 */
export const NO_KMS_DETAIL =
  "The storage server has no KMS configured, so it cannot encrypt objects with SSE-S3 or SSE-KMS. Configure one on the server (for example MINIO_KMS_SECRET_KEY) and try again.";

export async function enableEncryption(
  client: S3Client,
  bucket: string,
  input: EnableEncryptionInput,
): Promise<void> {
  if (input.encType === "sse-kms" && !input.kmsKeyID) {
    throw ApiError.badRequest(t("buckets.error.kmsKeyRequired"), t("buckets.encryption.kmsKeyRequired"));
  }
  try {
    await putBucketEncryption(
      client,
      bucket,
      input.encType === "sse-s3"
        ? { algorithm: "AES256" }
        : { algorithm: "aws:kms", kmsMasterKeyId: input.kmsKeyID },
    );
  } catch (error) {
    // MinIO refuses default encryption without a KMS (501) and names of keys its KMS does not have.
    if (
      error instanceof S3Error && error.code === "NotImplemented" &&
      /KMS is not configured/.test(error.message)
    ) {
      throw new ApiError(501, "not implemented by the storage server", {
        detail: t("buckets.encryption.noKms"),
      });
    }
    if (
      error instanceof S3Error && (error.code === "KMS.NotFoundException" || error.code === "kms:KeyNotFound")
    ) {
      throw ApiError.badRequest(
        t("buckets.error.invalidKmsKey"),
        t("buckets.encryption.unknownKey", { key: input.kmsKeyID }),
      );
    }
    throw error;
  }
}

export async function disableEncryption(client: S3Client, bucket: string): Promise<void> {
  await deleteBucketEncryption(client, bucket);
}
