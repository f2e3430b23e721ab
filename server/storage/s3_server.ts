/**
 * The embedded server's HTTP front, `(request) => Response`: classifies admin / STS / S3, authenticates with
 * SigV4, authorises with IAM (or the bucket policy for anonymous requests) and dispatches. It knows nothing
 * about the console; the console reaches it over HTTP like any MinIO.
 */
import { FORWARDED_PROOF_HEADER, vouchedAddress } from "../lib/s3/forwarded_client.ts";
import { sha256Hex } from "../lib/s3/sigv4.ts";
import { GuessThrottle, throttledAuthenticate } from "./auth/guess_throttle.ts";
import { adminTooLarge, MAX_ADMIN_BODY, MAX_STS_BODY, readAll, stsTooLarge } from "./core/bounded_body.ts";
import { accessCheck, requestConditions } from "./s3/access.ts";
import { healthCheck } from "./s3/health.ts";
import type {
  AdminHandler,
  Credential,
  IdentityAuthority,
  ServerFacts,
  StsHandler,
} from "./core/contracts.ts";
import type { Store } from "./fs/store.ts";
import * as cors from "./s3/cors.ts";
import type { S3Request } from "./s3/context.ts";
import { HANDLERS } from "./s3/handlers.ts";
import { checkContentMd5 } from "./s3/checksums.ts";
import { malformed, type PostForm, readPostForm } from "./s3/post_policy.ts";
import { boundaryOf } from "../lib/formats/multipart_form.ts";
import { resolveOperation } from "./s3/router.ts";
import { ClientGoneError, rawRequestTarget, type ServeInfo } from "../lib/http/listener.ts";
import { bucketReferenceProblem } from "../lib/contract/bucket_names.ts";
import { addressOf, checkTarget } from "./s3/address.ts";
import { buildEventRecord, type EventObject } from "./events/records.ts";
import { createStorageStreams, type StorageStreams } from "./streams/mod.ts";
import { adminApiName } from "./streams/api_names.ts";
import { sourceLines } from "./streams/log_entry.ts";
import { observeRequest, type RequestFacts } from "./streams/requests.ts";
import { METRICS_PATH_PREFIX, type MetricsEndpoint } from "./metrics/mod.ts";
import {
  accessDenied,
  adminErrorResponse,
  s3ErrorResponse,
  StoreError,
  stsErrorResponse,
} from "./core/errors.ts";

export interface FrontOptions {
  store: Store;
  authority: IdentityAuthority;
  facts: ServerFacts;
  admin: AdminHandler;
  sts: StsHandler;
  /** Domain for virtual-host-style requests (`bucket.domain`); path-style always works. */
  domain?: string;
  now?: () => number;
  /** Where requests, bucket events and log entries are published (a private set when omitted). */
  streams?: StorageStreams;
  /** Deployment id reported in event records. */
  deploymentId?: string;
  /** The Prometheus endpoints under /minio/v2/metrics/ (absent: those paths are S3 paths like any other). */
  metrics?: MetricsEndpoint;
  /**
   * Key of the console that started this server (server/lib/s3/forwarded_client.ts): a request vouched for with it
   * counts as coming from the client address it names (sign-ins through the console are throttled per person).
   */
  forwardingKey?: string;
}

let requestCounter = 0;
const newRequestId = () =>
  `${Date.now().toString(16).toUpperCase()}${
    (requestCounter++ & 0xffff).toString(16).toUpperCase().padStart(4, "0")
  }`;

/** Records who signed the request for trace, metrics and audit. */
function noteSigner(facts: RequestFacts, credential: Credential | null): void {
  if (!credential) return;
  facts.accessKey = credential.accessKey;
  facts.parentUser = credential.parentUser;
}

