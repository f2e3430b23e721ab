/**
 * Bucket event subscriptions (spec 2 Events) over the bucket notification configuration, and the server's
 * notification target ARNs (from server info, as MinIO lists them after a restart).
 */
import type { BucketEvent, CreateEventInput, DeleteEventInput } from "../../lib/contract/buckets.ts";
import { ApiError } from "../http/errors.ts";
import { serverInfo } from "../../lib/s3/admin/info.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import {
  getBucketNotification,
  putBucketNotification,
  type QueueConfig,
} from "../../lib/s3/ops/notification.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

const TO_S3: Record<string, string> = {
  put: "s3:ObjectCreated:*",
  get: "s3:ObjectAccessed:*",
  delete: "s3:ObjectRemoved:*",
};

/** An S3 event name back to the console's short name (put/get/delete); unknown ones are kept as they are. */
export function shortEventName(event: string): string {
  if (event.startsWith("s3:ObjectCreated:")) return "put";
  if (event.startsWith("s3:ObjectAccessed:")) return "get";
  if (event.startsWith("s3:ObjectRemoved:")) return "delete";
  return event;
}

const toView = (q: QueueConfig): BucketEvent => ({
  id: q.id,
  arn: q.arn,
  events: [...new Set(q.events.map(shortEventName))],
  prefix: q.prefix ?? "",
  suffix: q.suffix ?? "",
});

export async function listEvents(
  client: S3Client,
  bucket: string,
): Promise<{ events: BucketEvent[]; total: number }> {
  const events = (await getBucketNotification(client, bucket)).map(toView);
  return { events, total: events.length };
}

const sameFilter = (q: QueueConfig, arn: string, prefix: string, suffix: string) =>
  q.arn === arn && (q.prefix ?? "") === prefix && (q.suffix ?? "") === suffix;

export async function createEvent(client: S3Client, bucket: string, input: CreateEventInput): Promise<void> {
  const { arn, events, prefix = "", suffix = "", id } = input.configuration;
  const known = await notificationArns(client);
  if (!known.includes(arn)) {
    throw ApiError.badRequest(t("buckets.error.unknownTarget"), t("buckets.events.unknownTarget", { arn }));
  }
  const current = await getBucketNotification(client, bucket);
  const clash = current.find((q) =>
    sameFilter(q, arn, prefix, suffix) &&
    q.events.some((e) => events.includes(shortEventName(e) as typeof events[number]))
  );
  if (clash) {
    throw new ApiError(409, t("buckets.error.overlappingEvent"), {
      detail: t("buckets.events.overlap", { events: clash.events.map(shortEventName).join(", "), arn }),
    });
  }
  current.push({
    id: id || crypto.randomUUID(),
    arn,
    events: events.map((e) => TO_S3[e]),
    prefix: prefix || undefined,
    suffix: suffix || undefined,
  });
  await putBucketNotification(client, bucket, current);
}

/** Removes the subscription of `arn` with the given events, prefix and suffix. */
export async function deleteEvent(
  client: S3Client,
  bucket: string,
  arn: string,
  input: DeleteEventInput,
): Promise<void> {
  const current = await getBucketNotification(client, bucket);
  const prefix = input.prefix ?? "";
  const suffix = input.suffix ?? "";
  const wanted = new Set(input.events);
  const kept = current.filter((q) =>
    !(sameFilter(q, arn, prefix, suffix) &&
      (wanted.size === 0 || q.events.every((e) => wanted.has(shortEventName(e) as never))))
  );
  if (kept.length === current.length) throw ApiError.notFound("not found", t("buckets.events.noSuch"));
  await putBucketNotification(client, bucket, kept);
}

export async function notificationArns(client: S3Client): Promise<string[]> {
  return (await serverInfo(client)).sqsARN ?? [];
}
