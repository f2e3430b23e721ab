/**
 * The trace stream's records in madmin's TraceInfo v3 shape (minio-protocol §3.14), built from the request
 * records the front publishes and the storage and os call records (calls.ts), and the query options that
 * select them (`s3`, `internal`, `storage`, `os`, `all`, `err`, `threshold`).
 */
import { parseGoDuration } from "../../lib/http/duration.ts";
import type { CallRecord } from "./calls.ts";
import type { RequestRecord } from "./requests.ts";

/** madmin trace type bits. */
export const TRACE_TYPE = { os: 1, storage: 2, s3: 4, internal: 8 } as const;

export interface TraceOptions {
  /** Bitmask of TRACE_TYPE values wanted. */
  types: number;
  errorsOnly: boolean;
  /** Only calls at least this slow, in nanoseconds. */
  thresholdNs: number;
}

export type TraceOptionsResult = { ok: true; options: TraceOptions } | { ok: false; message: string };

/** Reads the trace query as MinIO does: booleans are `== "true"`, `all=true` selects every type. */
export function parseTraceOptions(query: URLSearchParams): TraceOptionsResult {
  const on = (name: string) => query.get(name) === "true";
  let types = 0;
  if (on("all")) types = TRACE_TYPE.os | TRACE_TYPE.storage | TRACE_TYPE.s3 | TRACE_TYPE.internal;
  for (const [name, bit] of Object.entries(TRACE_TYPE)) if (on(name)) types |= bit;
  const threshold = query.get("threshold") ?? "";
  let thresholdNs = 0;
  if (threshold !== "") {
    const parsed = parseGoDuration(threshold);
    if (parsed === null || parsed < 0) {
      return { ok: false, message: `threshold '${threshold}' is not a duration such as 100ms` };
    }
    thresholdNs = parsed;
  }
  return { ok: true, options: { types, errorsOnly: on("err"), thresholdNs } };
}

/** S3 calls are S3; admin and STS calls are what madmin calls internal (funcname not starting with `s3.`). */
export const traceTypeOf = (
  record: RequestRecord,
) => (record.kind === "s3" ? TRACE_TYPE.s3 : TRACE_TYPE.internal);

export function traceWanted(options: TraceOptions, record: RequestRecord): boolean {
  if ((options.types & traceTypeOf(record)) === 0) return false;
  if (options.errorsOnly && record.statusCode < 400) return false;
  return record.durationNs >= options.thresholdNs;
}

/** A storage or os call: wanted when its type is, when it failed if only errors are, and when slow enough. */
export function callWanted(options: TraceOptions, record: CallRecord): boolean {
  if ((options.types & record.type) === 0) return false;
  if (options.errorsOnly && record.error === "") return false;
  return record.durationNs >= options.thresholdNs;
}

/** One storage or os call as trace shows it (no `http`, as MinIO sends these). */
export function callTraceInfoOf(record: CallRecord, node: string): TraceInfo {
  return {
    type: record.type,
    nodename: node,
    funcname: record.funcname,
    time: rfc3339Nano(record.time),
    path: record.path,
    dur: record.durationNs,
    bytes: record.bytes,
    msg: "",
    error: record.error,
  };
}

/** A record's headers (redacted when the record was made) as madmin's trace sends them. */
function headerLists(
  headers: Readonly<Record<string, string>>,
  extra: Record<string, string> = {},
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = [value];
  for (const [name, value] of Object.entries(extra)) out[name] = [value];
  return out;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** RFC 3339 with nanoseconds, as Go prints time.Time in JSON. */
export function rfc3339Nano(date: Date, extraNs = 0): string {
  const ms = date.getUTCMilliseconds();
  const frac = `${pad(ms, 3)}${pad(extraNs % 1_000_000, 6)}`.replace(/0+$/, "");
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${
    pad(date.getUTCHours())
  }:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${frac ? `.${frac}` : ""}Z`;
}

export interface TraceInfo {
  type: number;
  nodename: string;
  funcname: string;
  time: string;
  path: string;
  dur: number;
  bytes: number;
  msg: string;
  error: string;
  /** Requests only (S3, admin, STS); storage and os calls have none. */
  http?: {
    request: {
      time: string;
      proto: string;
      method: string;
      path: string;
      rawquery: string;
      headers: Record<string, string[]>;
      client: string;
    };
    response: { time: string; headers: Record<string, string[]>; statuscode: number };
    stats: { inputbytes: number; outputbytes: number; latency: number; timetofirstbyte: number };
  };
}

/** One request as trace shows it. */
export function traceInfoOf(record: RequestRecord, node: string): TraceInfo {
  const started = rfc3339Nano(record.time);
  const ended = rfc3339Nano(new Date(record.time.getTime() + Math.floor(record.durationNs / 1e6)));
  const prefix = record.kind === "s3" ? "s3" : record.kind === "sts" ? "sts" : "admin";
  return {
    type: traceTypeOf(record),
    nodename: node,
    funcname: `${prefix}.${record.api}`,
    time: started,
    path: decodeSafely(record.path),
    dur: record.durationNs,
    bytes: 0,
    msg: "",
    error: record.errorCode,
    http: {
      request: {
        time: started,
        proto: "HTTP/1.1",
        method: record.method,
        path: decodeSafely(record.path),
        rawquery: record.rawQuery,
        headers: headerLists(record.requestHeaders, { Host: record.host }),
        client: record.sourceIp,
      },
      response: {
        time: ended,
        headers: headerLists(record.responseHeaders),
        statuscode: record.statusCode,
      },
      stats: {
        inputbytes: Math.max(0, record.rx),
        outputbytes: record.tx,
        latency: record.durationNs,
        timetofirstbyte: record.ttfbNs,
      },
    },
  };
}

function decodeSafely(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
