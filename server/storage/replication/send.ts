/**
 * The requests a replicating source sends its target (minio-protocol-2 §5.2–5.3), through the project's
 * SigV4 client: a version as a PUT keeping its version id, mtime and ETag; a delete marker as a DELETE that
 * creates the same marker there; a version's removal as a DELETE of that version. The bytes are read through
 * the store's normal read path, so they go as the client wrote them. Requests whose body is in memory go out
 * through the send thread (send_thread.ts); larger versions stream from this one.
 */
import { S3Client } from "../../lib/s3/client.ts";
import type { ReplicationRule } from "../../lib/s3/ops/replication.ts";
import { sseResponseHeaders as sseRequestHeaders } from "../sse/request.ts";
import { serverDecryptor } from "../sse/stored.ts";
import type { Store } from "../fs/store.ts";
import type { BandwidthLimit } from "./bandwidth.ts";
import type { SendThread } from "./send_thread.ts";
import type { VersionRecord } from "../core/records.ts";
import type { BucketTargetDoc } from "./targets.ts";
import { readVersion } from "../fs/read.ts";

/** Bodies up to this size are read whole and sent signed on a kept-alive connection; larger ones stream. */
const WHOLE_BODY_LIMIT = 1024 * 1024;

export const REPLICA_HEADERS = {
  "x-amz-replication-status": "REPLICA",
  "x-minio-source-replication-request": "true",
};

/** The target's client; `fetch` trusts the certificate directory's CAs besides the system's. */
export function targetClient(target: BucketTargetDoc, fetch: typeof globalThis.fetch): S3Client {
  return new S3Client({
    endpoint: `${target.secure ? "https" : "http"}://${target.endpoint}`,
    region: target.region || undefined,
    credentials: { accessKey: target.credentials.accessKey, secretKey: target.credentials.secretKey },
    fetch,
  });
}

/** Request headers describing a version: metadata, tags, lock, storage class, and the replica markers. */
function versionHeaders(version: VersionRecord, rule: ReplicationRule | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    ...REPLICA_HEADERS,
    "content-type": version.contentType ?? "application/octet-stream",
    "x-minio-source-mtime": version.lastModified,
    "x-minio-source-etag": version.etag,
    ...(version.headers ?? {}),
  };
  for (const [name, value] of Object.entries(version.userMetadata)) headers[`x-amz-meta-${name}`] = value;
  if (version.tags && Object.keys(version.tags).length) {
    headers["x-amz-tagging"] = new URLSearchParams(version.tags).toString();
  }
  if (version.retention) {
    headers["x-amz-object-lock-mode"] = version.retention.mode;
    headers["x-amz-object-lock-retain-until-date"] = version.retention.until;
  }
  if (version.legalHold !== undefined) {
    headers["x-amz-object-lock-legal-hold"] = version.legalHold ? "ON" : "OFF";
  }
  const storageClass = rule?.storageClass || version.storageClass;
  if (storageClass) headers["x-amz-storage-class"] = storageClass;
  return headers;
}

async function readAllBytes(
  stream: ReadableStream<Uint8Array>,
  size: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(size);
  let at = 0;
  for await (const chunk of stream) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Sends one version (or delete marker) to the target bucket; resolves with the bytes sent. */
export async function sendVersion(
  store: Store,
  client: S3Client,
  sends: SendThread,
  target: BucketTargetDoc,
  bucket: string,
  key: string,
  version: VersionRecord,
  rule: ReplicationRule | undefined,
  limit: BandwidthLimit,
  signal: AbortSignal,
): Promise<number> {
  if (version.deleteMarker) {
    await sends.send(client, {
      method: "DELETE",
      bucket: target.targetbucket,
      key,
      query: { versionId: version.versionId },
      headers: {
        ...REPLICA_HEADERS,
        "x-minio-source-deletemarker": "true",
        "x-minio-source-mtime": version.lastModified,
      },
    }, signal);
    return 0;
  }
  // SSE-S3/KMS versions go out decrypted, with the same encryption asked of the target (which seals them with
  // its own key store); SSE-C versions only their customer's key opens, so the embedded storage cannot send them.
  if (version.sse?.type === "SSE-C") {
    throw new Error(
      "SSE-C objects are not replicated by the embedded storage (only the customer's key opens them)",
    );
  }
  const headers = { ...versionHeaders(version, rule), ...sseRequestHeaders(version.sse) };
  const stream = await readVersion(
    store,
    bucket,
    key,
    version,
    0,
    version.size,
    await serverDecryptor(store, bucket, key, version),
  );
  const query = { versionId: version.versionId };
  if (version.size <= WHOLE_BODY_LIMIT) {
    const bytes = await readAllBytes(stream, version.size);
    await limit.take(bytes.length);
    await sends.send(
      client,
      { method: "PUT", bucket: target.targetbucket, key, query, headers, body: bytes },
      signal,
    );
  } else {
    await client.empty({
      method: "PUT",
      bucket: target.targetbucket,
      key,
      query,
      headers,
      body: limit.throttle(stream),
      contentLength: version.size,
      unsignedPayload: true,
      signal,
    });
  }
  return version.size;
}

/** Removes one version on the target (a replicated versioned delete, MinIO's DeleteReplication). */
export async function sendPurge(
  client: S3Client,
  sends: SendThread,
  target: BucketTargetDoc,
  key: string,
  versionId: string,
  signal: AbortSignal,
): Promise<void> {
  await sends.send(client, {
    method: "DELETE",
    bucket: target.targetbucket,
    key,
    query: { versionId },
    headers: REPLICA_HEADERS,
  }, signal);
}
