/**
 * The embedded storage's live streams, created once per server and shared by the S3 front (which publishes)
 * and the admin side (trace, console log, ListenBucketNotification, metrics, audit and notification targets,
 * which listen). See hub.ts for the bounded-subscriber rules every stream follows.
 */
import type { BucketEvent } from "../events/records.ts";
import { Hub } from "./hub.ts";
import type { RequestRecord } from "./requests.ts";
import type { CallRecord } from "./calls.ts";

/** One entry of the server's own log, in MinIO's console-log shape (minio-protocol §3.15, part 2 §2.4). */
export interface LogEntry {
  deploymentid?: string;
  level: "ERROR" | "WARNING" | "FATAL" | "EVENT" | "INFO";
  errKind?: string;
  /** RFC 3339, UTC. */
  time: string;
  api?: {
    name: string;
    args?: { bucket?: string; object?: string; versionId?: string; metadata?: Record<string, string> };
  };
  remotehost?: string;
  host?: string;
  requestID?: string;
  userAgent?: string;
  message?: string;
  error?: { message: string; source?: string[]; variables?: Record<string, string> };
}

export interface StorageStreams {
  /** Every S3, admin and STS request once its response is done. */
  requests: Hub<RequestRecord>;
  /** Bucket events (object created, accessed, removed...), after the response that caused them. */
  events: Hub<BucketEvent>;
  /** The server's own log entries (errors it handled, warnings, notable events). */
  log: Hub<LogEntry>;
  /**
   * Trace records of calls into the store (`storage`) and of file-system calls (`os`), calls.ts. Only trace
   * subscribers listen, so `active` says whether anyone wants them.
   */
  storageCalls: Hub<CallRecord>;
  osCalls: Hub<CallRecord>;
}

/** Ends every live stream (before the server shuts down). */
export function closeStorageStreams(streams: StorageStreams): void {
  streams.requests.close();
  streams.events.close();
  streams.log.close();
  streams.storageCalls.close();
  streams.osCalls.close();
}

export function createStorageStreams(): StorageStreams {
  return {
    requests: new Hub(),
    events: new Hub(),
    log: new Hub(),
    storageCalls: new Hub(),
    osCalls: new Hub(),
  };
}
