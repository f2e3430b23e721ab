/**
 * ListenBucketNotification (MinIO extension, minio-protocol §5.20): streams a bucket's event records as they
 * happen. Lines with `Records: null` are keep-alives and are skipped.
 */
import type { S3Client } from "../client.ts";
import { jsonValues } from "../json_stream.ts";

/** One S3 event record (minio-protocol-2 §1.1), the fields a listener reads. */
export interface NotificationRecord {
  eventName: string;
  eventTime: string;
  s3: {
    bucket: { name: string };
    object: {
      key: string;
      size?: number;
      eTag?: string;
      contentType?: string;
      userMetadata?: Record<string, string>;
      versionId?: string;
    };
  };
  source?: { host: string; port: string; userAgent: string };
}

export interface ListenQuery {
  /** S3 event names or wildcards, e.g. `s3:ObjectCreated:*`. */
  events: string[];
  prefix: string;
  suffix: string;
}

/** Resolves once the server has answered, which for MinIO and Deck means the listener is registered. */
export async function openBucketNotifications(
  client: S3Client,
  bucket: string,
  query: ListenQuery,
  signal: AbortSignal,
): Promise<AsyncIterable<NotificationRecord>> {
  const res = await client.send({
    method: "GET",
    bucket: bucket || undefined,
    path: bucket ? undefined : "/",
    // minio-go always sends prefix, suffix and ping=10.
    query: { events: query.events, prefix: query.prefix, suffix: query.suffix, ping: 10 },
    signal,
  });
  return recordsOf(res);
}

async function* recordsOf(response: Response): AsyncGenerator<NotificationRecord> {
  for await (const line of jsonValues<{ Records: NotificationRecord[] | null }>(response)) {
    for (const record of line.Records ?? []) yield record;
  }
}

export async function* listenBucketNotification(
  client: S3Client,
  bucket: string,
  query: ListenQuery,
  signal: AbortSignal,
): AsyncGenerator<NotificationRecord> {
  yield* await openBucketNotifications(client, bucket, query, signal);
}
