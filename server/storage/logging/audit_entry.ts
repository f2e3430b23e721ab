/**
 * Audit entries in MinIO's shape (minio-protocol-2 §2.3), one per request, built from the same request record
 * trace and metrics use, whose headers and query hold no credentials (they were redacted when it was made).
 */
import type { RequestRecord } from "../streams/requests.ts";
import { statusText } from "../../lib/http/status.ts";
import { rfc3339Nano } from "../streams/trace.ts";

export interface AuditEntry {
  version: "1";
  deploymentid?: string;
  time: string;
  event: string;
  trigger: string;
  api: {
    name: string;
    bucket?: string;
    object?: string;
    objects?: { objectName: string; versionId?: string }[];
    status: string;
    statusCode?: number;
    rx: number;
    tx: number;
    timeToFirstByte?: string;
    timeToFirstByteInNS?: string;
    timeToResponse?: string;
    timeToResponseInNS?: string;
  };
  remotehost?: string;
  requestID?: string;
  userAgent?: string;
  requestPath?: string;
  requestHost?: string;
  requestQuery?: Record<string, string>;
  requestHeader?: Record<string, string>;
  responseHeader?: Record<string, string>;
  tags?: Record<string, string>;
  accessKey?: string;
  parentUser?: string;
  error?: string;
}

/** Something the server did on its own that MinIO audits as an internal event (e.g. heal removing a dangling object). */
export interface InternalAuditEvent {
  /** MinIO's event name, e.g. `DeleteDanglingObject`. */
  event: string;
  bucket: string;
  object: string;
  versionId?: string;
  /** Why, or what went wrong. */
  error?: string;
  tags?: Record<string, string>;
}

/** An internal event's audit entry, as MinIO's auditLogInternal builds it: no request or response parts. */
export function internalAuditEntry(
  event: InternalAuditEvent,
  deploymentId: string,
  now = new Date(),
): AuditEntry {
  return {
    version: "1",
    deploymentid: deploymentId || undefined,
    time: rfc3339Nano(now),
    event: event.event,
    trigger: event.event,
    api: {
      name: event.event,
      bucket: event.bucket,
      // MinIO names the object in `objects` only; `object` too lets the log search filter by it.
      object: event.object || undefined,
      objects: [{ objectName: event.object, ...(event.versionId ? { versionId: event.versionId } : {}) }],
      status: "OK",
      rx: 0,
      tx: 0,
    },
    ...(event.tags ? { tags: event.tags } : {}),
    ...(event.error ? { error: event.error } : {}),
  };
}

export function auditEntryOf(record: RequestRecord, deploymentId: string): AuditEntry {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(record.rawQuery)) {
    query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  }
  const responseHeader = { ...record.responseHeaders };
  if (responseHeader.ETag) responseHeader.ETag = responseHeader.ETag.replace(/"/g, "");
  // Streamed bodies carry no Content-Length header; the bytes actually sent are what log search records.
  if (responseHeader["Content-Length"] === undefined && !record.aborted) {
    responseHeader["Content-Length"] = String(record.tx);
  }
  let path = record.path;
  try {
    path = decodeURIComponent(record.path);
  } catch { /* keep it encoded */ }
  return {
    version: "1",
    deploymentid: deploymentId || undefined,
    time: rfc3339Nano(record.time),
    event: "",
    trigger: "incoming",
    api: {
      name: record.api,
      bucket: record.bucket || undefined,
      object: record.object || undefined,
      status: statusText(record.statusCode),
      statusCode: record.statusCode,
      rx: record.rx,
      tx: record.tx,
      ...(record.ttfbNs > 0
        ? { timeToFirstByte: `${record.ttfbNs}ns`, timeToFirstByteInNS: String(record.ttfbNs) }
        : {}),
      timeToResponse: `${record.durationNs}ns`,
      timeToResponseInNS: String(record.durationNs),
    },
    remotehost: record.sourceIp,
    requestID: record.requestId,
    userAgent: record.userAgent,
    requestPath: path,
    requestHost: record.host,
    requestQuery: query,
    requestHeader: record.requestHeaders,
    responseHeader,
    accessKey: record.accessKey || undefined,
    parentUser: record.parentUser || undefined,
  };
}
