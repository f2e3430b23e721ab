/**
 * CORS on the embedded server: per-bucket configurations (AWS PutBucketCors semantics: the first rule
 * matching origin, method and requested headers answers) and, for buckets without one and for every other
 * path, MinIO's global `api cors_allow_origin` list (minio-protocol-2 §10.2, default "*"). Browsers then
 * reach the server directly, as the console's presigned part uploads do.
 */
import { type CorsRule, corsXml, parseCorsXml } from "../../lib/s3/ops/cors.ts";
import type { ServerFacts } from "../core/contracts.ts";
import type { Store } from "../fs/store.ts";
import { bucketOf, emptyResponse, readSmallBody, requireContentMd5, type S3Request } from "./context.ts";
import { StoreError } from "../core/errors.ts";

const DOCUMENT = "cors.json";
const METHODS = ["GET", "PUT", "HEAD", "POST", "DELETE"];
/** What MinIO's global CORS exposes to scripts (its configured list, canonicalised). */
const GLOBAL_EXPOSE =
  "Date, Etag, Server, Connection, Accept-Ranges, Content-Range, Content-Encoding, Content-Length, Content-Type, Content-Disposition, Last-Modified, Content-Language, Cache-Control, Retry-After, X-Amz-Bucket-Region, Expires, X-Amz*, X-Amz*, *";
const GLOBAL_METHODS = ["GET", "PUT", "HEAD", "POST", "DELETE", "OPTIONS", "PATCH"];

const malformed = (detail: string) =>
  new StoreError(
    "MalformedXML",
    `The XML you provided was not well-formed or did not validate against our published schema. (${detail})`,
    400,
  );

/** `*` matches any run of characters; everything else literally (case-insensitive for headers). */
function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const escaped = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")).join(".*");
  return new RegExp(`^${escaped}$`, ignoreCase ? "i" : "").test(value);
}

function validate(rules: CorsRule[]): void {
  if (rules.length === 0) throw malformed("at least one CORSRule is required");
  if (rules.length > 100) throw malformed("at most 100 CORSRules are allowed");
  for (const rule of rules) {
    if (!rule.allowedOrigins.length || !rule.allowedMethods.length) {
      throw malformed("each CORSRule needs an AllowedOrigin and an AllowedMethod");
    }
    for (const method of rule.allowedMethods) {
      if (!METHODS.includes(method)) {
        throw new StoreError(
          "InvalidRequest",
          `Found unsupported HTTP method in CORS config. Unsupported method is ${method}`,
          400,
        );
      }
    }
    for (const origin of rule.allowedOrigins) {
      if (origin.split("*").length > 2) {
        throw new StoreError(
          "InvalidRequest",
          `AllowedOrigin "${origin}" can not have more than one wildcard.`,
          400,
        );
      }
    }
    for (const header of rule.allowedHeaders) {
      if (header.split("*").length > 2) {
        throw new StoreError(
          "InvalidRequest",
          `AllowedHeader "${header}" can not have more than one wildcard.`,
          400,
        );
      }
    }
    if (
      rule.maxAgeSeconds !== undefined && (!Number.isInteger(rule.maxAgeSeconds) || rule.maxAgeSeconds < 0)
    ) throw malformed("MaxAgeSeconds must be a whole number");
  }
}

export async function getBucketCors(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const text = await ctx.store.getDocument(ctx.bucket, DOCUMENT);
  if (!text) throw new StoreError("NoSuchCORSConfiguration", "The CORS configuration does not exist", 404);
  return new Response(corsXml(JSON.parse(text)), { headers: { "content-type": "application/xml" } });
}

export async function putBucketCors(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  requireContentMd5(ctx);
  let rules: CorsRule[];
  try {
    rules = parseCorsXml(await readSmallBody(ctx, 64 * 1024));
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw malformed(error instanceof Error ? error.message : String(error));
  }
  validate(rules);
  await ctx.store.putDocument(ctx.bucket, DOCUMENT, JSON.stringify(rules));
  return emptyResponse(200);
}

export async function deleteBucketCors(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await ctx.store.putDocument(ctx.bucket, DOCUMENT, undefined);
  return emptyResponse(204);
}

