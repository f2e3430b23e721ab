/**
 * S3 request counters for the Prometheus endpoint, fed synchronously by a sink on `streams.requests`: a few
 * map lookups and increments per request, nothing kept per request. Only S3 requests count (admin and STS
 * calls are not S3 API traffic in MinIO's metrics either).
 *
 * Label cardinality is bounded: `api` is one of the server's handler names (requests no handler resolved
 * count as rejected-invalid, never as a new api value), and per-bucket counters exist only for buckets that
 * exist when the request ends (a client cannot grow them by naming buckets at random).
 */
import type { RequestRecord } from "../streams/requests.ts";

/** Upper bounds of MinIO's `s3_ttfb_seconds` histogram (part 2 §4.2), plus +Inf. */
export const TTFB_BOUNDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class ApiCounters {
  requests = 0;
  /** Status ≥ 400 except 499 (current MinIO's definition). */
  errors = 0;
  errors4xx = 0;
  errors5xx = 0;
  /** The client went away before the response was complete (MinIO's 499). */
  canceled = 0;
  /** Non-cumulative counts per TTFB bound; the last slot is above the largest bound. */
  readonly ttfb = new Float64Array(TTFB_BOUNDS.length + 1);

  add(record: RequestRecord): void {
    this.requests++;
    if (record.aborted) this.canceled++;
    else if (record.statusCode >= 400) {
      this.errors++;
      if (record.statusCode < 500) this.errors4xx++;
      else this.errors5xx++;
    }
    const seconds = record.ttfbNs / 1e9;
    let slot = TTFB_BOUNDS.findIndex((bound) => seconds <= bound);
    if (slot < 0) slot = TTFB_BOUNDS.length;
    this.ttfb[slot]++;
  }

  /** Cumulative counts for the `le` samples, ending with +Inf (= requests). */
  cumulativeTtfb(): number[] {
    const out: number[] = [];
    let sum = 0;
    for (const count of this.ttfb) out.push(sum += count);
    return out;
  }
}

export class BucketCounters {
  received = 0;
  sent = 0;
  readonly apis = new Map<string, ApiCounters>();
}

/** Error codes of requests refused before any handler ran, by MinIO's rejection counters. */
const AUTH_REJECTIONS = new Set([
  "SignatureDoesNotMatch",
  "InvalidAccessKeyId",
  "ExpiredToken",
  "InvalidToken",
  "AuthorizationHeaderMalformed",
  "MissingSecurityHeader",
]);
const TIMESTAMP_REJECTIONS = new Set(["RequestTimeTooSkewed", "AccessDenied.RequestExpired"]);

/** Handler names are plain identifiers; anything else is a request no operation matched. */
const API_NAME = /^[A-Za-z0-9]+$/;

export class RequestCounters {
  readonly apis = new Map<string, ApiCounters>();
  readonly buckets = new Map<string, BucketCounters>();
  received = 0;
  sent = 0;
  rejectedAuth = 0;
  rejectedTimestamp = 0;
  rejectedInvalid = 0;

  constructor(private readonly bucketExists: (bucket: string) => boolean) {}

  /** The sink: called once per finished request. */
  record(record: RequestRecord): void {
    if (record.kind !== "s3") return;
    const received = Math.max(0, record.rx);
    this.received += received;
    this.sent += record.tx;
    if (AUTH_REJECTIONS.has(record.errorCode)) this.rejectedAuth++;
    else if (TIMESTAMP_REJECTIONS.has(record.errorCode)) this.rejectedTimestamp++;
    if (!API_NAME.test(record.api)) {
      this.rejectedInvalid++;
      return;
    }
    const api = record.api.toLowerCase();
    counterFor(this.apis, api).add(record);
    if (record.bucket && this.bucketExists(record.bucket)) {
      let bucket = this.buckets.get(record.bucket);
      if (!bucket) this.buckets.set(record.bucket, bucket = new BucketCounters());
      bucket.received += received;
      bucket.sent += record.tx;
      counterFor(bucket.apis, api).add(record);
    }
  }

  /** Drops counters of buckets that no longer exist (called when metrics are rendered). */
  prune(): void {
    for (const name of this.buckets.keys()) if (!this.bucketExists(name)) this.buckets.delete(name);
  }
}

function counterFor(map: Map<string, ApiCounters>, api: string): ApiCounters {
  let counters = map.get(api);
  if (!counters) map.set(api, counters = new ApiCounters());
  return counters;
}
