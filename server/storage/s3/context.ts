/**
 * What every S3 handler of the embedded server receives, and the response helpers they share (XML bodies in
 * S3's namespace, error XML, common headers; minio-protocol §5.1, §5.21).
 */
import { buildXml, parseXml, type XmlNode, type XmlObject } from "../../lib/s3/xml.ts";
import type { ServerFacts } from "../core/contracts.ts";
import type { EventObject } from "../events/records.ts";
import type { Store } from "../fs/store.ts";
import { readAll } from "../core/bounded_body.ts";
import type { PostForm } from "./post_policy.ts";
import type { StorageStreams } from "../streams/mod.ts";
import { StoreError } from "../core/errors.ts";
import type { BucketState } from "../core/records.ts";
import { checksummedBody, declaredChecksum } from "../write/checksums.ts";
import type { Authenticated } from "../auth/authenticated.ts";

export interface S3Request {
  request: Request;
  url: URL;
  query: URLSearchParams;
  bucket: string;
  key: string;
  auth: Authenticated;
  requestId: string;
  store: Store;
  facts: ServerFacts;
  now: Date;
  /** A browser-form upload's fields (PostObject only). */
  form?: PostForm;
  /** Authorises a further action (copy source, per-object checks in multi-delete). */
  allowed: (action: string, bucket: string, key: string, extra?: Record<string, string[]>) => boolean;
  /**
   * Reports a bucket event (minio-protocol-2 §1.2) caused by this request; it is published once the handler
   * has returned a success, with the request id the client sees.
   */
  notify: (eventName: string, object: EventObject) => void;
  /** The server's live streams (ListenBucketNotification reads bucket events from them). */
  streams: StorageStreams;
  /** The client's address (SSE-C keys are taken over plain HTTP only from loopback). */
  sourceIp?: string;
}

export type S3Handler = (ctx: S3Request) => Promise<Response>;

export const OWNER = {
  ID: "02d6176db174dc93cb1b899f7c6078f08654445fe8cf1b6ce98d8855f66bdbf4",
  DisplayName: "minio",
};

export function xmlResponse(
  root: string,
  body: XmlObject,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(buildXml(root, body), {
    status: init.status ?? 200,
    headers: { "content-type": "application/xml", ...(init.headers ?? {}) },
  });
}

export function emptyResponse(status = 200, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}

/**
 * Reads a small request body (configuration documents) with a size limit, verifying a declared checksum
 * unless the request's checksum headers describe an object instead (`objectChecksum`).
 */
export async function readSmallBody(
  ctx: S3Request,
  limit = 1024 * 1024,
  { objectChecksum = false } = {},
): Promise<string> {
  const spec = objectChecksum ? null : declaredChecksum(ctx.request.headers, ctx.auth.trailer);
  const body = checksummedBody(ctx.auth.body, spec, ctx.auth.trailer).body;
  const tooLarge = () =>
    new StoreError(
      "EntityTooLarge",
      "Your proposed upload exceeds the maximum allowed size for this request.",
      400,
    );
  return new TextDecoder().decode(await readAll(body, null, limit, tooLarge));
}

/** Parses an XML request body, mapping syntax errors to MalformedXML. */
export async function readXmlBody(
  ctx: S3Request,
  expectedRoot?: string,
  options: { objectChecksum?: boolean } = {},
): Promise<XmlNode> {
  const text = await readSmallBody(ctx, undefined, options);
  try {
    const root = parseXml(text);
    if (expectedRoot && root.name !== expectedRoot) throw new Error(`expected <${expectedRoot}>`);
    return root;
  } catch {
    throw new StoreError(
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema.",
      400,
    );
  }
}

export function requireContentMd5(ctx: S3Request): void {
  // A flexible checksum satisfies the rule too (minio-protocol-2 §8.2).
  const hasChecksum = [...ctx.request.headers.keys()].some((name) =>
    name.startsWith("x-amz-checksum-") && name !== "x-amz-checksum-mode"
  );
  if (!ctx.request.headers.get("content-md5") && !hasChecksum) {
    throw new StoreError("MissingContentMD5", "Missing required header for this request: Content-Md5.", 400);
  }
}

export function bucketOf(ctx: S3Request): BucketState {
  return ctx.store.bucket(ctx.bucket);
}

/**
 * x-amz-version-id for a version a request wrote, read or deleted. The null version's id is left out, as
 * MinIO does: unversioned and suspended buckets answer writes without the header.
 */
export function versionIdHeader(versionId: string | undefined): Record<string, string> {
  return versionId && versionId !== "null" ? { "x-amz-version-id": versionId } : {};
}

/** XML timestamps: milliseconds, UTC. */
export const xmlTime = (iso: string) => new Date(iso).toISOString();
/** Header timestamps: RFC 1123. */
export const httpTime = (iso: string) => new Date(iso).toUTCString();
