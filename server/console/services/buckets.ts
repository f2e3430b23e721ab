/**
 * Buckets (api-index §5): list with size and creation date, detail with access, create as one unit with
 * versioning, object locking, quota and retention, delete, whole-bucket access presets, and permission checks
 * evaluated against the signed-in account's effective policy.
 */
import {
  type BucketAccessLevel,
  type BucketSummary,
  type HasPermissionInput,
  type MakeBucketInput,
  type PermissionList,
} from "../../lib/contract/buckets.ts";
import { ApiError } from "../http/errors.ts";
import {
  bucketAccessOf,
  evaluate,
  normalizePolicy,
  type Policy,
  policyToJson,
  presetPolicy,
} from "../../lib/policy/mod.ts";
import { accountInfo, type BucketDetails } from "../../lib/s3/admin/info.ts";
import { isMissingAdminApi, isNotImplemented } from "../../lib/s3/probe.ts";
import { S3_POLICY } from "../session/direct_keys.ts";
import { setBucketQuota } from "../../lib/s3/admin/buckets.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import {
  getBucketPolicy,
  putBucketPolicy,
  putBucketVersioning,
  putObjectLockConfig,
} from "../../lib/s3/ops/bucket_config.ts";
import {
  deleteBucket as s3DeleteBucket,
  headBucket,
  listBuckets as s3ListBuckets,
  makeBucket as s3MakeBucket,
} from "../../lib/s3/ops/buckets.ts";
import { bucketNameMessage, quotaMessage } from "../../../islands/lib/bucket_texts.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import { retentionToLock } from "./bucket_settings.ts";
import { unlessUnsupported } from "./unsupported.ts";

/**
 * The account's buckets (sorted by name, with the last usage scan), its effective policy and what the server
 * said of each bucket's settings (none from a server whose account info leaves them out), from one call.
 */
export async function accountView(
  client: S3Client,
): Promise<{ buckets: BucketSummary[]; policy: Policy | null; details: ReadonlyMap<string, BucketDetails> }> {
  const info = await accountInfo(client).catch((error) => {
    // A plain S3 server has no account info: its bucket list, and the server decides what the keys may do.
    if (isMissingAdminApi(error)) return { Buckets: undefined, Policy: S3_POLICY };
    throw error;
  });
  let buckets = (info.Buckets ?? []).map((b) => ({
    name: b.name,
    size: b.size ?? 0,
    creation_date: b.created,
  }));
  // Servers that do not report buckets in account info: fall back to ListBuckets (no sizes).
  if (!info.Buckets) {
    buckets = (await s3ListBuckets(client)).map((b) => ({
      name: b.name,
      size: 0,
      creation_date: b.creationDate,
    }));
  }
  const details = new Map<string, BucketDetails>();
  for (const b of info.Buckets ?? []) if (b.details) details.set(b.name, b.details);
  return {
    buckets: buckets.sort((a, b) => a.name.localeCompare(b.name)),
    policy: info.Policy ? normalizePolicy(info.Policy) : null,
    details,
  };
}

/**
 * "You do not have permission to list buckets." for an empty list the account may not have listed in full, else undefined. Account info
 * names only the buckets a restricted user can reach, so "none" would otherwise read as "no buckets yet".
 */
export function bucketListRefusal(
  view: { buckets: BucketSummary[]; policy: Policy | null },
): string | undefined {
  if (view.buckets.length > 0 || !view.policy) return undefined;
  const [list] = evaluatePermissions(view.policy, {
    actions: [{ id: "list", action: "s3:ListAllMyBuckets", bucket_name: "" }],
  }).permissions;
  return list.can ? undefined : t("buckets.list.refused");
}

export async function listBuckets(client: S3Client): Promise<BucketSummary[]> {
  return (await accountView(client)).buckets;
}

export async function bucketAccess(client: S3Client, name: string): Promise<BucketAccessLevel> {
  // A server without bucket policies (s3rver) keeps every bucket private to its keys.
  const text = await getBucketPolicy(client, name).catch((error) => {
    if (isNotImplemented(error)) return "";
    throw error;
  });
  return bucketAccessOf(text ? normalizePolicy(JSON.parse(text)) : null, name);
}

/**
 * The bucket as the account sees it. A bucket missing from the account's list is either absent or hidden from
 * the account: HEAD tells them apart, so a denied bucket is "access denied" (403), never "does not exist".
 */
