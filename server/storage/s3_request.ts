/**
 * One S3 request through the front: its address and operation, authentication (SigV4 or SigV2, or a form's
 * signed policy), authorisation (IAM, or the bucket policy for anonymous requests), then its handler, and
 * the bucket events it caused published once it succeeded.
 */
import { bucketReferenceProblem } from "../lib/contract/bucket_names.ts";
import { boundaryOf } from "../lib/formats/multipart_form.ts";
import { accessDenied, s3ErrorResponse, StoreError } from "./core/errors.ts";
import { buildEventRecord, type EventObject } from "./events/records.ts";
import { type Front, type FrontRequest, noteSigner, virtualBucketOf } from "./front.ts";
import { accessCheck, requestConditions } from "./s3/access.ts";
import { addressOf } from "./s3/address.ts";
import { checkContentMd5 } from "./s3/checksums.ts";
import type { S3Request } from "./s3/context.ts";
import { HANDLERS } from "./s3/handlers.ts";
import { malformed, type PostForm, readPostForm } from "./s3/post_policy.ts";
import { resolveOperation } from "./s3/router.ts";
import type { Authenticated } from "./auth/authenticated.ts";

type Operation = NonNullable<ReturnType<typeof resolveOperation>>;

interface Target {
  bucket: string;
  key: string;
  operation: Operation;
}

/** Answers an S3 request whose target (`rawPath`) the front has checked. */
export async function s3Request(front: Front, at: FrontRequest, rawPath: string): Promise<Response> {
  const { request, url, requestId, facts } = at;
  try {
    const target = targetOf(front, at, rawPath);
    const now = front.clock();
    const { auth, form } = await authenticate(front, at, target, now);
    if (form) target.key = facts.object = form.key;
    noteSigner(facts, auth.credential);
    checkContentMd5(request.headers);
    if (auth.contentLength !== undefined && !Number.isNaN(auth.contentLength)) {
      facts.rx = auth.contentLength;
    }
    const allowed = await authorize(front, at, target, auth, now);
    front.sendContinue(request);
    return await dispatch(front, at, target, { auth, form, allowed, now });
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

/** The bucket, key and operation a request names. */
function targetOf(front: Front, { request, url, facts }: FrontRequest, rawPath: string): Target {
  const { bucket, key } = addressOf(rawPath, virtualBucketOf(front, request, url));
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
  return { bucket, key, operation };
}

/** Who sent the request: its signature's key, or a form's policy's (whose `key` field names the object). */
async function authenticate(
  front: Front,
  { request, url, sourceIp }: FrontRequest,
  { bucket, operation }: Target,
  now: number,
): Promise<{ auth: Authenticated; form?: PostForm }> {
  const { options } = front;
  if (operation.name === "PostObject") {
    options.store.bucket(bucket);
    const boundary = boundaryOf(request.headers.get("content-type"));
    if (!boundary) throw malformed();
    front.sendContinue(request); // the form's policy is what authenticates it
    const form = await readPostForm(
      request,
      bucket,
      boundary,
      options.authority,
      now,
      (key, check) => front.guesses.guard(key, sourceIp, check),
    );
    return { auth: form.auth, form };
  }
  // Listing buckets and locating one work with any region: that is how clients learn it (§1.7).
  const anyRegion = operation.name === "ListBuckets" || operation.name === "GetBucketLocation";
  const auth = await front.verify(request, url, sourceIp, {
    service: "s3",
    now,
    region: anyRegion ? "" : options.facts.region(),
    virtualBucket: virtualBucketOf(front, request, url),
  });
  return { auth };
}

/** Whether the signer may do what the request asks; refuses it otherwise. */
async function authorize(
  front: Front,
  { request, url, sourceIp }: FrontRequest,
  { bucket, key, operation }: Target,
  auth: Authenticated,
  now: number,
): Promise<S3Request["allowed"]> {
  const access = accessCheck(
    front.options.store,
    front.options.authority,
    auth.credential,
    requestConditions(request, url, sourceIp, now, auth, operation.name, bucket),
  );
  // Anonymous requests are decided by the bucket policy alone (MinIO semantics, §6.3).
  if (!auth.credential) await access.loadBucketPolicy(bucket);
  if (operation.name === "CopyObject" || operation.name === "UploadPartCopy") {
    const source = (request.headers.get("x-amz-copy-source") ?? "").replace(/^\/+/, "").split("?")[0];
    const sourceBucket = decodeURIComponent(source.split("/")[0] ?? "");
    if (!auth.credential && sourceBucket) await access.loadBucketPolicy(sourceBucket);
  }
  // Listing buckets, multi-delete and an archive's extraction check per bucket/object inside the handler.
  const checkedInside = ["ListBuckets", "DeleteObjects", "PutObjectExtract"].includes(operation.name);
  if (!checkedInside && !access.allowed(operation.action, bucket, key)) throw accessDenied();
  return access.allowed;
}

/** Runs the operation's handler; the events it reported are published only if it succeeded. */
async function dispatch(
  front: Front,
  at: FrontRequest,
  { bucket, key, operation }: Target,
  { auth, form, allowed, now }: {
    auth: Authenticated;
    form?: PostForm;
    allowed: S3Request["allowed"];
    now: number;
  },
): Promise<Response> {
  const { request, url, sourceIp, requestId } = at;
  const { options, streams } = front;
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
  if (pending.length > 0 && response.status < 300) publishEvents(front, at, pending, auth);
  return response;
}

/** Events are published after the response is built, carrying the request id the client saw (§1.1). */
function publishEvents(
  front: Front,
  { request, url, sourceIp, requestId }: FrontRequest,
  pending: { name: string; object: EventObject }[],
  auth: Authenticated,
): void {
  const context = {
    principalId: auth.credential?.parentUser ?? "",
    sourceIp,
    userAgent: request.headers.get("user-agent") ?? "",
    requestId,
    region: front.options.facts.region(),
    deploymentId: front.options.deploymentId ?? "",
    originEndpoint: url.origin,
    range: request.headers.get("range") ?? undefined,
  };
  for (const { name, object } of pending) {
    const record = buildEventRecord(name, object.bucket, object, context);
    front.streams.events.publish({ bucket: object.bucket, key: object.key, eventName: name, record });
  }
}
