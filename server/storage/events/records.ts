import type { BucketState, VersionRecord } from "../core/records.ts";
/**
 * Bucket event records in MinIO's format (minio-protocol-2 §1.1, §1.2), built once per event and published on
 * the storage's event hub: ListenBucketNotification streams them as they are, notification targets wrap them
 * (§1.3) after escaping the key their way (`targetRecord`).
 */

export interface EventRecord {
  eventVersion: "2.0";
  eventSource: "minio:s3";
  awsRegion: string;
  eventTime: string;
  eventName: string;
  userIdentity: { principalId: string };
  requestParameters: Record<string, string>;
  responseElements: Record<string, string>;
  s3: {
    s3SchemaVersion: "1.0";
    configurationId: "Config";
    bucket: { name: string; ownerIdentity: { principalId: string }; arn: string };
    object: {
      key: string;
      size?: number;
      eTag?: string;
      contentType?: string;
      userMetadata?: Record<string, string>;
      versionId?: string;
      sequencer: string;
    };
  };
  source: { host: string; port: string; userAgent: string };
}

/** One published event: the record plus what filters need without parsing it. */
export interface BucketEvent {
  bucket: string;
  /** Raw (unescaped) object key. */
  key: string;
  eventName: string;
  record: EventRecord;
}

/** What the request contributes to every event it causes. */
export interface EventRequestContext {
  /** Parent user of the signing key ("" for anonymous). */
  principalId: string;
  sourceIp: string;
  userAgent: string;
  requestId: string;
  region: string;
  deploymentId: string;
  /** The server's own endpoint URL (x-minio-origin-endpoint). */
  originEndpoint: string;
  /** The request had a Range header (current MinIO adds it to requestParameters). */
  range?: string;
}

/** What an operation says about the object it acted on. */
export interface EventObject {
  bucket: string;
  key: string;
  version?: VersionRecord;
  /** Whether the bucket is versioned (the version id is reported only then). */
  versioned: boolean;
  /** Version id of a removed version or created delete marker. */
  versionId?: string;
}

/**
 * Where a request reports the events it causes (the S3 front's request, and the write path's, have all of
 * it): its bucket, the bucket's state, and the sink that publishes them once the request succeeds.
 */
export interface EventSource {
  bucket: string;
  store: { bucket(name: string): BucketState };
  notify: (eventName: string, object: EventObject) => void;
}

/** Reports an event about a version of `key` in the request's bucket (version ids only when versioned). */
export function notifyObject(
  ctx: EventSource,
  eventName: string,
  key: string,
  version?: VersionRecord,
  versionId?: string,
): void {
  ctx.notify(eventName, {
    bucket: ctx.bucket,
    key,
    version,
    versionId,
    versioned: !!ctx.store.bucket(ctx.bucket).meta.versioning,
  });
}

/** The event a delete caused: a delete marker created, or data (a version) removed (minio-protocol-2 §1.2). */
export function deleteEventName(
  requestedVersion: string | undefined,
  outcome: { deleteMarker: boolean },
): string {
  return outcome.deleteMarker && !requestedVersion
    ? "s3:ObjectRemoved:DeleteMarkerCreated"
    : "s3:ObjectRemoved:Delete";
}

/** Removal events carry no size, ETag, content type or metadata (§1.1 rules). */
const REMOVALS = new Set([
  "s3:ObjectRemoved:Delete",
  "s3:ObjectRemoved:DeleteMarkerCreated",
  "s3:ObjectRemoved:NoOP",
]);

/** Uppercase hex of a nanosecond Unix time. */
function sequencer(epochMs: number): string {
  return (BigInt(Math.round(epochMs)) * 1_000_000n).toString(16).toUpperCase();
}

export function buildEventRecord(
  eventName: string,
  bucket: string,
  object: EventObject,
  request: EventRequestContext,
  now = new Date(),
): EventRecord {
  const version = object.version;
  const removal = REMOVALS.has(eventName);
  const versionId = object.versioned ? (object.versionId ?? version?.versionId) : undefined;
  const userMetadata: Record<string, string> = {};
  if (version && !removal) {
    if (version.contentType) userMetadata["content-type"] = version.contentType;
    for (const [name, value] of Object.entries(version.userMetadata)) {
      userMetadata[`X-Amz-Meta-${canonical(name)}`] = value;
    }
  }
  return {
    eventVersion: "2.0",
    eventSource: "minio:s3",
    awsRegion: request.region,
    eventTime: now.toISOString(),
    eventName,
    userIdentity: { principalId: request.principalId },
    requestParameters: {
      principalId: request.principalId,
      region: request.region,
      sourceIPAddress: request.sourceIp,
      ...(request.range ? { range: request.range } : {}),
    },
    responseElements: {
      "x-amz-id-2": "dd9025bab4ad464b049177c95eb6ebf374d3b3fd1af9251148b658df7ac2e3e8",
      "x-amz-request-id": request.requestId,
      "x-minio-deployment-id": request.deploymentId,
      "x-minio-origin-endpoint": request.originEndpoint,
    },
    s3: {
      s3SchemaVersion: "1.0",
      configurationId: "Config",
      bucket: {
        name: bucket,
        ownerIdentity: { principalId: request.principalId },
        arn: `arn:aws:s3:::${bucket}`,
      },
      object: {
        key: object.key,
        ...(version && !removal
          ? {
            size: version.size,
            eTag: version.etag,
            ...(version.contentType ? { contentType: version.contentType } : {}),
            ...(Object.keys(userMetadata).length ? { userMetadata } : {}),
          }
          : {}),
        ...(versionId && versionId !== "null" ? { versionId } : {}),
        sequencer: sequencer(version ? Date.parse(version.lastModified) : now.getTime()),
      },
    },
    source: { host: request.sourceIp, port: "", userAgent: request.userAgent },
  };
}

/** `Content-Type` → `Content-Type`, `foo-bar` → `Foo-Bar` (Go's canonical header form, as MinIO stores keys). */
function canonical(name: string): string {
  return name.split("-").map((part) => part ? part[0].toUpperCase() + part.slice(1).toLowerCase() : part)
    .join("-");
}

/** Go's url.QueryEscape: what targets receive as the key (space → `+`, `/` → `%2F`). */
export function queryEscape(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, "+").replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The record as configured targets receive it: the key query-escaped (§1.1). */
export function targetRecord(record: EventRecord): EventRecord {
  return {
    ...record,
    s3: { ...record.s3, object: { ...record.s3.object, key: queryEscape(record.s3.object.key) } },
  };
}

/** Whether an event name matches a configured pattern such as `s3:ObjectCreated:*` (or `s3:ObjectCreated:Put`). */
export function eventNameMatches(pattern: string, eventName: string): boolean {
  if (pattern.endsWith("*")) return eventName.startsWith(pattern.slice(0, -1));
  return pattern === eventName;
}