export async function bucketInfo(
  client: S3Client,
  name: string,
  view?: { buckets: BucketSummary[] } | Promise<{ buckets: BucketSummary[] }>,
): Promise<BucketSummary> {
  // The policy is read while the account's list arrives: one storage round trip less per bucket page,
  // which under load is one wait less behind every other request. Its failure counts only for a bucket
  // that exists (a missing one is "does not exist", as before).
  const access = bucketAccess(client, name).then((level) => ({ level }), (error: unknown) => ({ error }));
  let bucket = (await (view ?? accountView(client))).buckets.find((b) => b.name === name);
  if (!bucket) {
    if (!(await headBucket(client, name))) {
      throw ApiError.notFound("not found", t("buckets.delete.missing", { bucket: name }));
    }
    bucket = { name, size: 0, creation_date: "" };
  }
  const read = await access;
  if ("error" in read) throw read.error;
  return { ...bucket, access: read.level };
}

/** What a bucket page's header reads: the bucket, the server's word on its settings, and the account's rights. */
export interface BucketMeta {
  info: BucketSummary;
  /** The settings account info reported for the bucket; null when the server reports none. */
  details: BucketDetails | null;
  /** Whether the account's effective policy allows `action` on this bucket. */
  can(action: string): boolean;
}

/** The bucket page's header read: one account-info call (with the bucket's policy read beside it). */
export async function bucketMeta(client: S3Client, name: string): Promise<BucketMeta> {
  const pending = accountView(client);
  const [view, info] = await Promise.all([pending, bucketInfo(client, name, pending)]);
  return {
    info,
    details: view.details.get(name) ?? null,
    can: (action) =>
      evaluatePermissions(view.policy, { actions: [{ id: action, action, bucket_name: name }] })
        .permissions[0]
        .can,
  };
}

/** Sizes as the dialog sends them: a positive whole number of bytes. */
function quotaBytes(input: MakeBucketInput): number {
  if (!input.quota?.enabled) return 0;
  const problem = quotaMessage(input.quota.amount ?? 0);
  if (problem) throw ApiError.badRequest(t("buckets.error.invalidQuota"), problem);
  return input.quota.amount ?? 0;
}

/**
 * Creates the bucket and applies its features in order; if a feature fails, the bucket is removed again and
 * the error names the step, so a half-configured bucket never stays behind.
 */
export async function makeBucket(client: S3Client, input: MakeBucketInput): Promise<void> {
  const problem = bucketNameMessage(input.name);
  if (problem) throw ApiError.badRequest(t("buckets.error.invalidName"), problem);
  const quota = quotaBytes(input);
  // Retention needs object locking, and locking needs versioning (spec 2 §4 switch rules).
  const locking = input.locking || !!input.retention;
  const versioning = input.versioning || locking;
  try {
    await s3MakeBucket(client, input.name, { objectLock: locking });
  } catch (error) {
    // S3's own text for a name one already owns ("Your previous request to create the named bucket succeeded
    // and you already own it.") reads as success; say plainly that the name is taken.
    if (
      error instanceof S3Error &&
      (error.code === "BucketAlreadyOwnedByYou" || error.code === "BucketAlreadyExists")
    ) {
      throw new ApiError(409, t("buckets.error.exists"), {
        detail: t("buckets.create.exists", { bucket: input.name }),
      });
    }
    throw error;
  }
  let step = "";
  try {
    if (versioning && !locking) {
      step = t("buckets.create.stepVersioning");
      await putBucketVersioning(client, input.name, { status: "Enabled" });
    }
    if (quota) {
      step = t("buckets.create.stepQuota");
      await setBucketQuota(client, input.name, quota, input.quota?.quota_type ?? "hard");
    }
    if (input.retention) {
      step = t("buckets.create.stepRetention");
      await putObjectLockConfig(client, input.name, retentionToLock(input.retention));
    }
  } catch (error) {
    await s3DeleteBucket(client, input.name, { force: true }).catch(() => {});
    const status =
      error instanceof Error && "status" in error && typeof error.status === "number" && error.status < 500
        ? error.status
        : 502;
    throw new ApiError(status, t("buckets.create.notCreated", { step }), {
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}

export async function deleteBucket(client: S3Client, name: string): Promise<void> {
  await s3DeleteBucket(client, name);
}

/** PRIVATE removes the bucket policy; PUBLIC grants anonymous read and write. CUSTOM cannot be set as a preset. */
export async function setBucketAccess(
  client: S3Client,
  name: string,
  access: BucketAccessLevel,
): Promise<BucketSummary> {
  if (access === "CUSTOM") {
    throw ApiError.badRequest(t("buckets.error.invalidAccess"), t("buckets.accessPolicy.customRefused"));
  }
  const policy = presetPolicy(name, access);
  await unlessUnsupported(
    t("buckets.unsupported.policies"),
    putBucketPolicy(client, name, policy ? policyToJson(policy) : ""),
  );
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
      can: policy
        ? evaluate([{ name: "account", policy }], { action: a.action, bucket: a.bucket_name ?? "", key: "" })
          .allowed
        : false,
    })),
  };
}
