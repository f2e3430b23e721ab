/**
 * Buckets (api-index §5): list with size and creation date, detail with access, create as one unit with
 * versioning, object locking, quota and retention, delete, whole-bucket access presets, and permission checks
 * evaluated against the signed-in account's effective policy.
 */
import type { BucketAccessLevel, BucketSummary, HasPermissionInput, MakeBucketInput, PermissionList } from "../contract/buckets.ts";
import { ApiError } from "../errors.ts";
import { bucketAccessOf, evaluate, normalizePolicy, type Policy, policyToJson, presetPolicy } from "../policy/mod.ts";
import { accountInfo } from "../s3/admin/info.ts";
import { setBucketQuota } from "../s3/admin/buckets.ts";
import type { S3Client } from "../s3/client.ts";
import { getBucketPolicy, putBucketPolicy, putBucketVersioning, putObjectLockConfig } from "../s3/ops/bucket_config.ts";
import { deleteBucket as s3DeleteBucket, listBuckets as s3ListBuckets, makeBucket as s3MakeBucket } from "../s3/ops/buckets.ts";
import { bucketNameProblem } from "../contract/bucket_names.ts";
import { retentionToLock } from "./bucket_settings.ts";

/** The account's buckets (sorted by name, with the last usage scan) and its effective policy, from one call. */
export async function accountView(client: S3Client): Promise<{ buckets: BucketSummary[]; policy: Policy | null }> {
  const info = await accountInfo(client);
  let buckets = (info.Buckets ?? []).map((b) => ({ name: b.name, size: b.size ?? 0, creation_date: b.created }));
  // Servers that do not report buckets in account info: fall back to ListBuckets (no sizes).
  if (!info.Buckets) buckets = (await s3ListBuckets(client)).map((b) => ({ name: b.name, size: 0, creation_date: b.creationDate }));
  return { buckets: buckets.sort((a, b) => a.name.localeCompare(b.name)), policy: info.Policy ? normalizePolicy(info.Policy) : null };
}

export async function listBuckets(client: S3Client): Promise<BucketSummary[]> {
  return (await accountView(client)).buckets;
}

export async function bucketAccess(client: S3Client, name: string): Promise<BucketAccessLevel> {
  const text = await getBucketPolicy(client, name);
  return bucketAccessOf(text ? normalizePolicy(JSON.parse(text)) : null, name);
}

export async function bucketInfo(client: S3Client, name: string, view?: { buckets: BucketSummary[] }): Promise<BucketSummary> {
  const bucket = (view ?? await accountView(client)).buckets.find((b) => b.name === name);
  if (!bucket) throw ApiError.notFound("not found", `The bucket ${name} does not exist.`);
  return { ...bucket, access: await bucketAccess(client, name) };
}

/** Sizes as the dialog sends them: a positive whole number of bytes. */
function quotaBytes(input: MakeBucketInput): number {
  if (!input.quota?.enabled) return 0;
  if (!input.quota.amount || input.quota.amount <= 0) throw ApiError.badRequest("invalid quota", "The quota must be a size greater than zero.");
  return input.quota.amount;
}

/**
 * Creates the bucket and applies its features in order; if a feature fails, the bucket is removed again and
 * the error names the step, so a half-configured bucket never stays behind.
 */
export async function makeBucket(client: S3Client, input: MakeBucketInput): Promise<void> {
  const problem = bucketNameProblem(input.name);
  if (problem) throw ApiError.badRequest("invalid bucket name", problem);
  const quota = quotaBytes(input);
  // Retention needs object locking, and locking needs versioning (spec 2 §4 switch rules).
  const locking = input.locking || !!input.retention;
  const versioning = input.versioning || locking;
  await s3MakeBucket(client, input.name, { objectLock: locking });
  let step = "";
  try {
    if (versioning && !locking) {
      step = "enabling versioning";
      await putBucketVersioning(client, input.name, { status: "Enabled" });
    }
    if (quota) {
      step = "setting the quota";
      await setBucketQuota(client, input.name, quota, input.quota?.quota_type ?? "hard");
    }
    if (input.retention) {
      step = "setting the retention";
      await putObjectLockConfig(client, input.name, retentionToLock(input.retention));
    }
  } catch (error) {
    await s3DeleteBucket(client, input.name, { force: true }).catch(() => {});
    const status = error instanceof Error && "status" in error && typeof error.status === "number" && error.status < 500 ? error.status : 502;
    throw new ApiError(status, `the bucket was not created: ${step} failed`, { detail: error instanceof Error ? error.message : String(error) });
  }
}

export async function deleteBucket(client: S3Client, name: string): Promise<void> {
  await s3DeleteBucket(client, name);
}

/** PRIVATE removes the bucket policy; PUBLIC grants anonymous read and write. CUSTOM cannot be set as a preset. */
export async function setBucketAccess(client: S3Client, name: string, access: BucketAccessLevel): Promise<BucketSummary> {
  if (access === "CUSTOM") throw ApiError.badRequest("invalid access", "CUSTOM access comes from a custom bucket policy; choose PRIVATE or PUBLIC, or edit Access Rules.");
  const policy = presetPolicy(name, access);
  await putBucketPolicy(client, name, policy ? policyToJson(policy) : "");
  return await bucketInfo(client, name);
}

/**
 * Which of the actions the account may perform on each bucket, evaluated with the account's effective policy
 * (Deny wins, resources and wildcards honoured; the original only matched action names, api-index §12.20).
 */
export async function hasPermission(client: S3Client, input: HasPermissionInput): Promise<PermissionList> {
  return evaluatePermissions((await accountView(client)).policy, input);
}

export function evaluatePermissions(policy: Policy | null, input: HasPermissionInput): PermissionList {
  return {
    permissions: input.actions.map((a) => ({
      id: a.id,
      can: policy ? evaluate([{ name: "account", policy }], { action: a.action, bucket: a.bucket_name ?? "", key: "" }).allowed : false,
    })),
  };
}
