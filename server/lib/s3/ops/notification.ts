/** Bucket notification configuration (QueueConfiguration only, as MinIO supports; minio-protocol §5.10). */
import type { S3Client } from "../client.ts";
import { buildXml, child, children, childText, parseXml } from "../xml.ts";

export interface QueueConfig {
  id: string;
  arn: string;
  events: string[];
  prefix?: string;
  suffix?: string;
}

export function parseNotificationXml(text: string): QueueConfig[] {
  return children(parseXml(text), "QueueConfiguration").map((q) => {
    const rules = children(child(child(q, "Filter"), "S3Key"), "FilterRule");
    const rule = (name: string) => rules.find((r) => childText(r, "Name")?.toLowerCase() === name);
    return {
      id: childText(q, "Id") ?? "",
      arn: childText(q, "Queue") ?? "",
      events: children(q, "Event").map((e) => e.text.trim()),
      prefix: childText(rule("prefix"), "Value") || undefined,
      suffix: childText(rule("suffix"), "Value") || undefined,
    };
  });
}

export function notificationXml(configs: QueueConfig[]): string {
  return buildXml("NotificationConfiguration", {
    QueueConfiguration: configs.map((q) => {
      const rules = [
        ...(q.prefix ? [{ Name: "prefix", Value: q.prefix }] : []),
        ...(q.suffix ? [{ Name: "suffix", Value: q.suffix }] : []),
      ];
      return {
        Id: q.id,
        Queue: q.arn,
        Event: q.events,
        Filter: rules.length ? { S3Key: { FilterRule: rules } } : undefined,
      };
    }),
  });
}

export async function getBucketNotification(client: S3Client, bucket: string): Promise<QueueConfig[]> {
  return parseNotificationXml(await client.text({ method: "GET", bucket, query: { notification: "" } }));
}

export async function putBucketNotification(
  client: S3Client,
  bucket: string,
  configs: QueueConfig[],
): Promise<void> {
  await client.empty({ method: "PUT", bucket, query: { notification: "" }, body: notificationXml(configs) });
}
