/**
 * Entries of the server's own log as MinIO writes them (minio-protocol §3.15, part 2 §2.4): an error or a
 * warning carries the error block (message and source lines) and the API it happened in, the request's
 * id, remote host and user agent when a request is behind it, and `SYSTEM` as the API of background work,
 * as MinIO's logger does. Error Logs shows these fields; a bare message told an administrator nothing more.
 */
import type { LogEntry } from "./mod.ts";

/** The request a log entry is about, when one is known. */
export interface LogRequest {
  api?: string;
  requestID?: string;
  remotehost?: string;
  host?: string;
  userAgent?: string;
  bucket?: string;
  object?: string;
}

/** What a log call knows besides its message (plain data: it crosses from the delivery thread). */
export interface LogContext {
  /** Where it happened, innermost first (sourceLines). */
  source?: string[];
  request?: LogRequest;
}

const ROOT = new URL("../../../", import.meta.url).href;
const MAX_SOURCE_LINES = 8;

/**
 * The call stack of `error`, or of the caller when there is none, as `path:line:column:function()` with
 * paths from the project's root, innermost first; frames outside the project (the runtime's own) are left
 * out. `skip` drops the caller's own frames (a logging helper) from the front.
 */
export function sourceLines(error?: unknown, skip = 0): string[] {
  const own = !(error instanceof Error && error.stack);
  const stack = own ? new Error().stack ?? "" : (error as Error).stack!;
  const frames = stack.split("\n").filter((line) => /^\s+at /.test(line)).slice(own ? 1 + skip : 0);
  const lines: string[] = [];
  for (const frame of frames) {
    const m = /^\s+at (?:async )?(?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/.exec(frame);
    if (!m || !m[2].startsWith(ROOT)) continue;
    lines.push(`${m[2].slice(ROOT.length)}:${m[3]}:${m[4]}:${m[1] ?? "<module>"}()`);
    if (lines.length === MAX_SOURCE_LINES) break;
  }
  return lines;
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * The request behind a queued item, read from its JSON: a bucket event (its record names the request id,
 * the client's address and user agent) or an audit entry (which names them itself).
 */
export function requestOfItem(line: string): LogRequest | undefined {
  let item: Record<string, unknown>;
  try {
    item = JSON.parse(line);
  } catch {
    return undefined;
  }
  const record = (item.Records as Record<string, Record<string, Record<string, unknown>>>[] | undefined)?.[0];
  if (record) {
    return {
      api: text(record.eventName),
      requestID: text(record.responseElements?.["x-amz-request-id"]),
      remotehost: text(record.requestParameters?.sourceIPAddress),
      userAgent: text(record.source?.userAgent),
      bucket: text(record.s3?.bucket && (record.s3.bucket as Record<string, unknown>).name),
      object: text(record.s3?.object && (record.s3.object as Record<string, unknown>).key),
    };
  }
  const api = item.api as Record<string, unknown> | undefined;
  if (!api && !item.requestID) return undefined;
  return {
    api: text(api?.name),
    requestID: text(item.requestID),
    remotehost: text(item.remotehost),
    host: text(item.host),
    userAgent: text(item.userAgent),
    bucket: text(api?.bucket),
    object: text(api?.object),
  };
}

/** One entry of the server log; errors and warnings get MinIO's error block and API (see the module note). */
export function logEntry(
  deploymentId: string | undefined,
  level: LogEntry["level"],
  message: string,
  context: LogContext = {},
): LogEntry {
  const base = { deploymentid: deploymentId, level, time: new Date().toISOString(), message };
  if (level === "INFO" || level === "EVENT") return base;
  const request = context.request ?? {};
  return {
    ...base,
    api: {
      name: request.api ?? "SYSTEM",
      ...(request.bucket || request.object
        ? { args: { bucket: request.bucket, object: request.object } }
        : {}),
    },
    ...(request.remotehost ? { remotehost: request.remotehost } : {}),
    ...(request.host ? { host: request.host } : {}),
    ...(request.requestID ? { requestID: request.requestID } : {}),
    ...(request.userAgent ? { userAgent: request.userAgent } : {}),
    error: { message, source: context.source ?? sourceLines(undefined, 1) },
  };
}
