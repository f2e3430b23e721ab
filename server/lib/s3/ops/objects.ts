/**
 * Object operations: listing (V2 and versions), put (streamed), get (ranges), head, copy, delete, multi-delete
 * (minio-protocol §5.12–5.15).
 */
import type { S3Client } from "../client.ts";
import { decodeHeaderText, encodeHeaderText } from "../header_text.ts";
import { md5Base64 } from "../md5.ts";
import { buildXml, child, children, childText, parseXml, type XmlNode } from "../xml.ts";
import { type Tags } from "./bucket_config.ts";

export interface ObjectEntry {
  key: string;
  size: number;
  etag: string;
  lastModified: string;
  storageClass?: string;
  /** With MinIO's metadata=true extension: user metadata and content type. */
  userMetadata?: Record<string, string>;
  contentType?: string;
  userTags?: string;
}

export interface ListObjectsPage {
  objects: ObjectEntry[];
  prefixes: string[];
  isTruncated: boolean;
  nextContinuationToken?: string;
}

function decodeKey(text: string | undefined, urlEncoded: boolean): string {
  if (text === undefined) return "";
  return urlEncoded ? decodeURIComponent(text.replace(/\+/g, " ")) : text;
}

function parseEntry(node: XmlNode, urlEncoded: boolean): ObjectEntry {
  const metaNode = child(node, "UserMetadata");
  let userMetadata: Record<string, string> | undefined;
  let contentType: string | undefined;
  if (metaNode) {
    userMetadata = {};
    for (const m of metaNode.children) {
      if (m.name.toLowerCase() === "content-type") contentType = m.text;
      else userMetadata[m.name.replace(/^X-Amz-Meta-/i, "")] = decodeHeaderText(m.text);
    }
  }
  return {
    key: decodeKey(childText(node, "Key"), urlEncoded),
    size: Number(childText(node, "Size") ?? 0),
    etag: (childText(node, "ETag") ?? "").replace(/"/g, ""),
    lastModified: childText(node, "LastModified") ?? "",
    storageClass: childText(node, "StorageClass"),
    userMetadata,
    contentType,
    userTags: childText(node, "UserTags"),
  };
}

/** One page of ListObjectsV2. */
export async function listObjectsV2(
  client: S3Client,
  bucket: string,
  options: {
    prefix?: string;
    delimiter?: string;
    continuationToken?: string;
    startAfter?: string;
    maxKeys?: number;
    metadata?: boolean;
  } = {},
): Promise<ListObjectsPage> {
  const root = parseXml(
    await client.text({
      method: "GET",
      bucket,
      query: {
        "list-type": 2,
        prefix: options.prefix ?? "",
        delimiter: options.delimiter,
        "continuation-token": options.continuationToken,
        "start-after": options.startAfter,
        "max-keys": options.maxKeys,
        "encoding-type": "url",
        metadata: options.metadata ? "true" : undefined,
      },
    }),
  );
  const urlEncoded = childText(root, "EncodingType") === "url";
  return {
    objects: children(root, "Contents").map((c) => parseEntry(c, urlEncoded)),
    prefixes: children(root, "CommonPrefixes").map((p) => decodeKey(childText(p, "Prefix"), urlEncoded)),
    isTruncated: childText(root, "IsTruncated") === "true",
    nextContinuationToken: childText(root, "NextContinuationToken") || undefined,
  };
}

/** Every object under a prefix (follows continuation tokens). */
export async function listAllObjects(
  client: S3Client,
  bucket: string,
  options: { prefix?: string; delimiter?: string; metadata?: boolean } = {},
): Promise<ListObjectsPage> {
  const all: ListObjectsPage = { objects: [], prefixes: [], isTruncated: false };
  let token: string | undefined;
  do {
    const page = await listObjectsV2(client, bucket, { ...options, continuationToken: token });
    all.objects.push(...page.objects);
    all.prefixes.push(...page.prefixes);
    token = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (token);
  return all;
}

export interface ObjectVersionEntry extends ObjectEntry {
  versionId: string;
  isLatest: boolean;
  isDeleteMarker: boolean;
}

export interface ListVersionsPage {
  versions: ObjectVersionEntry[];
  prefixes: string[];
  isTruncated: boolean;
  nextKeyMarker?: string;
  nextVersionIdMarker?: string;
}

export async function listObjectVersions(
  client: S3Client,
  bucket: string,
  options: {
    prefix?: string;
    delimiter?: string;
    keyMarker?: string;
    versionIdMarker?: string;
    maxKeys?: number;
    metadata?: boolean;
  } = {},
): Promise<ListVersionsPage> {
  const root = parseXml(
    await client.text({
      method: "GET",
      bucket,
      query: {
        versions: "",
        prefix: options.prefix ?? "",
        delimiter: options.delimiter,
        "key-marker": options.keyMarker,
        "version-id-marker": options.versionIdMarker,
        "max-keys": options.maxKeys,
        "encoding-type": "url",
        metadata: options.metadata ? "true" : undefined,
      },
    }),
  );
  const urlEncoded = childText(root, "EncodingType") === "url";
  const versions = root.children
    .filter((n) => n.name === "Version" || n.name === "DeleteMarker")
    .map((n) => ({
      ...parseEntry(n, urlEncoded),
      versionId: childText(n, "VersionId") ?? "null",
      isLatest: childText(n, "IsLatest") === "true",
      isDeleteMarker: n.name === "DeleteMarker",
    }));
  return {
    versions,
    prefixes: children(root, "CommonPrefixes").map((p) => decodeKey(childText(p, "Prefix"), urlEncoded)),
    isTruncated: childText(root, "IsTruncated") === "true",
    // With encoding-type=url the marker is encoded like the keys; sent back as it came, it would restart the
    // listing before an awkward key (one with spaces, %, #, non-ASCII) instead of after it.
    nextKeyMarker: decodeKey(childText(root, "NextKeyMarker"), urlEncoded) || undefined,
    nextVersionIdMarker: childText(root, "NextVersionIdMarker") || undefined,
  };
}

export interface PutObjectOptions {
  contentType?: string;
  userMetadata?: Record<string, string>;
  tags?: Tags;
  retention?: { mode: "GOVERNANCE" | "COMPLIANCE"; until: string };
  legalHold?: boolean;
  /** Extra raw headers (conditional writes, storage class). */
  headers?: Record<string, string>;
}

export interface PutResult {
  etag: string;
  versionId?: string;
}

/** User metadata as `x-amz-meta-*` headers, values that are not ASCII as RFC 2047 words. */
export function userMetadataHeaders(metadata: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(metadata).map(([k, v]) => [`x-amz-meta-${k.toLowerCase()}`, encodeHeaderText(v)]),
  );
}

/** The request headers of a write with these options (PutObject, CreateMultipartUpload, a replacing copy). */
export function putHeaders(options: PutObjectOptions): Record<string, string> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.contentType) headers["content-type"] = options.contentType;
  Object.assign(headers, userMetadataHeaders(options.userMetadata));
  if (options.tags && Object.keys(options.tags).length) {
    headers["x-amz-tagging"] = new URLSearchParams(options.tags).toString();
  }
  if (options.retention) {
    headers["x-amz-object-lock-mode"] = options.retention.mode;
    headers["x-amz-object-lock-retain-until-date"] = options.retention.until;
  }
  if (options.legalHold !== undefined) {
    headers["x-amz-object-lock-legal-hold"] = options.legalHold ? "ON" : "OFF";
  }
  return headers;
}

