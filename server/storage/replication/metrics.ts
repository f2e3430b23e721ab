/**
 * `GET /<bucket>?replication-metrics` (minio-protocol-2 §5.4): per target and in total, what is pending,
 * failed and completed, counted from the versions' statuses, plus what this bucket received as replicas.
 * Deck adds per target `replicatedCount`, `lastError` and `lastErrorTime`, and `replicaCount` in total, which
 * the console's bucket page shows.
 */
import { StoreError } from "../fs/store.ts";
import { bucketOf, type S3Request } from "../s3/context.ts";
import { replicatorOf } from "./queue.ts";
import { bucketReplication } from "./rules.ts";

interface Counts {
  pendingReplicationSize: number;
  completedReplicationSize: number;
  failedReplicationSize: number;
  replicaSize: number;
  pendingReplicationCount: number;
  failedReplicationCount: number;
  replicatedCount: number;
}

const zero = (): Counts => ({ pendingReplicationSize: 0, completedReplicationSize: 0, failedReplicationSize: 0, replicaSize: 0, pendingReplicationCount: 0, failedReplicationCount: 0, replicatedCount: 0 });

export async function getBucketReplicationMetrics(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const config = await bucketReplication(ctx.store, ctx.bucket);
  if (!config) throw new StoreError("ReplicationConfigurationNotFoundError", "The replication configuration was not found", 404);
  const perTarget = new Map<string, Counts>();
  const counts = (arn: string) => perTarget.get(arn) ?? perTarget.set(arn, zero()).get(arn)!;
  for (const arn of new Set(config.rules.map((r) => r.destinationBucket))) counts(arn);
  let replicaSize = 0, replicaCount = 0;
  for (const record of state.objects.values()) {
    for (const version of record.versions) {
      if (version.replica) {
        replicaSize += version.size;
        replicaCount++;
      }
      for (const [arn, status] of Object.entries(version.replication ?? {})) {
        const c = counts(arn);
        if (status === "PENDING") (c.pendingReplicationCount++, c.pendingReplicationSize += version.size);
        else if (status === "FAILED") (c.failedReplicationCount++, c.failedReplicationSize += version.size);
        else (c.replicatedCount++, c.completedReplicationSize += version.size);
      }
    }
  }
  const replicator = replicatorOf(ctx.store);
  for (const [arn, pending] of replicator?.pendingPurges(ctx.bucket) ?? []) counts(arn).pendingReplicationCount += pending;
  const total = zero();
  const Stats: Record<string, unknown> = {};
  for (const [arn, c] of perTarget) {
    for (const name of Object.keys(total) as (keyof Counts)[]) total[name] += c[name];
    const activity = replicator?.activity(arn);
    const limit = config.targets.find((t) => t.arn === arn)?.bandwidthlimit ?? 0;
    Stats[arn] = { ...c, replicaSize: 0, limitInBits: limit, currentBandwidth: 0, lastError: activity?.lastError ?? "", lastErrorTime: activity?.lastErrorTime ?? "" };
  }
  return Response.json({ ...(perTarget.size ? { Stats } : {}), ...total, replicaSize, replicaCount });
}
