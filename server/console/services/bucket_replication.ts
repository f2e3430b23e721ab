/**
 * Bucket replication (spec 2 Replication, Set Bucket Replication, the multi-bucket wizard): rules as the table
 * shows them, per-bucket setup (remote target, then a rule pointing at its ARN) reported bucket by bucket, rule
 * deletion, and listing a remote server's buckets for the wizard.
 */
import type {
  ListExternalBucketsInput,
  MultiReplicationInput,
  ReplicationResult,
  ReplicationRuleView,
  ReplicationStatusView,
} from "../../lib/contract/buckets.ts";
import { tagKeysProblem } from "../../lib/contract/buckets.ts";
import { ApiError, toApiError } from "../http/errors.ts";
import { listRemoteTargets, setRemoteTarget } from "../../lib/s3/admin/buckets.ts";
import { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { parseRemoteTarget } from "../../lib/contract/remote_target.ts";
import { listBuckets } from "../../lib/s3/ops/buckets.ts";
import type { Tag } from "../../lib/s3/ops/lifecycle.ts";
import {
  getBucketReplication,
  getReplicationMetrics,
  putBucketReplication,
} from "../../lib/s3/ops/replication.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

/** "k1=v1&k2=v2" → tags; pairs missing a key or value are dropped (spec 2 tag editor rule). */
export function parseTagString(text: string): Tag[] {
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part).trim();
    } catch {
      throw ApiError.badRequest(
        t("buckets.error.invalidTags"),
        t("buckets.replication.invalidTag", { tag: part }),
      );
    }
  };
  const tags = text.split("&").map((pair) => {
    const at = pair.indexOf("=");
    return at < 0
      ? { key: "", value: "" }
      : { key: decode(pair.slice(0, at)), value: decode(pair.slice(at + 1)) };
  }).filter((t) => t.key && t.value);
  const problem = tagKeysProblem(tags.map((t) => t.key));
  if (problem) throw ApiError.badRequest(problem);
  return tags;
}

export const tagString = (tags: Tag[] | undefined) =>
  (tags ?? []).map((t) => `${encodeURIComponent(t.key)}=${encodeURIComponent(t.value)}`).join("&");