/** Uploads an object; a stream body is sent without buffering (needs `size`). */
export async function putObject(
  client: S3Client,
  bucket: string,
  key: string,
  body: Uint8Array | string | ReadableStream<Uint8Array>,
  options: PutObjectOptions & { size?: number; unsignedPayload?: boolean; signal?: AbortSignal } = {},
): Promise<PutResult> {
  const res = await client.empty({
    method: "PUT",
    bucket,
    key,
    body,
    contentLength: options.size,
    headers: putHeaders(options),
    unsignedPayload: options.unsignedPayload,
    signal: options.signal,
  });
  return {
    etag: (res.headers.get("etag") ?? "").replace(/"/g, ""),
    versionId: res.headers.get("x-amz-version-id") ?? undefined,
  };
}

export interface ObjectInfo {
  size: number;
  etag: string;
  lastModified: string;
  contentType: string;
  versionId?: string;
  isDeleteMarker: boolean;
  userMetadata: Record<string, string>;
  retentionMode?: string;
  retainUntil?: string;
  legalHold?: boolean;
  tagCount: number;
  headers: Headers;
}

export function objectInfoFromHeaders(headers: Headers): ObjectInfo {
  const userMetadata: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith("x-amz-meta-")) userMetadata[name.slice(11)] = decodeHeaderText(value);
  });
  const hold = headers.get("x-amz-object-lock-legal-hold");
  return {
    size: Number(headers.get("content-length") ?? 0),
    etag: (headers.get("etag") ?? "").replace(/"/g, ""),
    lastModified: headers.get("last-modified") ?? "",
    contentType: headers.get("content-type") ?? "",
    versionId: headers.get("x-amz-version-id") ?? undefined,
    isDeleteMarker: headers.get("x-amz-delete-marker") === "true",
    userMetadata,
    retentionMode: headers.get("x-amz-object-lock-mode") ?? undefined,
    retainUntil: headers.get("x-amz-object-lock-retain-until-date") ?? undefined,
    legalHold: hold ? hold === "ON" : undefined,
    tagCount: Number(headers.get("x-amz-tagging-count") ?? 0),
    headers,
  };
}

