/**
 * The embedded server's HTTP front, `(request) => Response`: classifies admin / STS / S3, authenticates with
 * SigV4, authorises with IAM (or the bucket policy for anonymous requests) and dispatches. It knows nothing
 * about the console; the console reaches it over HTTP like any MinIO.
 */
import { evaluate } from "../policy/evaluate.ts";
import { normalizePolicy } from "../policy/types.ts";
import { sha256Hex } from "../s3/sigv4.ts";
import { buildXml } from "../s3/xml.ts";
import { authenticate } from "./auth/verify.ts";
import type { AdminHandler, ConditionValues, Credential, IdentityAuthority, ServerFacts, StsHandler } from "./contracts.ts";
import { type Store, StoreError } from "./fs/store.ts";
import * as buckets from "./s3/buckets.ts";
import * as configs from "./s3/bucket_configs.ts";
import { type S3Handler, type S3Request, s3ErrorResponse } from "./s3/context.ts";
import * as listing from "./s3/listing.ts";
import * as multipart from "./s3/multipart.ts";
import * as meta from "./s3/object_meta.ts";
import * as objects from "./s3/objects.ts";
import { resolveOperation } from "./s3/router.ts";

const HANDLERS: Record<string, S3Handler> = {
  ListBuckets: buckets.listBuckets,
  CreateBucket: buckets.createBucket,
  HeadBucket: buckets.headBucket,
  DeleteBucket: buckets.deleteBucket,
  GetBucketLocation: buckets.getBucketLocation,
  GetBucketVersioning: buckets.getBucketVersioning,
  PutBucketVersioning: buckets.putBucketVersioning,
  GetObjectLockConfiguration: buckets.getObjectLockConfiguration,
  PutObjectLockConfiguration: buckets.putObjectLockConfiguration,
  GetBucketTagging: buckets.getBucketTagging,
  PutBucketTagging: buckets.putBucketTagging,
  DeleteBucketTagging: buckets.deleteBucketTagging,
  GetBucketPolicy: configs.getBucketPolicy,
  PutBucketPolicy: configs.putBucketPolicy,
  DeleteBucketPolicy: configs.deleteBucketPolicy,
  GetBucketEncryption: configs.getBucketEncryption,
  PutBucketEncryption: configs.putBucketEncryption,
  DeleteBucketEncryption: configs.deleteBucketEncryption,
  GetBucketLifecycle: configs.getBucketLifecycle,
  PutBucketLifecycle: configs.putBucketLifecycle,
  DeleteBucketLifecycle: configs.deleteBucketLifecycle,
  GetBucketReplication: configs.getBucketReplication,
  PutBucketReplication: configs.putBucketReplication,
  DeleteBucketReplication: configs.deleteBucketReplication,
  GetBucketNotification: configs.getBucketNotification,
  PutBucketNotification: configs.putBucketNotification,
  GetBucketAcl: meta.getAcl,
  ListObjects: listing.listObjectsV1,
  ListObjectsV2: listing.listObjectsV2,
  ListObjectVersions: listing.listObjectVersions,
  ListMultipartUploads: listing.listMultipartUploads,
  DeleteObjects: meta.deleteObjects,
  PutObject: objects.putObject,
  CopyObject: objects.copyObject,
  GetObject: objects.getObject,
  HeadObject: objects.headObject,
  DeleteObject: objects.deleteObject,
  GetObjectAcl: meta.getAcl,
  GetObjectTagging: meta.getObjectTagging,
  PutObjectTagging: meta.putObjectTagging,
  DeleteObjectTagging: meta.deleteObjectTagging,
  GetObjectRetention: meta.getObjectRetention,
  PutObjectRetention: meta.putObjectRetention,
  GetObjectLegalHold: meta.getObjectLegalHold,
  PutObjectLegalHold: meta.putObjectLegalHold,
  CreateMultipartUpload: multipart.createMultipartUpload,
  UploadPart: multipart.uploadPart,
  CompleteMultipartUpload: multipart.completeMultipartUpload,
  AbortMultipartUpload: multipart.abortMultipartUpload,
  ListParts: multipart.listPartsHandler,
};

export interface FrontOptions {
  store: Store;
  authority: IdentityAuthority;
  facts: ServerFacts;
  admin: AdminHandler;
  sts: StsHandler;
  /** Domain for virtual-host-style requests (`bucket.domain`); path-style always works. */
  domain?: string;
  now?: () => number;
}

