/**
 * `GET /<bucket>?replication-metrics` (minio-protocol-2 §5.4): per target and in total, what is pending,
 * failed and completed, counted from the versions' statuses, plus what this bucket received as replicas.
 * Deck adds per target `replicatedCount`, `lastError` and `lastErrorTime` (the console's bucket page shows
 * them) and `latencyMs` (p50/p99 from queueing to the target's answer over recent versions, all buckets of
 * this server), and `replicaCount` in total.
 */
import type { Store } from "../fs/store.ts";
import { replicatorOf } from "./queue.ts";
import { bucketReplication } from "./rules.ts";
import { StoreError } from "../core/errors.ts";

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

interface Counts {
  pendingReplicationSize: number;
  completedReplicationSize: number;
  failedReplicationSize: number;
  replicaSize: number;
  pendingReplicationCount: number;
  failedReplicationCount: number;
  replicatedCount: number;
}

const zero = (): Counts => ({
  pendingReplicationSize: 0,
  completedReplicationSize: 0,
  failedReplicationSize: 0,
  replicaSize: 0,
  pendingReplicationCount: 0,
  failedReplicationCount: 0,
  replicatedCount: 0,
});

export async function getBucketReplicationMetrics(ctx: { store: Store; bucket: string }): Promise<Response> {
  const state = ctx.store.bucket(ctx.bucket);
  const config = await bucketReplication(ctx.store, ctx.bucket);
  if (!config) {
    throw new StoreError(
      "ReplicationConfigurationNotFoundError",
      "The replication configuration was not found",
      404,
    );
  }
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
  for (const [arn, pending] of replicator?.pendingPurges(ctx.bucket) ?? []) {
    counts(arn).pendingReplicationCount += pending;
  }
  const total = zero();
  const Stats: Record<string, unknown> = {};
  for (const [arn, c] of perTarget) {
    for (const name of Object.keys(total) as (keyof Counts)[]) total[name] += c[name];
    const activity = replicator?.activity(arn);
    const limit = config.targets.find((t) => t.arn === arn)?.bandwidthlimit ?? 0;
    const latencies = [...(activity?.latencies ?? [])].sort((a, b) => a - b);
    Stats[arn] = {
      ...c,
      replicaSize: 0,
      limitInBits: limit,
      currentBandwidth: 0,
      lastError: activity?.lastError ?? "",
      lastErrorTime: activity?.lastErrorTime ?? "",
      latencyMs: {
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        samples: latencies.length,
      },
    };
  }
  return Response.json({ ...(perTarget.size ? { Stats } : {}), ...total, replicaSize, replicaCount });
}
