/**
 * What the log search keeps of an audit entry (minio-protocol-2 §3.2, §3.3): the request-info row. The access
 * key comes from the entry, or from the Authorization header's Credential as the original service derived it.
 */
import { isSecretParameter, REDACTED, redactHeader } from "../lib/s3/redact.ts";

export interface RequestInfoRow {
  /** Epoch microseconds. */
  time: number;
  api_name: string;
  access_key: string | null;
  bucket: string | null;
  object: string | null;
  time_to_response_ns: number | null;
  remote_host: string | null;
  request_id: string | null;
  user_agent: string | null;
  response_status: string | null;
  response_status_code: number | null;
  request_content_length: number | null;
  response_content_length: number | null;
  /** The entry as received, for `q=raw` (signatures and session tokens cut out); absent on rows made otherwise. */
  log?: string | null;
}

export const ROW_COLUMNS = [
  "time",
  "api_name",
  "access_key",
  "bucket",
  "object",
  "time_to_response_ns",
  "remote_host",
  "request_id",
  "user_agent",
  "response_status",
  "response_status_code",
  "request_content_length",
  "response_content_length",
] as const;

export class IngestError extends Error {}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
const unsigned = (
  value: unknown,
) => (typeof value === "string" && /^\d+$/.test(value)
  ? Number(value)
  : typeof value === "number" && value >= 0
  ? value
  : null);

/** `"2345678ns"` (or a number) → nanoseconds; "" and "0" are 0. */
function nanoseconds(value: unknown): number | null {
  if (value === undefined || value === null || value === "" || value === "0") return 0;
  if (typeof value === "number") return value;
  const m = /^(\d+)ns$/.exec(String(value));
  return m ? Number(m[1]) : null;
}

function accessKeyOf(entry: Record<string, unknown>, headers: Record<string, string>): string | null {
  const direct = text(entry.accessKey) ?? text((entry.api as Record<string, unknown> | undefined)?.accessKey);
  if (direct) return direct;
  const auth = headers.Authorization ?? "";
  return /^AWS4-HMAC-SHA256 Credential=([^/]+)\//.exec(auth)?.[1] ?? /^AWS ([^:]+):/.exec(auth)?.[1] ?? null;
}

/**
 * The entry as `q=raw` returns it. A MinIO server sends request headers as they came (its audit keeps the
 * signature, valid for minutes after, and session tokens), so every secret is cut out before anything is
 * stored, as the embedded storage does before it sends (../s3/redact.ts).
 */
export function storedEntry(entry: Record<string, unknown>): string {
  const clean = { ...entry };
  for (const part of ["requestHeader", "responseHeader"] as const) {
    const headers = entry[part];
    if (!headers || typeof headers !== "object") continue;
    clean[part] = Object.fromEntries(
      Object.entries(headers).map((
        [name, value],
      ) => [name, typeof value === "string" ? redactHeader(name, value) : value]),
    );
  }
  const query = entry.requestQuery;
  if (query && typeof query === "object") {
    clean.requestQuery = Object.fromEntries(
      Object.entries(query).map(([name, value]) => [name, isSecretParameter(name) ? REDACTED : value]),
    );
  }
  return JSON.stringify(clean);
}

/** An audit entry → its row; throws IngestError when the entry lacks what every entry has. */
export function rowOf(
  entry: Record<string, unknown>,
  parseTime: (text: string) => number | null,
): RequestInfoRow {
  const time = typeof entry.time === "string" ? parseTime(entry.time) : null;
  if (time === null) throw new IngestError(`time is not an RFC 3339 time: ${JSON.stringify(entry.time)}`);
  const api = (entry.api ?? {}) as Record<string, unknown>;
  const toResponse = nanoseconds(api.timeToResponse);
  if (toResponse === null) {
    throw new IngestError(`api.timeToResponse is not <int>ns: ${JSON.stringify(api.timeToResponse)}`);
  }
  const requestHeader = (entry.requestHeader ?? {}) as Record<string, string>;
  const responseHeader = (entry.responseHeader ?? {}) as Record<string, string>;
  return {
    time,
    api_name: text(api.name) ?? "",
    access_key: accessKeyOf(entry, requestHeader),
    bucket: text(api.bucket),
    object: text(api.object),
    time_to_response_ns: toResponse,
    remote_host: text(entry.remotehost),
    request_id: text(entry.requestID),
    user_agent: text(entry.userAgent),
    response_status: text(api.status),
    response_status_code: typeof api.statusCode === "number" ? api.statusCode : null,
    request_content_length: unsigned(requestHeader["Content-Length"]),
    response_content_length: unsigned(responseHeader["Content-Length"]),
    log: storedEntry(entry),
  };
}

/** Epoch microseconds → RFC 3339 with microseconds, UTC. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const base = new Date(ms).toISOString().slice(0, 19);
  const fraction = String(micros % 1_000_000).padStart(6, "0");
  return `${base}.${fraction}Z`;
}
