/** Bucket replication configuration as typed rules, with XML conversion (minio-protocol §5.9). */
import type { S3Client } from "../client.ts";
import { buildXml, child, children, childText, parseXml } from "../xml.ts";
import { isNotConfigured } from "./buckets.ts";
import { filterXml, type Tag } from "./lifecycle.ts";

export interface ReplicationRule {
  id: string;
  status: "Enabled" | "Disabled";
  priority: number;
  prefix?: string;
  tags?: Tag[];
  /** Remote-target ARN (newer style) or arn:aws:s3:::bucket (legacy style with Role). */
  destinationBucket: string;
  storageClass?: string;
  deleteMarkerReplication: boolean;
  deleteReplication: boolean;
  replicaModifications: boolean;
  existingObjectReplication: boolean;
}

export interface ReplicationConfig {
  role: string;
  rules: ReplicationRule[];
}

const enabled = (node: ReturnType<typeof child>) => childText(node, "Status") === "Enabled";

export function parseReplicationXml(text: string): ReplicationConfig {
  const root = parseXml(text);
  return {
    role: childText(root, "Role") ?? "",
    rules: children(root, "Rule").map((rule) => {
      const filter = child(rule, "Filter");
      const scope = child(filter, "And") ?? filter;
      const tags = children(scope, "Tag").map((t) => ({
        key: childText(t, "Key") ?? "",
        value: childText(t, "Value") ?? "",
      }));
      const destination = child(rule, "Destination");
      return {
        id: childText(rule, "ID") ?? "",
        status: (childText(rule, "Status") ?? "") as ReplicationRule["status"],
        priority: Number(childText(rule, "Priority") ?? 0),
        prefix: (childText(scope, "Prefix") ?? childText(rule, "Prefix")) || undefined,
        tags: tags.length ? tags : undefined,
        destinationBucket: childText(destination, "Bucket") ?? "",
        storageClass: childText(destination, "StorageClass") || undefined,
        deleteMarkerReplication: enabled(child(rule, "DeleteMarkerReplication")),
        deleteReplication: enabled(child(rule, "DeleteReplication")),
        replicaModifications: enabled(child(child(rule, "SourceSelectionCriteria"), "ReplicaModifications")),
        existingObjectReplication: enabled(child(rule, "ExistingObjectReplication")),
      };
    }),
  };
}

const status = (on: boolean) => ({ Status: on ? "Enabled" : "Disabled" });

export function replicationXml(config: ReplicationConfig): string {
  return buildXml("ReplicationConfiguration", {
    Role: config.role,
    Rule: config.rules.map((r) => ({
      ID: r.id,
      Status: r.status,
      Priority: r.priority,
      DeleteMarkerReplication: status(r.deleteMarkerReplication),
      DeleteReplication: status(r.deleteReplication),
      Destination: { Bucket: r.destinationBucket, StorageClass: r.storageClass },
      Filter: filterXml(r.prefix, r.tags),
      SourceSelectionCriteria: { ReplicaModifications: status(r.replicaModifications) },
      ExistingObjectReplication: status(r.existingObjectReplication),
    })),
  });
}

/** Replication configuration; empty rules when none. */
export async function getBucketReplication(client: S3Client, bucket: string): Promise<ReplicationConfig> {
  try {
    return parseReplicationXml(await client.text({ method: "GET", bucket, query: { replication: "" } }));
  } catch (error) {
    if (isNotConfigured(error)) return { role: "", rules: [] };
    throw error;
  }
}

/** Replaces the replication configuration; no rules deletes it. */
export async function putBucketReplication(
  client: S3Client,
  bucket: string,
  config: ReplicationConfig,
): Promise<void> {
  if (config.rules.length === 0) {
    await client.empty({ method: "DELETE", bucket, query: { replication: "" } });
    return;
  }
  await client.empty({ method: "PUT", bucket, query: { replication: "" }, body: replicationXml(config) });
}

/** One target's (or the bucket's total) counts in the replication metrics (minio-protocol-2 §5.4). */
export interface ReplicationCounts {
  pendingReplicationSize?: number;
  completedReplicationSize?: number;
  failedReplicationSize?: number;
  replicaSize?: number;
  pendingReplicationCount?: number;
  failedReplicationCount?: number;
  /** Deck's embedded storage also reports these per target. */
  replicatedCount?: number;
  lastError?: string;
  lastErrorTime?: string;
}

export interface ReplicationMetrics extends ReplicationCounts {
  Stats?: Record<string, ReplicationCounts>;
}

/** `GET /<bucket>?replication-metrics`; null when the bucket has no replication configuration. */
export async function getReplicationMetrics(
  client: S3Client,
  bucket: string,
): Promise<ReplicationMetrics | null> {
  try {
    return JSON.parse(await client.text({ method: "GET", bucket, query: { "replication-metrics": "" } }));
  } catch (error) {
    if (isNotConfigured(error)) return null;
    throw error;
  }
}
