/**
 * What the replication tests share: the root both servers are started with, a client for either, a versioned
 * bucket, a remote target with a rule sending to it, and the statuses and versions to check.
 */
import { setRemoteTarget } from "../../server/lib/s3/admin/buckets.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { putBucketVersioning } from "../../server/lib/s3/ops/bucket_config.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { headObject, listObjectVersions } from "../../server/lib/s3/ops/objects.ts";
import {
  getBucketReplication,
  putBucketReplication,
  type ReplicationRule,
} from "../../server/lib/s3/ops/replication.ts";

export const ROOT = { accessKey: "replication-root", secretKey: "replication-secret-key" };

export const client = (url: string) => new S3Client({ endpoint: url, credentials: ROOT });

export async function versionedBucket(c: S3Client, name: string): Promise<void> {
  await makeBucket(c, name);
  await putBucketVersioning(c, name, { status: "Enabled" });
}

/** A remote target on `source` for `targetBucket` at `targetUrl`, and a rule sending to it. */
export async function addRule(
  source: S3Client,
  bucket: string,
  targetUrl: string,
  targetBucket: string,
  rule: Partial<ReplicationRule>,
  sync = false,
): Promise<string> {
  const arn = await setRemoteTarget(source, bucket, {
    sourcebucket: bucket,
    endpoint: new URL(targetUrl).host,
    secure: new URL(targetUrl).protocol === "https:",
    credentials: ROOT,
    targetbucket: targetBucket,
    type: "replication",
    replicationSync: sync,
    bandwidthlimit: 0,
  });
  const config = await getBucketReplication(source, bucket);
  config.rules.push({
    id: `rule-${config.rules.length + 1}`,
    status: "Enabled",
    priority: config.rules.length + 1,
    destinationBucket: arn,
    deleteMarkerReplication: true,
    deleteReplication: true,
    replicaModifications: true,
    existingObjectReplication: false,
    ...rule,
  });
  await putBucketReplication(source, bucket, config);
  return arn;
}

export const statusOf = async (c: S3Client, bucket: string, key: string, versionId?: string) =>
  (await headObject(c, bucket, key, { versionId })).headers.get("x-amz-replication-status");
export const versionsOf = async (c: S3Client, bucket: string, key: string) =>
  (await listObjectVersions(c, bucket, { prefix: key })).versions.filter((v) => v.key === key);
