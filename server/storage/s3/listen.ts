/**
 * ListenBucketNotification, MinIO's S3 extension (minio-protocol §5.20): `GET /<bucket>?events=...` (or
 * `GET /?events=...` for every bucket) streams the bucket's event records, one `{"Records":[record]}` line
 * each, as they happen. Keep-alive: `{"Records":null}` every `ping` seconds, else a space every 500 ms.
 * The subscription is bounded (a reader that falls behind loses the oldest events) and ends with the client.
 */
import { type BucketEvent, eventNameMatches } from "../events/records.ts";
import { jsonLinesResponse, mapStream } from "../streams/json_lines.ts";
import { EVENT_PATTERN } from "./bucket_configs.ts";
import { bucketOf, type S3Request } from "./context.ts";
import { StoreError } from "../core/errors.ts";

/** Events a slow listener may fall behind by. */
const LISTEN_BACKLOG = 1000;
const MAX_RULE_BYTES = 1024;

const invalid = (message: string) => new StoreError("InvalidArgument", message, 400);

function oneRule(query: URLSearchParams, name: "prefix" | "suffix"): string {
  const values = query.getAll(name);
  if (values.length > 1) throw invalid(`Cannot specify more than one ${name} rule in a filter.`);
  const value = values[0] ?? "";
  if (new TextEncoder().encode(value).length > MAX_RULE_BYTES) {
    throw invalid("Size of filter rule value cannot exceed 1024 bytes in UTF-8 representation");
  }
  return value;
}

export function listenBucketNotification(ctx: S3Request): Promise<Response> {
  if (ctx.bucket) bucketOf(ctx);
  const patterns = ctx.query.getAll("events");
  for (const pattern of patterns) {
    if (!EVENT_PATTERN.test(pattern)) {
      throw invalid(`A specified event is not supported for notifications: ${pattern}`);
    }
  }
  const prefix = oneRule(ctx.query, "prefix");
  const suffix = oneRule(ctx.query, "suffix");
  const ping = Number(ctx.query.get("ping") ?? "0");
  const wanted = (event: BucketEvent) =>
    (!ctx.bucket || event.bucket === ctx.bucket) &&
    event.key.startsWith(prefix) &&
    event.key.endsWith(suffix) &&
    patterns.some((pattern) => eventNameMatches(pattern, event.eventName));
  const subscription = ctx.streams.events.subscribe({ capacity: LISTEN_BACKLOG, filter: wanted });
  const keepAlive = Number.isInteger(ping) && ping >= 1
    ? { keepAliveMs: ping * 1000, keepAlive: '{"Records":null}\n' }
    : { keepAliveMs: 500, keepAlive: " " };
  return Promise.resolve(
    jsonLinesResponse(mapStream(subscription, (event) => ({ Records: [event.record] })), keepAlive),
  );
}
