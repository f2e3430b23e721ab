/**
 * The embedded server's HTTP front, `(request) => Response`: classifies admin / STS / S3 requests
 * (identity_front.ts, s3_request.ts), answers metrics scrapes, CORS preflights and health checks, and keeps
 * an error that escapes a request from ending anything but that request. It knows nothing about the
 * console; the console reaches it over HTTP like any MinIO.
 */
import { FORWARDED_PROOF_HEADER, vouchedAddress } from "../lib/s3/forwarded_client.ts";
import { ClientGoneError, rawRequestTarget, type ServeInfo } from "../lib/http/listener.ts";
import { accessDenied, adminErrorResponse, s3ErrorResponse, StoreError } from "./core/errors.ts";
import { createFront, type Front, type FrontOptions, type FrontRequest, virtualBucketOf } from "./front.ts";
import { adminRequest, stsRequest } from "./identity_front.ts";
import { METRICS_PATH_PREFIX } from "./metrics/mod.ts";
import { addressOf, checkTarget } from "./s3/address.ts";
import * as cors from "./s3/cors.ts";
import { healthCheck } from "./s3/health.ts";
import { s3Request } from "./s3_request.ts";
import { sourceLines } from "./streams/log_entry.ts";
import { observeRequest } from "./streams/requests.ts";

let requestCounter = 0;
const newRequestId = () =>
  `${Date.now().toString(16).toUpperCase()}${
    (requestCounter++ & 0xffff).toString(16).toUpperCase().padStart(4, "0")
  }`;

/** Builds the front handler. */
export function createS3Server(
  options: FrontOptions,
): (request: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  const front = createFront(options);
  return async (request, info) => {
    const url = new URL(request.url);
    const deferred = (info as ServeInfo | undefined)?.sendContinue;
    if (deferred) front.deferContinue(request, () => deferred.call(info));
    const requestId = newRequestId();
    // Scrapes are not S3 traffic: they are answered before the request is observed, so a scraper never shows
    // up in the request counters, trace or audit it reads.
    if (options.metrics && url.pathname.startsWith(METRICS_PATH_PREFIX)) {
      const answer = await options.metrics.handle(request, url);
      return answer ?? adminErrorResponse(accessDenied(), url, requestId);
    }
    if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      try {
        return await cors.preflight(request, options.store, options.facts, corsBucket(front, request, url));
      } catch (error) {
        if (error instanceof StoreError) return s3ErrorResponse(error, request, url, requestId);
        throw error;
      }
    }
    const peer = info && "hostname" in info.remoteAddr ? info.remoteAddr.hostname : "127.0.0.1";
    const sourceIp = options.forwardingKey && request.headers.has(FORWARDED_PROOF_HEADER)
      ? await vouchedAddress(options.forwardingKey, request.headers, front.clock()) ?? peer
      : peer;
    const observed = observeRequest(front.streams.requests, request, url, sourceIp, requestId);
    const at: FrontRequest = { request, url, sourceIp, requestId, facts: observed.facts };
    const response = observed.finish(await route(front, at));
    return request.headers.has("origin")
      ? await cors.addCorsHeaders(
        request,
        response,
        options.store,
        options.facts,
        corsBucket(front, request, url),
      )
      : response;
  };
}

/** Sends a request to the admin API, STS or S3, once its target is known to be well formed. */
async function route(front: Front, at: FrontRequest): Promise<Response> {
  const { request, url, requestId, facts } = at;
  let rawPath: string;
  try {
    rawPath = checkTarget(rawRequestTarget(request));
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    facts.errorCode = error.code;
    await request.body?.cancel().catch(() => {});
    return s3ErrorResponse(error, request, url, requestId);
  }
  try {
    const health = healthCheck(request, url);
    if (health) return health;
    if (url.pathname.startsWith("/minio/admin/")) {
      if (!url.pathname.startsWith("/minio/admin/v3/")) {
        return adminErrorResponse(
          new StoreError(
            "XMinioAdminVersionMismatch",
            "This 'admin' API is not supported by server in 'mode-server-xl'",
            426,
          ),
          url,
          requestId,
        );
      }
      return await adminRequest(front, at);
    }
    const isForm = (request.headers.get("content-type") ?? "").startsWith(
      "application/x-www-form-urlencoded",
    );
    if (request.method === "POST" && url.pathname === "/" && (isForm || url.searchParams.has("Action"))) {
      return await stsRequest(front, at);
    }
    return await s3Request(front, at, rawPath);
  } catch (error) {
    // The client went away mid-request (its body broke off): there is nobody to answer and nothing to report.
    if (error instanceof ClientGoneError) return new Response(null, { status: 400 });
    return internalError(front, at, error);
  }
}

/** An error no part answered: logged with its stack, published on the log stream, answered 500. */
function internalError(
  front: Front,
  { request, url, sourceIp, requestId, facts }: FrontRequest,
  error: unknown,
) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    `embedded storage: ${request.method} ${url.pathname} failed: ${
      error instanceof Error ? error.stack : error
    }`,
  );
  facts.errorCode = "InternalError";
  front.streams.log.publish({
    deploymentid: front.options.deploymentId,
    level: "ERROR",
    time: new Date().toISOString(),
    api: {
      name: facts.api,
      args: { bucket: facts.bucket || undefined, object: facts.object || undefined },
    },
    remotehost: sourceIp,
    host: url.host,
    requestID: requestId,
    userAgent: request.headers.get("user-agent") ?? "",
    message,
    error: { message, source: sourceLines(error) },
  });
  return s3ErrorResponse(
    new StoreError("InternalError", "We encountered an internal error, please try again.", 500),
    request,
    url,
    requestId,
  );
}

/** The bucket a request's CORS answer depends on ("" when it names none). */
function corsBucket(front: Front, request: Request, url: URL): string {
  try {
    return addressOf(checkTarget(rawRequestTarget(request)), virtualBucketOf(front, request, url)).bucket;
  } catch {
    return "";
  }
}