/** A bucket's CORS rules, or null when it has none (or does not exist): the global setting applies then. */
async function bucketRules(store: Store, bucket: string): Promise<CorsRule[] | null> {
  if (!bucket || !store.buckets.has(bucket)) return null;
  const text = await store.getDocument(bucket, DOCUMENT);
  return text ? JSON.parse(text) : null;
}

function matchingRule(
  rules: CorsRule[],
  origin: string,
  method: string,
  requestHeaders: string[],
): CorsRule | undefined {
  return rules.find((rule) =>
    rule.allowedOrigins.some((o) => wildcardMatch(o, origin)) &&
    rule.allowedMethods.includes(method) &&
    requestHeaders.every((h) => rule.allowedHeaders.some((allowed) => wildcardMatch(allowed, h, true)))
  );
}

const globalAllows = (facts: ServerFacts, origin: string) =>
  facts.corsAllowOrigins().some((o) => wildcardMatch(o, origin));

/** Answers an OPTIONS preflight for `bucket` ("" outside buckets). */
export async function preflight(
  request: Request,
  store: Store,
  facts: ServerFacts,
  bucket: string,
): Promise<Response> {
  const origin = request.headers.get("origin") ?? "";
  const method = (request.headers.get("access-control-request-method") ?? "").toUpperCase();
  const requested = (request.headers.get("access-control-request-headers") ?? "").split(",").map((h) =>
    h.trim()
  ).filter((h) => h !== "");
  const vary = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";
  const rules = await bucketRules(store, bucket);
  if (rules) {
    const rule = origin ? matchingRule(rules, origin, method, requested) : undefined;
    if (!rule) {
      throw new StoreError(
        "AccessForbidden",
        "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
        403,
      );
    }
    const headers: Record<string, string> = {
      "access-control-allow-origin": rule.allowedOrigins.includes("*") ? "*" : origin,
      "access-control-allow-methods": rule.allowedMethods.join(", "),
      vary,
    };
    if (!rule.allowedOrigins.includes("*")) headers["access-control-allow-credentials"] = "true";
    if (requested.length) headers["access-control-allow-headers"] = requested.join(", ");
    if (rule.maxAgeSeconds !== undefined) headers["access-control-max-age"] = String(rule.maxAgeSeconds);
    if (rule.exposeHeaders.length) headers["access-control-expose-headers"] = rule.exposeHeaders.join(", ");
    return new Response(null, { status: 200, headers });
  }
  // MinIO's global CORS answers 204 whether or not the origin is allowed, with headers only when it is.
  const headers: Record<string, string> = { vary };
  if (origin && globalAllows(facts, origin) && GLOBAL_METHODS.includes(method)) {
    headers["access-control-allow-origin"] = origin;
    headers["access-control-allow-methods"] = method;
    headers["access-control-allow-credentials"] = "true";
    if (requested.length) headers["access-control-allow-headers"] = requested.join(", ");
  }
  return new Response(null, { status: 204, headers });
}

/** Adds the CORS headers an actual (non-preflight) cross-origin request gets. */
export async function addCorsHeaders(
  request: Request,
  response: Response,
  store: Store,
  facts: ServerFacts,
  bucket: string,
): Promise<Response> {
  const origin = request.headers.get("origin");
  if (!origin) return response;
  const rules = await bucketRules(store, bucket);
  const headers = new Headers(response.headers);
  if (rules) {
    const rule = matchingRule(rules, origin, request.method.toUpperCase(), []);
    if (!rule) return response;
    headers.set("access-control-allow-origin", rule.allowedOrigins.includes("*") ? "*" : origin);
    if (!rule.allowedOrigins.includes("*")) headers.set("access-control-allow-credentials", "true");
    if (rule.exposeHeaders.length) {
      headers.set("access-control-expose-headers", rule.exposeHeaders.join(", "));
    }
  } else {
    if (!globalAllows(facts, origin) || !GLOBAL_METHODS.includes(request.method.toUpperCase())) {
      return response;
    }
    headers.set("access-control-allow-origin", origin);
    headers.set("access-control-allow-credentials", "true");
    headers.set("access-control-expose-headers", GLOBAL_EXPOSE);
  }
  headers.append("vary", "Origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
