/** Bucket quota and replication remote targets (minio-protocol §3.10–3.11). */
import { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { getBucketVersioning } from "../../lib/s3/ops/bucket_config.ts";
import { headBucket } from "../../lib/s3/ops/buckets.ts";
import { parseReplicationXml } from "../../lib/s3/ops/replication.ts";
import {
  type AdminContext,
  adminFail,
  decryptJson,
  empty,
  json,
  plainJson,
  requireAction,
  requiredParam,
} from "./context.ts";
import { type BucketTargetDoc, readTargets } from "../replication/targets.ts";

async function requireBucket(ctx: AdminContext, bucket: string): Promise<void> {
  if (!(await ctx.store.bucketExists(bucket))) {
    throw adminFail("NoSuchBucket", "The specified bucket does not exist", 404);
  }
}

export interface QuotaDoc {
  quota: number;
  size: number;
  rate: number;
  requests: number;
  quotatype: string;
}

export async function getBucketQuota(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:GetBucketQuota");
  const bucket = requiredParam(ctx, "bucket");
  await requireBucket(ctx, bucket);
  const text = await ctx.store.getBucketDocument(bucket, "quota.json");
  if (!text) {
    throw adminFail("XMinioAdminNoSuchQuotaConfiguration", "The quota configuration does not exist", 404);
  }
  return json(JSON.parse(text));
}

export async function setBucketQuota(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:SetBucketQuota");
  const bucket = requiredParam(ctx, "bucket");
  await requireBucket(ctx, bucket);
  const body = plainJson<Partial<QuotaDoc>>(ctx);
  const quota = Number(body.size || body.quota || 0);
  if (!Number.isSafeInteger(quota) || quota < 0) {
    throw adminFail("XMinioAdminInvalidArgument", "quota must be a whole number of bytes", 400);
  }
  if (quota === 0) {
    await ctx.store.putBucketDocument(bucket, "quota.json", undefined);
    return empty();
  }
  if ((body.quotatype ?? "hard") !== "hard") {
    throw adminFail(
      "XMinioAdminInvalidArgument",
      `quota type ${body.quotatype} is not supported; only hard quotas are enforced`,
      400,
    );
  }
  const doc: QuotaDoc = { quota, size: quota, rate: 0, requests: 0, quotatype: "hard" };
  await ctx.store.putBucketDocument(bucket, "quota.json", JSON.stringify(doc));
  return empty();
}

/** What list-remote-targets shows: never the secret key. */
const redacted = (t: BucketTargetDoc) => ({ ...t, credentials: { accessKey: t.credentials.accessKey } });

export async function listRemoteTargets(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:GetBucketTarget");
  if (!ctx.query.has("bucket") || !ctx.query.has("type")) {
    throw adminFail("XMinioAdminInvalidArgument", "bucket and type are required", 400);
  }
  const bucket = ctx.query.get("bucket")!;
  const type = ctx.query.get("type")!;
  const buckets = bucket ? [bucket] : await ctx.store.listBucketNames();
  if (bucket) await requireBucket(ctx, bucket);
  const out = [];
  for (const b of buckets) {
    for (const t of await readTargets(ctx, b)) if (!type || t.type === type) out.push(redacted(t));
  }
  return json(out);
}

export async function setRemoteTarget(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:SetBucketTarget");
  const bucket = requiredParam(ctx, "bucket");
  await requireBucket(ctx, bucket);
  const body = await decryptJson<Partial<BucketTargetDoc> & { omitempty?: string }>(ctx);
  if (body.type !== "replication") {
    throw adminFail(
      "XMinioAdminRemoteARNTypeInvalid",
      "Unsupported target type: only replication is supported",
      400,
    );
  }
  if (!body.endpoint || !body.targetbucket || !body.credentials?.accessKey || !body.credentials?.secretKey) {
    throw adminFail(
      "XMinioAdminInvalidArgument",
      "endpoint, target bucket and credentials are required",
      400,
    );
  }
  const bandwidth = Number(body.bandwidthlimit ?? 0);
  if (bandwidth !== 0 && bandwidth < 100 * 1000 * 1000) {
    throw adminFail(
      "XMinioAdminReplicationBandwidthLimitError",
      "Bandwidth limit for remote target must be at least 100MBps",
      400,
    );
  }
  const details = await ctx.store.bucketDetails(bucket);
  if (!details.versioning) {
    throw adminFail(
      "InvalidRequest",
      "Versioning must be 'Enabled' on the bucket to add a replication target",
      400,
    );
  }
  const endpoint = `${body.secure ? "https" : "http"}://${body.endpoint}`;
  if (body.endpoint === ctx.url.host && body.targetbucket === bucket) {
    throw adminFail(
      "XMinioAdminRemoteIdenticalToSource",
      "The remote target cannot be the same bucket on the same server",
      400,
    );
  }
  const existing = await readTargets(ctx, bucket);
  const same = existing.find((t) =>
    t.endpoint === body.endpoint && t.targetbucket === body.targetbucket &&
    t.credentials.accessKey === body.credentials!.accessKey
  );
  if (same && ctx.query.get("update") !== "true") return json(same.arn);
  // The remote must answer, with these credentials, for a versioned bucket.
  const remote = new S3Client({
    endpoint,
    region: body.region || body.omitempty || undefined,
    credentials: body.credentials,
    fetch: ctx.fetch,
  });
  try {
    if (!(await headBucket(remote, body.targetbucket))) {
      throw adminFail(
        "XMinioAdminRemoteTargetNotFoundError",
        `The remote bucket ${body.targetbucket} does not exist`,
        404,
      );
    }
    if ((await getBucketVersioning(remote, body.targetbucket)).status !== "Enabled") {
      throw adminFail(
        "XMinioAdminReplicationTargetNotVersionedError",
        "Versioning must be enabled on the remote bucket",
        400,
      );
    }
  } catch (error) {
    if (error instanceof S3Error) {
      throw adminFail(
        "XMinioAdminReplicationRemoteConnectionError",
        `Remote service endpoint ${body.endpoint} refused the request: ${error.code}`,
        503,
      );
    }
    if (error instanceof TypeError) {
      // fetch says "fetch failed"; why (a refused connection, a certificate no trusted CA signed) is its cause.
      const reason = error.cause instanceof Error ? error.cause.message : error.message;
      throw adminFail(
        "XMinioAdminReplicationRemoteConnectionError",
        `Remote service endpoint ${body.endpoint} not available: ${reason}`,
        503,
      );
    }
    throw error;
  }
  const target: BucketTargetDoc = {
    sourcebucket: bucket,
    endpoint: body.endpoint,
    credentials: { accessKey: body.credentials.accessKey, secretKey: body.credentials.secretKey },
    targetbucket: body.targetbucket,
    secure: !!body.secure,
    path: body.path ?? "",
    api: body.api ?? "s3v4",
    arn: same?.arn ??
      `arn:minio:replication:${ctx.config.region()}:${crypto.randomUUID()}:${body.targetbucket}`,
    type: "replication",
    region: body.region || body.omitempty || "",
    bandwidthlimit: bandwidth,
    replicationSync: !!body.replicationSync,
    storageclass: body.storageclass ?? "",
    healthCheckDuration: Number(body.healthCheckDuration ?? 60_000_000_000),
    isOnline: true,
  };
  await ctx.store.putBucketDocument(
    bucket,
    "targets.json",
    JSON.stringify([...existing.filter((t) => t.arn !== target.arn), target]),
  );
  return json(target.arn);
}

export async function removeRemoteTarget(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:SetBucketTarget");
  const bucket = requiredParam(ctx, "bucket");
  const arn = requiredParam(ctx, "arn");
  await requireBucket(ctx, bucket);
  const targets = await readTargets(ctx, bucket);
  if (!targets.some((t) => t.arn === arn)) {
    throw adminFail("XMinioAdminRemoteTargetNotFoundError", "The remote target does not exist", 404);
  }
  const replication = await ctx.store.getBucketDocument(bucket, "replication.xml");
  if (replication && parseReplicationXml(replication).rules.some((r) => r.destinationBucket === arn)) {
    throw adminFail(
      "XMinioAdminRemoteRemoveDisallowed",
      "Replication configuration exists with this ARN.",
      400,
    );
  }
  await ctx.store.putBucketDocument(
    bucket,
    "targets.json",
    JSON.stringify(targets.filter((t) => t.arn !== arn)),
  );
  return empty(204);
}
