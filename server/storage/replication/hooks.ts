/**
 * What the S3 handlers call for replication, kept here so the handlers carry one marked line each.
 *
 * As a source: a write decides its per-target status (PENDING) before it commits, and is queued once
 * committed; in sync mode (a target's `replicationSync`) the answer waits for the first attempt. Deletes
 * are sent as the rules say: delete markers with DeleteMarkerReplication, removals of a version with
 * MinIO's DeleteReplication.
 *
 * As a target: a request from a replicating source (`x-amz-replication-status: REPLICA`, minio-protocol-2
 * §5.2) keeps the source's version id, mtime and ETag, and needs s3:ReplicateObject (s3:ReplicateDelete
 * for deletes). Replicas are not sent on.
 */
import type { Store } from "../fs/store.ts";
import { queueExisting } from "./existing.ts";
import { replicatorOf } from "./queue.ts";
import { bucketReplication, compositeStatus, matchingRules, pendingStatus } from "./rules.ts";
import { StoreError } from "../core/errors.ts";
import type { VersionRecord } from "../core/records.ts";

/** What replication reads of a request (the S3 front's request has all of it). */
export interface ReplicationRequest {
  request: Request;
  query: URLSearchParams;
  store: Store;
  bucket: string;
  key: string;
  /** Authorises a further action (s3:ReplicateObject for a replica's write). */
  allowed: (action: string, bucket: string, key: string) => boolean;
}

const VERSION_ID = /^(null|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Whether the request comes from a replicating source. */
export const isReplicaRequest = (ctx: ReplicationRequest) =>
  ctx.request.headers.get("x-amz-replication-status")?.toUpperCase() === "REPLICA";

function sourceTime(ctx: ReplicationRequest): Date | undefined {
  const text = ctx.request.headers.get("x-minio-source-mtime");
  if (!text) return undefined;
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) {
    throw new StoreError("InvalidArgument", "x-minio-source-mtime is not a valid time", 400);
  }
  return time;
}

function replicaVersionId(ctx: ReplicationRequest): string {
  const versionId = ctx.query.get("versionId") ?? "";
  if (!VERSION_ID.test(versionId)) {
    throw new StoreError("InvalidArgument", "Invalid version id specified", 400);
  }
  if (ctx.store.bucket(ctx.bucket).meta.versioning !== "Enabled") {
    throw new StoreError(
      "InvalidArgument",
      `VersionID specified ${versionId}, but versioning not enabled on bucket ${ctx.bucket}`,
      400,
    );
  }
  return versionId;
}

/** What a replicating source's PUT keeps of its version: its id, its mtime (else now) and its ETag. */
export interface ReplicaWrite {
  versionId: string;
  replica: true;
  now?: Date;
  etag?: string;
}