export async function headObject(
  client: S3Client,
  bucket: string,
  key: string,
  options: { versionId?: string } = {},
): Promise<ObjectInfo> {
  const res = await client.empty({ method: "HEAD", bucket, key, query: { versionId: options.versionId } });
  return objectInfoFromHeaders(res.headers);
}

/** Downloads an object; the Response body streams. `range` is [start, end] inclusive. */
export async function getObject(
  client: S3Client,
  bucket: string,
  key: string,
  options: {
    versionId?: string;
    range?: [number, number?];
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.range) headers["range"] = `bytes=${options.range[0]}-${options.range[1] ?? ""}`;
  return await client.send({
    method: "GET",
    bucket,
    key,
    query: { versionId: options.versionId },
    headers,
    signal: options.signal,
  });
}

/** x-amz-copy-source: the bucket and the URL-encoded key, and the version when one is named. */
export function copySourceHeader(source: { bucket: string; key: string; versionId?: string }): string {
  return `/${source.bucket}/${encodeURIComponent(source.key).replace(/%2F/g, "/")}${
    source.versionId ? `?versionId=${encodeURIComponent(source.versionId)}` : ""
  }`;
}

export async function copyObject(
  client: S3Client,
  source: { bucket: string; key: string; versionId?: string },
  target: { bucket: string; key: string },
  options: {
    metadataDirective?: "COPY" | "REPLACE";
    replace?: PutObjectOptions;
    /** More request headers: copy-source conditions, object lock settings for the copy. */
    headers?: Record<string, string>;
  } = {},
): Promise<PutResult> {
  const headers = { ...(options.replace ? putHeaders(options.replace) : {}), ...options.headers };
  headers["x-amz-copy-source"] = copySourceHeader(source);
  if (options.metadataDirective) headers["x-amz-metadata-directive"] = options.metadataDirective;
  const text = await client.text({ method: "PUT", bucket: target.bucket, key: target.key, headers });
  return { etag: (childText(parseXml(text), "ETag") ?? "").replace(/"/g, "") };
}

export async function deleteObject(
  client: S3Client,
  bucket: string,
  key: string,
  options: { versionId?: string; bypassGovernance?: boolean } = {},
): Promise<{ versionId?: string; deleteMarker: boolean }> {
  const headers: Record<string, string> = options.bypassGovernance
    ? { "x-amz-bypass-governance-retention": "true" }
    : {};
  const res = await client.empty({
    method: "DELETE",
    bucket,
    key,
    query: { versionId: options.versionId },
    headers,
  });
  return {
    versionId: res.headers.get("x-amz-version-id") ?? undefined,
    deleteMarker: res.headers.get("x-amz-delete-marker") === "true",
  };
}

export interface DeleteResult {
  deleted: { key: string; versionId?: string; deleteMarker: boolean }[];
  errors: { key: string; versionId?: string; code: string; message: string }[];
}

/** Multi-delete of up to 1000 keys. */
export async function deleteObjects(
  client: S3Client,
  bucket: string,
  objects: { key: string; versionId?: string }[],
  options: { quiet?: boolean; bypassGovernance?: boolean } = {},
): Promise<DeleteResult> {
  const body = buildXml("Delete", {
    Quiet: options.quiet ? "true" : undefined,
    Object: objects.map((o) => ({ Key: o.key, VersionId: o.versionId })),
  });
  const headers: Record<string, string> = { "content-md5": await md5Base64(body) };
  if (options.bypassGovernance) headers["x-amz-bypass-governance-retention"] = "true";
  const root = parseXml(await client.text({ method: "POST", bucket, query: { delete: "" }, body, headers }));
  return {
    deleted: children(root, "Deleted").map((d) => ({
      key: childText(d, "Key") ?? "",
      versionId: childText(d, "VersionId"),
      deleteMarker: childText(d, "DeleteMarker") === "true",
    })),
    errors: children(root, "Error").map((e) => ({
      key: childText(e, "Key") ?? "",
      versionId: childText(e, "VersionId"),
      code: childText(e, "Code") ?? "",
      message: childText(e, "Message") ?? "",
    })),
  };
}