export async function listReplicationRules(
  client: S3Client,
  bucket: string,
): Promise<{ rules: ReplicationRuleView[] }> {
  const [config, targets] = await Promise.all([
    getBucketReplication(client, bucket),
    listRemoteTargets(client, bucket).catch(() => []),
  ]);
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

/**
 * How far replication has got (MinIO's bucket replication metrics): counts summed over the targets, and the
 * most recent error any of them reported; null when the bucket has no replication configuration.
 */
export async function replicationStatus(
  client: S3Client,
  bucket: string,
): Promise<ReplicationStatusView | null> {
  const metrics = await getReplicationMetrics(client, bucket);
  if (!metrics) return null;
  const targets = Object.values(metrics.Stats ?? {});
  const latest =
    targets.filter((t) => t.lastError).sort((a, b) =>
      (b.lastErrorTime ?? "").localeCompare(a.lastErrorTime ?? "")
    )[0];
  return {
    replicated: targets.reduce((n, t) => n + (t.replicatedCount ?? 0), 0),
    replicatedBytes: metrics.completedReplicationSize ?? 0,
    pending: metrics.pendingReplicationCount ?? 0,
    failed: metrics.failedReplicationCount ?? 0,
    lastError: latest?.lastError ?? "",
    lastErrorTime: latest?.lastErrorTime ?? "",
  };
}

/** The replication status, or none when denied: the rules, read with the same permission, say so already. */
export const replicationStatusIfAllowed = (client: S3Client, bucket: string) =>
  replicationStatus(client, bucket).catch((e) => (toApiError(e).status === 403 ? null : Promise.reject(e)));

export async function deleteReplicationRule(client: S3Client, bucket: string, ruleId: string): Promise<void> {
  const config = await getBucketReplication(client, bucket);
  const rules = config.rules.filter((r) => r.id !== ruleId);
  if (rules.length === config.rules.length) {
    throw ApiError.notFound("not found", t("buckets.replication.noSuchRule", { rule: ruleId }));
  }
  await putBucketReplication(client, bucket, { ...config, rules });
}

/** The form's target as host[:port] and whether it uses TLS (an explicit scheme wins); 400 unless host:port. */
function parseTarget(targetURL: string, defaultSecure = true): { endpoint: string; secure: boolean } {
  const target = parseRemoteTarget(targetURL);
  if ("problem" in target) {
    const problem = target.problem === "notHostPort"
      ? t("buckets.replication.targetInvalid")
      : t("buckets.replication.portInvalid");
    throw new ApiError(400, t("buckets.error.invalidTarget"), {
      detail: problem,
      fields: { targetURL: problem },
    });
  }
  return { endpoint: target.host, secure: target.secure ?? defaultSecure };
}

async function replicateOne(
  client: S3Client,
  input: MultiReplicationInput,
  origin: string,
  destination: string,
): Promise<void> {
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
export async function setMultiBucketReplication(
  client: S3Client,
  input: MultiReplicationInput,
): Promise<ReplicationResult> {
  parseTarget(input.targetURL); // refused before any bucket is changed
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

/** Reads at most this much of a remote server's answer: a bucket list is small, and the server is anyone's. */
const REMOTE_ANSWER_LIMIT = 4 * 1024 * 1024;
const REMOTE_TIMEOUT_MS = 15_000;

/** fetch with a deadline whose response bodies fail past `limit` bytes, so a remote cannot fill our memory. */
function boundedFetch(fetcher: typeof fetch, limit: number, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const res = await fetcher(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.body) return res;
    let seen = 0;
    const capped = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > limit) controller.error(new Error(`the answer is larger than ${limit} bytes`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(capped, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/**
 * Why listing failed, in our words: the remote's error code and status at most, never its body (the target is
 * whatever the user typed, and its answer is not ours to relay).
 */
function remoteFailure(error: unknown, host: string): string {
  if (error instanceof S3Error) {
    if (error.code === "InvalidAccessKeyId" || error.code === "SignatureDoesNotMatch") {
      return t("buckets.remote.refusedKeys", { host, code: error.code });
    }
    if (error.code === "AccessDenied") {
      return t("buckets.remote.denied", { host });
    }
    if (/^[A-Za-z0-9]{1,64}$/.test(error.code) && !error.code.startsWith("HTTP")) {
      return t("buckets.remote.answered", { host, code: error.code, status: String(error.status) });
    }
    return t("buckets.remote.notS3", { host, status: String(error.status) });
  }
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError") {
    return t("buckets.remote.timeout", { host, seconds: String(REMOTE_TIMEOUT_MS / 1000) });
  }
  if (error instanceof Error && /larger than/.test(error.message)) {
    return t("buckets.remote.tooLarge", { host, limit: String(REMOTE_ANSWER_LIMIT) });
  }
  return t("buckets.remote.unreachable", { host });
}

/** The remote server's buckets, listed with the credentials the wizard's first step collected. */
export async function listExternalBuckets(
  deps: { fetch: typeof fetch },
  input: ListExternalBucketsInput,
): Promise<{ buckets: { name: string }[]; total: number }> {
  const { endpoint, secure } = parseTarget(input.targetURL, input.useTLS);
  const remote = new S3Client({
    endpoint: `${secure ? "https" : "http"}://${endpoint}`,
    region: input.region || undefined,
    credentials: { accessKey: input.accessKey, secretKey: input.secretKey },
    fetch: boundedFetch(deps.fetch, REMOTE_ANSWER_LIMIT, REMOTE_TIMEOUT_MS),
  });
  try {
    const buckets = (await listBuckets(remote)).map((b) => ({ name: b.name }));
    return { buckets, total: buckets.length };
  } catch (error) {
    throw new ApiError(400, t("buckets.error.remoteList"), {
      detail: remoteFailure(error, endpoint),
    });
  }
}