/** Target side of a PUT: the replica's version id, mtime and ETag (undefined for an ordinary write). */
export function replicaWriteOptions(ctx: ReplicationRequest): ReplicaWrite | undefined {
  // A version id on an ordinary PUT is ignored, as before: only a replicating source chooses it.
  if (!isReplicaRequest(ctx)) return undefined;
  if (!ctx.allowed("s3:ReplicateObject", ctx.bucket, ctx.key)) {
    throw new StoreError("AccessDenied", "Access Denied.", 403);
  }
  const etag = ctx.request.headers.get("x-minio-source-etag")?.replace(/"/g, "");
  return {
    versionId: replicaVersionId(ctx),
    replica: true,
    now: sourceTime(ctx),
    ...(etag && /^[0-9a-f]{32}(-\d+)?$/.test(etag) ? { etag } : {}),
  };
}

/** Target side of a DELETE: a replicated delete marker is created with the source's version id and mtime. */
export function replicaDeleteOptions(ctx: ReplicationRequest): { replicaMarker?: boolean; now?: Date } {
  if (!isReplicaRequest(ctx)) return {};
  if (!ctx.allowed("s3:ReplicateDelete", ctx.bucket, ctx.key)) {
    throw new StoreError("AccessDenied", "Access Denied.", 403);
  }
  if (ctx.request.headers.get("x-minio-source-deletemarker") !== "true") return {};
  replicaVersionId(ctx);
  return { replicaMarker: true, now: sourceTime(ctx) };
}

/** Source side, before a write commits: the status the new version starts with (undefined: not replicated). */
export async function replicationOnWrite(
  ctx: ReplicationRequest,
  key: string,
  tags: Record<string, string> | undefined,
): Promise<VersionRecord["replication"]> {
  if (isReplicaRequest(ctx)) return undefined;
  // SSE-C: the server cannot read the object without the customer's key, so it is not queued (docs/notes.md).
  if (ctx.request.headers.has("x-amz-server-side-encryption-customer-algorithm")) return undefined;
  const config = await bucketReplication(ctx.store, ctx.bucket);
  return config ? pendingStatus(matchingRules(config, key, tags)) : undefined;
}

/** Source side, once committed: queues the version; in sync mode waits for the first attempt to finish. */
export async function replicateAfterWrite(
  ctx: ReplicationRequest,
  key: string,
  version: VersionRecord,
): Promise<void> {
  const arns = Object.entries(version.replication ?? {}).filter(([, status]) => status === "PENDING").map((
    [arn],
  ) => arn);
  const replicator = replicatorOf(ctx.store);
  if (arns.length === 0 || !replicator) return;
  const sent = replicator.sendVersion(ctx.bucket, key, version.versionId, arns);
  const config = await bucketReplication(ctx.store, ctx.bucket);
  if (config?.targets.some((t) => arns.includes(t.arn) && t.replicationSync)) await sent;
}

/** Source side, before a delete: what a new delete marker starts with (rules with DeleteMarkerReplication). */
export async function replicationOnDelete(
  ctx: ReplicationRequest,
  key: string,
  versionId: string | undefined,
): Promise<VersionRecord["replication"]> {
  if (versionId || isReplicaRequest(ctx)) return undefined;
  const config = await bucketReplication(ctx.store, ctx.bucket);
  if (!config) return undefined;
  const latest = ctx.store.bucket(ctx.bucket).objects.get(key)?.versions[0];
  const rules = matchingRules(config, key, latest?.tags);
  for (const [arn, rule] of rules) if (!rule.deleteMarkerReplication) rules.delete(arn);
  return pendingStatus(rules);
}

/** Source side, after a delete: sends the new delete marker, or the removal of a version (DeleteReplication). */
export async function replicateAfterDelete(
  ctx: ReplicationRequest,
  key: string,
  requested: string | undefined,
  outcome: { versionId?: string; deleteMarker: boolean },
  marker: VersionRecord["replication"],
): Promise<void> {
  const replicator = replicatorOf(ctx.store);
  if (!replicator || isReplicaRequest(ctx)) return;
  if (!requested) {
    if (outcome.deleteMarker && outcome.versionId && marker) {
      await replicateAfterWrite(
        ctx,
        key,
        { versionId: outcome.versionId, replication: marker } as VersionRecord,
      );
    }
    return;
  }
  const config = await bucketReplication(ctx.store, ctx.bucket);
  if (!config) return;
  const arns = [...matchingRules(config, key, undefined).entries()].filter(([, rule]) =>
    rule.deleteReplication && !rule.tags?.length
  ).map(([arn]) => arn);
  // Rules with a tag filter: the removed version's tags are gone, so any rule for the key's prefix counts.
  for (const rule of config.rules) {
    if (
      rule.status === "Enabled" && rule.deleteReplication && rule.tags?.length &&
      (!rule.prefix || key.startsWith(rule.prefix)) && !arns.includes(rule.destinationBucket)
    ) arns.push(rule.destinationBucket);
  }
  if (arns.length === 0) return;
  const sent = replicator.sendPurge(ctx.bucket, key, requested, arns);
  if (config.targets.some((t) => arns.includes(t.arn) && t.replicationSync)) await sent;
}

/** `x-amz-replication-status` of a version on GET/HEAD: REPLICA on a target, the composite on a source. */
export function replicationStatusHeader(version: VersionRecord): Record<string, string> {
  if (version.replica) return { "x-amz-replication-status": "REPLICA" };
  const status = compositeStatus(version.replication);
  return status ? { "x-amz-replication-status": status } : {};
}

/** After a replication configuration is stored: rules with ExistingObjectReplication queue what is there. */
export function replicateExistingObjects(ctx: ReplicationRequest): void {
  const replicator = replicatorOf(ctx.store);
  if (replicator) queueExisting(ctx.store, replicator, ctx.bucket).catch(() => {});
}

/**
 * Source side, before a metadata change (tags, retention, legal hold) of a version: the targets it goes to
 * again (the tags it will have decide; "unchanged" for the version's own). A
 * replica's change goes only where the rule has ReplicaModifications (two-way setups).
 */
export async function replicationOnMetadata(
  ctx: ReplicationRequest,
  key: string,
  tags: Record<string, string> | undefined | "unchanged",
): Promise<(version: VersionRecord) => VersionRecord["replication"]> {
  const config = isReplicaRequest(ctx) ? null : await bucketReplication(ctx.store, ctx.bucket);
  return (version) => {
    if (!config) return version.replication;
    const rules = matchingRules(config, key, tags === "unchanged" ? version.tags : tags);
    for (const [arn, rule] of rules) {
      if ((version.replica && !rule.replicaModifications) || version.deleteMarker) rules.delete(arn);
    }
    return rules.size ? { ...version.replication, ...pendingStatus(rules) } : version.replication;
  };
}
