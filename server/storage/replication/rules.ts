/**
 * Which remote targets a version goes to: the bucket's replication rules (minio-protocol §5.9) matched against
 * key and tags, each rule's destination ARN resolved to the remote target set through the admin API (§3.11).
 * Among the rules naming one ARN, the enabled matching rule with the highest priority decides.
 */
import { parseReplicationXml, type ReplicationRule } from "../../lib/s3/ops/replication.ts";
import type { Store } from "../fs/store.ts";
import type { BucketTargetDoc } from "./targets.ts";

export type ReplicationStatus = "PENDING" | "COMPLETED" | "FAILED";

export interface BucketReplication {
  rules: ReplicationRule[];
  targets: BucketTargetDoc[];
}

/** Parsed configurations by their documents' text (the store keeps the texts; every write asks here). */
const parsed = new Map<string, BucketReplication>();

/** The bucket's rules and remote targets; none when the bucket has no replication configuration. */
export async function bucketReplication(store: Store, bucket: string): Promise<BucketReplication | null> {
  if (!store.buckets.has(bucket)) return null;
  const xml = await store.getDocument(bucket, "replication.xml");
  if (!xml) return null;
  const targets = (await store.getDocument(bucket, "targets.json")) ?? "[]";
  const cacheKey = `${xml}\0${targets}`;
  let config = parsed.get(cacheKey);
  if (!config) {
    if (parsed.size > 1000) parsed.clear();
    parsed.set(cacheKey, config = { rules: parseReplicationXml(xml).rules, targets: JSON.parse(targets) });
  }
  return config;
}

/** The rule deciding for each ARN that an enabled rule matching `key` and `tags` names, by ARN. */
export function matchingRules(
  config: BucketReplication,
  key: string,
  tags: Record<string, string> | undefined,
): Map<string, ReplicationRule> {
  const chosen = new Map<string, ReplicationRule>();
  const ordered = [...config.rules].sort((a, b) => b.priority - a.priority);
  for (const rule of ordered) {
    if (rule.status !== "Enabled" || chosen.has(rule.destinationBucket)) continue;
    if (rule.prefix && !key.startsWith(rule.prefix)) continue;
    if (rule.tags?.some((t) => tags?.[t.key] !== t.value)) continue;
    if (!config.targets.some((t) => t.arn === rule.destinationBucket)) continue;
    chosen.set(rule.destinationBucket, rule);
  }
  return chosen;
}

/** What a new version starts with: PENDING for each target a rule sends it to; undefined for none. */
export function pendingStatus(
  rules: Map<string, ReplicationRule>,
): Record<string, ReplicationStatus> | undefined {
  if (rules.size === 0) return undefined;
  return Object.fromEntries([...rules.keys()].map((arn) => [arn, "PENDING" as const]));
}

/** S3's one status for a version from its per-target ones: any FAILED, all COMPLETED, else PENDING (§5.1). */
export function compositeStatus(
  statuses: Record<string, ReplicationStatus> | undefined,
): ReplicationStatus | undefined {
  const values = Object.values(statuses ?? {});
  if (values.length === 0) return undefined;
  if (values.includes("FAILED")) return "FAILED";
  return values.every((v) => v === "COMPLETED") ? "COMPLETED" : "PENDING";
}
