/**
 * Bucket replication (spec 2 Replication, Set Bucket Replication, the multi-bucket wizard): rules as the table
 * shows them, per-bucket setup (remote target, then a rule pointing at its ARN) reported bucket by bucket, rule
 * deletion, and listing a remote server's buckets for the wizard.
 */
import type { ListExternalBucketsInput, MultiReplicationInput, ReplicationResult, ReplicationRuleView } from "../contract/buckets.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { listRemoteTargets, setRemoteTarget } from "../s3/admin/buckets.ts";
import { S3Client } from "../s3/client.ts";
import { listBuckets } from "../s3/ops/buckets.ts";
import type { Tag } from "../s3/ops/lifecycle.ts";
import { getBucketReplication, putBucketReplication } from "../s3/ops/replication.ts";

/** "k1=v1&k2=v2" → tags; pairs missing a key or value are dropped (spec 2 tag editor rule). */
export function parseTagString(text: string): Tag[] {
  return text.split("&").map((pair) => {
    const at = pair.indexOf("=");
    return at < 0 ? { key: "", value: "" } : { key: decodeURIComponent(pair.slice(0, at)).trim(), value: decodeURIComponent(pair.slice(at + 1)).trim() };
  }).filter((t) => t.key && t.value);
}

export const tagString = (tags: Tag[] | undefined) => (tags ?? []).map((t) => `${encodeURIComponent(t.key)}=${encodeURIComponent(t.value)}`).join("&");

export async function listReplicationRules(client: S3Client, bucket: string): Promise<{ rules: ReplicationRuleView[] }> {
  const [config, targets] = await Promise.all([getBucketReplication(client, bucket), listRemoteTargets(client, bucket).catch(() => [])]);
  const rules = config.rules.map((r): ReplicationRuleView => {
    const target = targets.find((t) => t.arn === r.destinationBucket);
    return {
      id: r.id,
      status: r.status,
      priority: r.priority,
      syncMode: target?.replicationSync ? "sync" : "async",
      bandwidth: target?.bandwidthlimit ?? 0,
      healthCheckPeriod: Math.round((target?.healthCheckDuration ?? 0) / 1e9),
      delete_marker_replication: r.deleteMarkerReplication,
      deletes_replication: r.deleteReplication,
      metadata_replication: r.replicaModifications,
      prefix: r.prefix ?? "",
      tags: tagString(r.tags),
      destination: { bucket: target ? `arn:aws:s3:::${target.targetbucket}` : r.destinationBucket },
    };
  }).sort((a, b) => a.priority - b.priority);
  return { rules };
}

export async function deleteReplicationRule(client: S3Client, bucket: string, ruleId: string): Promise<void> {
  const config = await getBucketReplication(client, bucket);
  const rules = config.rules.filter((r) => r.id !== ruleId);
  if (rules.length === config.rules.length) throw ApiError.notFound("not found", `No replication rule ${ruleId}.`);
  await putBucketReplication(client, bucket, { ...config, rules });
}

/** Splits the form's target URL into host[:port] and whether it uses TLS (an explicit scheme wins). */
function parseTarget(targetURL: string): { endpoint: string; secure: boolean } {
  const match = /^(https?):\/\/(.+?)\/?$/.exec(targetURL.trim());
  if (match) return { endpoint: match[2], secure: match[1] === "https" };
  return { endpoint: targetURL.trim().replace(/\/$/, ""), secure: true };
}

async function replicateOne(client: S3Client, input: MultiReplicationInput, origin: string, destination: string): Promise<void> {
  const { endpoint, secure } = parseTarget(input.targetURL);
  const sync = input.syncMode === "sync";
  const arn = await setRemoteTarget(client, origin, {
    sourcebucket: origin,
    endpoint,
    secure,
    credentials: { accessKey: input.accessKey, secretKey: input.secretKey },
    targetbucket: destination,
    type: "replication",
    region: input.region || undefined,
    replicationSync: sync,
    bandwidthlimit: sync ? 0 : Math.round(input.bandwidth ?? 0),
    healthCheckDuration: (input.healthCheckPeriod ?? 60) * 1e9,
  });
  const config = await getBucketReplication(client, origin);
  const priority = config.rules.reduce((max, r) => Math.max(max, r.priority), 0) + 1;
  config.rules.push({
    id: crypto.randomUUID().replace(/-/g, "").slice(0, 20),
    status: "Enabled",
    priority,
    prefix: input.prefix || undefined,
    tags: parseTagString(input.tags ?? ""),
    destinationBucket: arn,
    deleteMarkerReplication: input.replicateDeleteMarkers ?? true,
    deleteReplication: input.replicateDeletes ?? true,
    replicaModifications: input.replicateMetadata ?? true,
    existingObjectReplication: false,
  });
  await putBucketReplication(client, origin, config);
}

/** Sets up replication for each bucket pair; each pair's outcome is reported, none stops the others. */
export async function setMultiBucketReplication(client: S3Client, input: MultiReplicationInput): Promise<ReplicationResult> {
  const replicationState = [];
  for (const { originBucket, destinationBucket } of input.bucketsRelation) {
    let errorString = "";
    try {
      await replicateOne(client, input, originBucket, destinationBucket);
    } catch (error) {
      errorString = error instanceof Error ? error.message : String(error);
    }
    replicationState.push({ originBucket, targetBucket: destinationBucket, errorString });
  }
  return { replicationState };
}

/** The remote server's buckets, listed with the credentials the wizard's first step collected. */
export async function listExternalBuckets(deps: Pick<AppDeps, "fetch">, input: ListExternalBucketsInput): Promise<{ buckets: { name: string }[]; total: number }> {
  const host = input.targetURL.trim().replace(/^https?:\/\//, "").replace(/\/$/, "");
  const remote = new S3Client({
    endpoint: `${input.useTLS ? "https" : "http"}://${host}`,
    region: input.region || undefined,
    credentials: { accessKey: input.accessKey, secretKey: input.secretKey },
    fetch: deps.fetch,
  });
  try {
    const buckets = (await listBuckets(remote)).map((b) => ({ name: b.name }));
    return { buckets, total: buckets.length };
  } catch (error) {
    throw new ApiError(400, "the remote server's buckets could not be listed", { detail: error instanceof Error ? error.message : String(error) });
  }
}