/** Builds the front handler. */
export function createS3Server(
  options: FrontOptions,
): (request: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  const clock = options.now ?? Date.now;
  const streams = options.streams ?? createStorageStreams();
  const guesses = new GuessThrottle(clock);
  const verify = throttledAuthenticate(options.authority, guesses);
  /**
   * A client that sent `Expect: 100-continue` waits for "100 Continue" before its body: it is sent once the
   * request is authenticated and authorised (or when the body is what authenticates it), so a refused client
   * is answered before it uploads anything.
   */
  const continues = new WeakMap<Request, () => void>();
  const sendContinue = (request: Request) => continues.get(request)?.();

  async function admin(
    request: Request,
    url: URL,
    sourceIp: string,
    requestId: string,
    facts: RequestFacts,
  ): Promise<Response> {
    facts.kind = "admin";
    facts.api = adminApiName(request.method, url.pathname.slice("/minio/admin/v3/".length));
    try {
      if (
        !request.headers.has("x-amz-content-sha256") ||
        !(request.headers.get("authorization") ?? "").startsWith("AWS4-HMAC-SHA256")
      ) {
        throw new StoreError("AccessDenied", "Access Denied.", 403);
      }
      const length = Number(request.headers.get("content-length") ?? "0");
      if (length > MAX_ADMIN_BODY) throw adminTooLarge();
      const auth = await verify(request, url, sourceIp, { service: "s3", now: clock() });
      noteSigner(facts, auth.credential);
      sendContinue(request);
      const body = await readAll(auth.body, null, MAX_ADMIN_BODY, adminTooLarge);
      return await options.admin({ request, url, credential: auth.credential, body, sourceIp, requestId });
    } catch (error) {
      if (error instanceof StoreError) {
        facts.errorCode = error.code;
        return adminErrorResponse(error, url, requestId);
      }
      throw error;
    }
  }

  async function sts(
    request: Request,
    url: URL,
    sourceIp: string,
    requestId: string,
    facts: RequestFacts,
  ): Promise<Response> {
    facts.kind = "sts";
    facts.api = url.searchParams.get("Action") ?? "";
    try {
      let credential: Credential | null = null;
      sendContinue(request); // the signature covers the body: it must be read to be checked
      const body = await readAll(
        request.body,
        request.headers.get("content-length"),
        MAX_STS_BODY,
        stsTooLarge,
      );
      if ((request.headers.get("authorization") ?? "").startsWith("AWS4-HMAC-SHA256")) {
        const bodyHash = await sha256Hex(body);
        credential = (await verify(request, url, sourceIp, {
          service: "sts",
          now: clock(),
          bodyHash,
          region: options.facts.region(),
        })).credential;
        noteSigner(facts, credential);
      }
      if (!facts.api) facts.api = new URLSearchParams(new TextDecoder().decode(body)).get("Action") ?? "STS";
      return await options.sts({ request, url, credential, body, sourceIp, requestId });
    } catch (error) {
      if (error instanceof StoreError) {
        // Too large, too fast and a wrong region keep their answers (the last names the region to sign for);
        // every other failure is STS's AccessDenied (§2.5).
        const own = error.status === 413 || error.status === 503 ||
          error.code === "AuthorizationHeaderMalformed";
        facts.errorCode = own ? error.code : "AccessDenied";
        await request.body?.cancel().catch(() => {});
        const answered = own ? error : new StoreError("AccessDenied", error.message, 403, error.headers);
        return stsErrorResponse(answered, requestId);
      }
      throw error;
    }
  }

  /** The bucket a virtual-host-style request names in its Host (`bucket.domain`), if any. */
  function virtualBucketOf(host: string): string | undefined {
    const hostname = host.replace(/:\d+$/, "");
    return options.domain && hostname.endsWith(`.${options.domain}`)
      ? hostname.slice(0, -options.domain.length - 1)
      : undefined;
  }

  async function s3(
    request: Request,
    url: URL,
    rawPath: string,
    sourceIp: string,
    requestId: string,
    facts: RequestFacts,
  ): Promise<Response> {
    try {
      const address = addressOf(rawPath, virtualBucketOf(request.headers.get("host") ?? url.host));
      const { bucket } = address;
      let key = address.key;
      facts.bucket = bucket;
      facts.object = key;
      const operation = resolveOperation(request.method, bucket, key, url.searchParams, request.headers);
      if (!operation) {
        throw new StoreError(
          "NotImplemented",
          "A header you provided implies functionality that is not implemented",
          501,
        );
      }
      // CreateBucket applies the strict rules itself; any other request names a bucket that may exist.
      const nameProblem = bucket && operation.name !== "CreateBucket" ? bucketReferenceProblem(bucket) : null;
      if (nameProblem) {
        throw new StoreError("InvalidBucketName", `The specified bucket is not valid: ${nameProblem}.`, 400);
      }
      facts.api = operation.name;
      const now = clock();
      // Listing buckets and locating one work with any region: that is how clients learn it (§1.7).
      const anyRegion = operation.name === "ListBuckets" || operation.name === "GetBucketLocation";
      let form: PostForm | undefined;
      let auth;
      if (operation.name === "PostObject") {
        // The form's signed policy authenticates it; its `key` field names the object.
        options.store.bucket(bucket);
        const boundary = boundaryOf(request.headers.get("content-type"));
        if (!boundary) throw malformed();
        sendContinue(request); // the form's policy is what authenticates it
        form = await readPostForm(
          request,
          bucket,
          boundary,
          options.authority,
          now,
          (key, check) => guesses.guard(key, sourceIp, check),
        );
        auth = form.auth;
        key = form.key;
        facts.object = key;
      } else {
        auth = await verify(request, url, sourceIp, {
          service: "s3",
          now,
          region: anyRegion ? "" : options.facts.region(),
          virtualBucket: virtualBucketOf(request.headers.get("host") ?? url.host),
        });
      }
      noteSigner(facts, auth.credential);
      checkContentMd5(request.headers);
      if (auth.contentLength !== undefined && !Number.isNaN(auth.contentLength)) {
        facts.rx = auth.contentLength;
      }
      const access = accessCheck(
        options.store,
        options.authority,
        auth.credential,
        requestConditions(request, url, sourceIp, now, auth, operation.name, bucket),
      );
      const allowed = access.allowed;
      // Anonymous requests are decided by the bucket policy alone (MinIO semantics, §6.3).
      if (!auth.credential) await access.loadBucketPolicy(bucket);
      if (operation.name === "CopyObject" || operation.name === "UploadPartCopy") {
        const source = (request.headers.get("x-amz-copy-source") ?? "").replace(/^\/+/, "").split("?")[0];
        const sourceBucket = decodeURIComponent(source.split("/")[0] ?? "");
        if (!auth.credential && sourceBucket) await access.loadBucketPolicy(sourceBucket);
      }
      // Listing buckets and multi-delete check per bucket/object inside the handler.
      const checkedInside = operation.name === "ListBuckets" || operation.name === "DeleteObjects";
      if (!checkedInside && !allowed(operation.action, bucket, key)) {
        throw new StoreError("AccessDenied", "Access Denied.", 403);
      }
      sendContinue(request);
      const pending: { name: string; object: EventObject }[] = [];
      const ctx: S3Request = {
        request,
        url,
        query: url.searchParams,
        bucket,
        key,
        auth,
        requestId,
        store: options.store,
        facts: options.facts,
        now: new Date(now),
        allowed,
        form,
        streams,
        sourceIp,
        notify: (name, object) => {
          // A replica written by a replicating peer causes no event (minio-protocol-2 §1.1).
          if (streams.events.active && !request.headers.has("x-minio-source-replication-request")) {
            pending.push({ name, object });
          }
        },
      };
      const response = await HANDLERS[operation.name](ctx);
      response.headers.set("x-amz-request-id", requestId);
      response.headers.set("server", "MinIO");
      if (pending.length > 0 && response.status < 300) {
        publishEvents(pending, request, url, sourceIp, requestId, auth.credential);
      }
      return response;
    } catch (error) {
      await request.body?.cancel().catch(() => {});
      if (error instanceof StoreError) {
        facts.errorCode = error.code;
        return s3ErrorResponse(error, request, url, requestId);
      }
      if (error instanceof URIError) {
        facts.errorCode = "InvalidURI";
        return s3ErrorResponse(
          new StoreError("InvalidURI", "Couldn't parse the specified URI.", 400),
          request,
          url,
          requestId,
        );
      }
      throw error;
    }
  }

  /** Events are published after the response is built, carrying the request id the client saw (§1.1). */
  function publishEvents(
    pending: { name: string; object: EventObject }[],
    request: Request,
    url: URL,
    sourceIp: string,
    requestId: string,
    credential: Credential | null,
  ) {
    const context = {
      principalId: credential?.parentUser ?? "",
      sourceIp,
      userAgent: request.headers.get("user-agent") ?? "",
      requestId,
      region: options.facts.region(),
      deploymentId: options.deploymentId ?? "",
      originEndpoint: url.origin,
      range: request.headers.get("range") ?? undefined,
    };
    for (const { name, object } of pending) {
      const record = buildEventRecord(name, object.bucket, object, context);
      streams.events.publish({ bucket: object.bucket, key: object.key, eventName: name, record });
    }
  }

  async function route(
    request: Request,
    url: URL,
    sourceIp: string,
    requestId: string,
    facts: RequestFacts,
  ): Promise<Response> {
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
        return await admin(request, url, sourceIp, requestId, facts);
      }
      const isForm = (request.headers.get("content-type") ?? "").startsWith(
        "application/x-www-form-urlencoded",
      );
      if (request.method === "POST" && url.pathname === "/" && (isForm || url.searchParams.has("Action"))) {
        return await sts(request, url, sourceIp, requestId, facts);
      }
      return await s3(request, url, rawPath, sourceIp, requestId, facts);
    } catch (error) {
      // The client went away mid-request (its body broke off): there is nobody to answer and nothing to report.
      if (error instanceof ClientGoneError) return new Response(null, { status: 400 });
      const message = error instanceof Error ? error.message : String(error);
      console.error(
        `embedded storage: ${request.method} ${url.pathname} failed: ${
          error instanceof Error ? error.stack : error
        }`,
      );
      facts.errorCode = "InternalError";
      streams.log.publish({
        deploymentid: options.deploymentId,
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
        error: {
          message,
          source: sourceLines(error),
        },
      });
      return s3ErrorResponse(
        new StoreError("InternalError", "We encountered an internal error, please try again.", 500),
        request,
        url,
        requestId,
      );
    }
  }

  /** The bucket a request's CORS answer depends on ("" when it names none). */
  function corsBucket(request: Request, url: URL): string {
    try {
      return addressOf(
        checkTarget(rawRequestTarget(request)),
        virtualBucketOf(request.headers.get("host") ?? url.host),
      ).bucket;
    } catch {
      return "";
    }
  }

  return async (request, info) => {
    const url = new URL(request.url);
    const deferred = (info as ServeInfo | undefined)?.sendContinue;
    if (deferred) continues.set(request, () => deferred.call(info));
    const requestId = newRequestId();
    // Scrapes are not S3 traffic: they are answered before the request is observed, so a scraper never shows
    // up in the request counters, trace or audit it reads.
    if (options.metrics && url.pathname.startsWith(METRICS_PATH_PREFIX)) {
      const answer = await options.metrics.handle(request, url);
      return answer ?? adminErrorResponse(accessDenied(), url, requestId);
    }
    if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      try {
        return await cors.preflight(request, options.store, options.facts, corsBucket(request, url));
      } catch (error) {
        if (error instanceof StoreError) return s3ErrorResponse(error, request, url, requestId);
        throw error;
      }
    }
    const peer = info && "hostname" in info.remoteAddr ? info.remoteAddr.hostname : "127.0.0.1";
    const sourceIp = options.forwardingKey && request.headers.has(FORWARDED_PROOF_HEADER)
      ? await vouchedAddress(options.forwardingKey, request.headers, clock()) ?? peer
      : peer;
    const observed = observeRequest(streams.requests, request, url, sourceIp, requestId);
    const response = observed.finish(await route(request, url, sourceIp, requestId, observed.facts));
    return request.headers.has("origin")
      ? await cors.addCorsHeaders(request, response, options.store, options.facts, corsBucket(request, url))
      : response;
  };
}
