/**
 * What the storage observed about one request, published once its response has been sent (or abandoned).
 * Trace (`/minio/admin/v3/trace`), the Prometheus metrics and audit records are all built from this one
 * record, so they never disagree about what happened. Its headers and query are already redacted
 * (../../s3/redact.ts): no signature, session token or SSE-C key leaves the request in a record.
 */
import { redactedHeaderMap, redactQuery } from "../../lib/s3/redact.ts";
import type { Hub } from "./hub.ts";

export type RequestKind = "s3" | "admin" | "sts";

export interface RequestRecord {
  kind: RequestKind;
  /** Handler name as MinIO reports it: `PutObject`, `ListObjectsV2`, `AssumeRole`, an admin operation. */
  api: string;
  /** When the request arrived. */
  time: Date;
  method: string;
  /** URL path as received (still percent-encoded). */
  path: string;
  /** Query as received, secret parameters' values redacted. */
  rawQuery: string;
  host: string;
  sourceIp: string;
  userAgent: string;
  requestId: string;
  bucket: string;
  object: string;
  /** Access key that signed the request, "" when anonymous or unauthenticated. */
  accessKey: string;
  /** The long-term user behind the key (itself for users and root). */
  parentUser: string;
  statusCode: number;
  /** S3 error code of a failed request ("" on success). */
  errorCode: string;
  /** Headers by Go's canonical names (`X-Amz-Date`), secret values redacted. */
  requestHeaders: Readonly<Record<string, string>>;
  responseHeaders: Readonly<Record<string, string>>;
  /** Request body bytes as declared (Content-Length or the decoded length), -1 when unknown. */
  rx: number;
  /** Response body bytes actually sent. */
  tx: number;
  /** Time until the response headers were ready. */
  ttfbNs: number;
  /** Time until the last body byte was handed to the connection, or the body was abandoned. */
  durationNs: number;
  /** True when the client went away before the whole body was sent. */
  aborted: boolean;
}

/** The fields the front fills in while it handles a request; the rest come from the response. */
export type RequestFacts = Pick<
  RequestRecord,
  "kind" | "api" | "bucket" | "object" | "accessKey" | "parentUser" | "errorCode" | "rx"
>;

const nowNs = () => Math.round(performance.now() * 1e6);

/** Starts observing a request; `finish(response)` returns the response to send (with its body counted). */
export function observeRequest(
  hub: Hub<RequestRecord>,
  request: Request,
  url: URL,
  sourceIp: string,
  requestId: string,
) {
  const startNs = nowNs();
  const time = new Date();
  const declared = Number(request.headers.get("content-length") ?? "-1");
  const facts: RequestFacts = {
    kind: "s3",
    api: "",
    bucket: "",
    object: "",
    accessKey: "",
    parentUser: "",
    errorCode: "",
    rx: Number.isFinite(declared) ? declared : -1,
  };

  function finish(response: Response): Response {
    if (!hub.active) return response;
    const ttfbNs = nowNs() - startNs;
    const record = (tx: number, aborted: boolean): RequestRecord => ({
      ...facts,
      api: facts.api || `${request.method} ${url.pathname}`,
      time,
      method: request.method,
      path: url.pathname,
      rawQuery: redactQuery(url.search.slice(1)),
      host: request.headers.get("host") ?? url.host,
      sourceIp,
      userAgent: request.headers.get("user-agent") ?? "",
      requestId,
      statusCode: response.status,
      requestHeaders: redactedHeaderMap(request.headers),
      responseHeaders: redactedHeaderMap(response.headers),
      tx,
      ttfbNs,
      durationNs: nowNs() - startNs,
      aborted,
    });
    if (!response.body || request.method === "HEAD") {
      hub.publish(record(0, false));
      return response;
    }
    // Count what is sent and publish when the body ends, so a trace shows the real transfer time and size.
    const reader = response.body.getReader();
    let sent = 0;
    let published = false;
    const publishOnce = (aborted: boolean) => {
      if (published) return;
      published = true;
      hub.publish(record(sent, aborted));
    };
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            controller.close();
            publishOnce(false);
            return;
          }
          sent += value.byteLength;
          controller.enqueue(value);
        } catch (error) {
          publishOnce(true);
          controller.error(error);
        }
      },
      cancel(reason) {
        publishOnce(true);
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  return { facts, finish };
}
