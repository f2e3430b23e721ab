/**
 * ExistingObjectReplication: when a rule asks for it, versions written before the rule (or before their
 * target was added) are marked PENDING for its target and queued, as new writes are. Runs when a replication
 * configuration is stored and again at every start, so a stop part-way through is finished later; versions
 * with a status for the target already (sent, or on their way) are left alone.
 */
import type { Store } from "../fs/store.ts";
import { bucketReplication, matchingRules } from "./rules.ts";
import { changeStatus } from "./status.ts";

/** What queueing existing versions asks of the replicator (queue.ts). */
export interface VersionSender {
  sendVersion(bucket: string, key: string, versionId: string, arns: string[]): Promise<void>;
}

export async function queueExisting(store: Store, replicator: VersionSender, bucket: string): Promise<void> {
  const config = await bucketReplication(store, bucket);
  const rules = config?.rules.filter((r) => r.status === "Enabled" && r.existingObjectReplication) ?? [];
  const state = store.buckets.get(bucket);
  if (!config || !state || rules.length === 0) return;
  for (const record of [...state.objects.values()]) {
    for (const version of record.versions) {
      if (version.replica) continue;
      const arns = [...matchingRules({ ...config, rules }, record.key, version.tags)]
        .filter(([arn, rule]) =>
          !(arn in (version.replication ?? {})) && (!version.deleteMarker || rule.deleteMarkerReplication)
        )
        .map(([arn]) => arn);
      if (arns.length === 0) continue;
      await changeStatus(store, bucket, record.key, version.versionId, (statuses) => {
        const missing = arns.filter((arn) => !(arn in statuses));
        return missing.length
          ? { ...statuses, ...Object.fromEntries(missing.map((arn) => [arn, "PENDING" as const])) }
          : null;
      });
      replicator.sendVersion(bucket, record.key, version.versionId, arns);
    }
  }
}
