/**
 * A bucket's remote targets (minio-protocol §3.11), kept in its `targets.json` document: the admin API sets
 * and removes them (admin/bucket_admin.ts), replication sends to them.
 */
import type { StoreFacts } from "../core/contracts.ts";

/** One remote target as madmin sends and lists it. */
export interface BucketTargetDoc {
  sourcebucket: string;
  endpoint: string;
  credentials: { accessKey: string; secretKey: string };
  targetbucket: string;
  secure: boolean;
  path: string;
  api: string;
  arn: string;
  type: string;
  region: string;
  bandwidthlimit: number;
  replicationSync: boolean;
  storageclass: string;
  healthCheckDuration: number;
  isOnline?: boolean;
}

/** The bucket's remote targets (none when it has no document). */
export async function readTargets(
  ctx: { store: Pick<StoreFacts, "getBucketDocument"> },
  bucket: string,
): Promise<BucketTargetDoc[]> {
  const text = await ctx.store.getBucketDocument(bucket, "targets.json").catch(() => undefined);
  return text ? JSON.parse(text) : [];
}
