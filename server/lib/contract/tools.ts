/**
 * Wire types of the tools area (api-index §8): the live-stream messages the WebSocket relays send, and the
 * audit log search. Shared by the server and the islands.
 */

/** /ws/trace: the original console's short trace message. */
export interface TraceMessage {
  /** RFC 3339. */
  time: string;
  /** Function name, e.g. s3.PutObject. */
  api: string;
  path: string;
  query: string;
  statusCode: number;
  statusMsg: string;
  host: string;
  client: string;
  callStats: {
    rx: number;
    tx: number;
    /** Go duration text, e.g. "1.534ms". */
    duration: string;
    timeToFirstByte: string;
  };
}

/** /ws/console: madmin LogInfo with `time` reformatted for display. */
export interface ConsoleMessage {
  ConsoleMsg?: string;
  node?: string;
  deploymentid?: string;
  level?: string;
  time?: string;
  requestID?: string;
  remotehost?: string;
  host?: string;
  userAgent?: string;
  api?: { name?: string; args?: { bucket?: string; object?: string } };
  message?: string;
  error?: { message?: string; source?: string[] };
}

/** /ws/watch/{bucket}: one event, with mc's capitalised keys. */
export interface WatchMessage {
  Time: string;
  Size: number;
  /** Event name without the `s3:` prefix, e.g. ObjectCreated:Put. */
  Type: string;
  /** bucket/key. */
  Path: string;
  UserMetadata?: Record<string, string>;
  Host: string;
  Port: string;
  UserAgent: string;
}

export type HealColor = "Green" | "Yellow" | "Red" | "Grey";

export interface HealItemStatus {
  status: string;
  type: string;
  name: string;
  before: { color: string; online: number; missing: number; corrupted: number; offline: number };
  after: { color: string; online: number; missing: number; corrupted: number; offline: number };
  size: number;
  detail: string;
}

/** /ws/heal/{bucket}: totals so far, and the items of the latest poll. */
export interface HealMessage {
  /** Seconds since the heal started. */
  healDuration: number;
  bytesScanned: number;
  objectsScanned: number;
  itemsScanned: number;
  objectsHealed: number;
  itemsHealed: number;
  itemsHealthStatus: HealItemStatus[];
  healthBeforeCols: Record<HealColor, number>;
  healthAfterCols: Record<HealColor, number>;
}

/** Control messages a relay adds to a stream (messages above never carry `type` in lower case). */
export type RelayNotice = { type: "dropped"; count: number } | {
  type: "error";
  message: string;
  detail: string;
};

/**
 * Close codes of a live stream that ended with its session (WebSocket application codes, RFC 6455 §7.4.2):
 * the session expired or the storage no longer accepts it (signed out, account disabled or deleted), or the
 * account's current policy no longer allows the stream.
 */
export const STREAM_CLOSE = { sessionEnded: 4001, accessRemoved: 4003 } as const;

/** One audit row of the log search (api-index §8, minio-protocol-2 §3.6). */
export interface AuditRow {
  time: string;
  api_name: string;
  access_key?: string | null;
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
}

export interface LogSearchResponse {
  results: AuditRow[];
}

/** The `fp` filter keys the log search accepts. */
export const AUDIT_FILTER_KEYS = [
  "bucket",
  "object",
  "api_name",
  "request_id",
  "user_agent",
  "response_status",
  "access_key",
] as const;
export type AuditFilterKey = typeof AUDIT_FILTER_KEYS[number];