/** Admin request bodies larger than this are refused (minio-protocol §3.1). */
const MAX_ADMIN_BODY = 262272;

let requestCounter = 0;
const newRequestId = () => `${Date.now().toString(16).toUpperCase()}${(requestCounter++ & 0xffff).toString(16).toUpperCase().padStart(4, "0")}`;

function adminError(code: string, message: string, status: number, url: URL, requestId: string): Response {
  return Response.json(
    { Code: code, Message: message, Resource: url.pathname, RequestId: requestId, HostId: "dd9025bab4ad464b049177c95eb6ebf374d3b3fd1af9251148b658df7ac2e3e8" },
    { status, headers: { "x-amz-request-id": requestId } },
  );
}

function stsError(code: string, message: string, status: number, requestId: string): Response {
  const body = buildXml("ErrorResponse", { Error: { Type: "", Code: code, Message: message }, RequestId: requestId }, { namespace: "https://sts.amazonaws.com/doc/2011-06-15/" });
  return new Response(body, { status, headers: { "content-type": "application/xml", "x-amz-request-id": requestId } });
}

async function readAll(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new StoreError("XMinioAdminConfigTooLarge", "Configuration data provided exceeds the allowed maximum of 256KiB", 400);
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Builds the front handler. */
export function createS3Server(options: FrontOptions): (request: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  const clock = options.now ?? Date.now;

  async function admin(request: Request, url: URL, sourceIp: string, requestId: string): Promise<Response> {
    try {
      if (!request.headers.has("x-amz-content-sha256") || !(request.headers.get("authorization") ?? "").startsWith("AWS4-HMAC-SHA256")) {
        throw new StoreError("AccessDenied", "Access Denied.", 403);
      }
      const length = Number(request.headers.get("content-length") ?? "0");
      if (length > MAX_ADMIN_BODY) throw new StoreError("XMinioAdminConfigTooLarge", "Configuration data provided exceeds the allowed maximum of 256KiB", 400);
      const auth = await authenticate(request, url, options.authority, { service: "s3", now: clock() });
      const body = await readAll(auth.body, MAX_ADMIN_BODY);
      return await options.admin({ request, url, credential: auth.credential, body, sourceIp, requestId });
    } catch (error) {
      if (error instanceof StoreError) return adminError(error.code, error.message, error.status, url, requestId);
      throw error;
    }
  }

  async function sts(request: Request, url: URL, sourceIp: string, requestId: string): Promise<Response> {
    try {
      let credential: Credential | null = null;
      const body = new Uint8Array(await request.arrayBuffer());
      if ((request.headers.get("authorization") ?? "").startsWith("AWS4-HMAC-SHA256")) {
        const bodyHash = await sha256Hex(body);
        credential = (await authenticate(request, url, options.authority, { service: "sts", now: clock(), bodyHash })).credential;
      }
      return await options.sts({ request, url, credential, body, sourceIp, requestId });
    } catch (error) {
      if (error instanceof StoreError) return stsError("AccessDenied", error.message, 403, requestId);
      throw error;
    }
  }

  function addressOf(url: URL, host: string): { bucket: string; key: string } {
    const path = decodeURIComponent(url.pathname);
    const hostname = host.replace(/:\d+$/, "");
    if (options.domain && hostname.endsWith(`.${options.domain}`)) {
      return { bucket: hostname.slice(0, -options.domain.length - 1), key: path.slice(1) };
    }
    const rest = path.slice(1);
    const slash = rest.indexOf("/");
    return slash === -1 ? { bucket: rest, key: "" } : { bucket: rest.slice(0, slash), key: rest.slice(slash + 1) };
  }

  async function s3(request: Request, url: URL, sourceIp: string, requestId: string): Promise<Response> {
    try {
      let address;
      try {
        address = addressOf(url, request.headers.get("host") ?? url.host);
      } catch {
        throw new StoreError("InvalidURI", "Couldn't parse the specified URI.", 400);
      }
      const { bucket, key } = address;
      const operation = resolveOperation(request.method, bucket, key, url.searchParams, request.headers);
      if (!operation) throw new StoreError("NotImplemented", "A header you provided implies functionality that is not implemented", 501);
      const now = clock();
      const auth = await authenticate(request, url, options.authority, { service: "s3", now });
      const baseConditions = (cred: Credential | null): ConditionValues => ({
        "aws:SourceIp": [sourceIp],
        "aws:SecureTransport": [String(url.protocol === "https:")],
        "aws:CurrentTime": [new Date(now).toISOString()],
        "aws:EpochTime": [String(Math.floor(now / 1000))],
        "aws:UserAgent": [request.headers.get("user-agent") ?? ""],
        "aws:Referer": [request.headers.get("referer") ?? ""],
        "s3:signatureversion": ["AWS4-HMAC-SHA256"],
        "s3:authType": [auth.authType === "presigned" ? "REST-QUERY-STRING" : "REST-HEADER"],
        ...(cred ? { "aws:username": [cred.parentUser], "aws:userid": [cred.parentUser], "aws:principaltype": [cred.kind === "root" ? "Account" : "User"] } : {}),
        ...(url.searchParams.get("versionId") ? { "s3:versionid": [url.searchParams.get("versionId")!] } : {}),
        ...(operation.name.startsWith("List") && bucket ? listing.listingConditions(url.searchParams) : {}),
      });
      const policyCache = new Map<string, ReturnType<typeof normalizePolicy> | null>();
      const bucketPolicy = async (name: string) => {
        if (!policyCache.has(name)) {
          const text = options.store.buckets.has(name) ? await options.store.getDocument(name, "policy.json") : undefined;
          policyCache.set(name, text ? normalizePolicy(JSON.parse(text)) : null);
        }
        return policyCache.get(name) ?? null;
      };
      // Anonymous requests are decided by the bucket policy alone (MinIO semantics, §6.3).
      if (!auth.credential) await bucketPolicy(bucket);
      const allowed = (action: string, b: string, k: string, extra: ConditionValues = {}): boolean => {
        const conditions = { ...baseConditions(auth.credential), ...extra };
        if (auth.credential) return options.authority.isAllowed(auth.credential, action, b, k, conditions);
        const policy = policyCache.get(b);
        return !!policy && evaluate([{ name: "bucket", policy }], { action, bucket: b, key: k, conditions }).allowed;
      };
      if (operation.name === "CopyObject") {
        const source = (request.headers.get("x-amz-copy-source") ?? "").replace(/^\/+/, "").split("?")[0];
        const sourceBucket = decodeURIComponent(source.split("/")[0] ?? "");
        if (!auth.credential && sourceBucket) await bucketPolicy(sourceBucket);
      }
      // Listing buckets and multi-delete check per bucket/object inside the handler.
      const checkedInside = operation.name === "ListBuckets" || operation.name === "DeleteObjects";
      if (!checkedInside && !allowed(operation.action, bucket, key)) throw new StoreError("AccessDenied", "Access Denied.", 403);
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
      };
      const response = await HANDLERS[operation.name](ctx);
      response.headers.set("x-amz-request-id", requestId);
      response.headers.set("server", "MinIO");
      return response;
    } catch (error) {
      await request.body?.cancel().catch(() => {});
      if (error instanceof StoreError) return s3ErrorResponse(error, request, url, requestId);
      if (error instanceof URIError) return s3ErrorResponse(new StoreError("InvalidURI", "Couldn't parse the specified URI.", 400), request, url, requestId);
      throw error;
    }
  }

  return async (request, info) => {
    const url = new URL(request.url);
    const requestId = newRequestId();
    const sourceIp = info && "hostname" in info.remoteAddr ? info.remoteAddr.hostname : "127.0.0.1";
    try {
      if (url.pathname.startsWith("/minio/admin/")) {
        if (!url.pathname.startsWith("/minio/admin/v3/")) return adminError("XMinioAdminVersionMismatch", "This 'admin' API is not supported by server in 'mode-server-xl'", 426, url, requestId);
        return await admin(request, url, sourceIp, requestId);
      }
      const isForm = (request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded");
      if (request.method === "POST" && url.pathname === "/" && (isForm || url.searchParams.has("Action"))) {
        return await sts(request, url, sourceIp, requestId);
      }
      return await s3(request, url, sourceIp, requestId);
    } catch (error) {
      console.error(`embedded storage: ${request.method} ${url.pathname} failed: ${error instanceof Error ? error.stack : error}`);
      return s3ErrorResponse(new StoreError("InternalError", "We encountered an internal error, please try again.", 500), request, url, requestId);
    }
  };
}
