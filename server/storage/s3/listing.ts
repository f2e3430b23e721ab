/** ListObjects v1/v2, ListObjectVersions and ListMultipartUploads responses (minio-protocol §5.12–5.13). */
import { buildXml, type XmlObject } from "../../s3/xml.ts";
import { listObjects, listVersions } from "../fs/listing.ts";
import { listUploads } from "../fs/multipart.ts";
import type { VersionRecord } from "../fs/store.ts";
import { bucketOf, invalidArgument, OWNER, type S3Request, xmlResponse, xmlTime } from "./context.ts";

function maxKeysOf(ctx: S3Request): number {
  const text = ctx.query.get("max-keys");
  if (text === null || text === "") return 1000;
  if (!/^-?\d+$/.test(text) || Number(text) < 0) throw invalidArgument("Argument maxKeys must be an integer between 0 and 2147483647");
  return Math.min(Number(text), 1000);
}

function encoder(ctx: S3Request): (text: string) => string {
  const type = ctx.query.get("encoding-type");
  if (type && type !== "url") throw invalidArgument("Invalid Encoding Method specified in Request");
  return type === "url" ? (t) => encodeURIComponent(t).replace(/%2F/g, "/") : (t) => t;
}

/** MinIO's metadata=true extension: user metadata, content type and tags per entry. */
function metadataOf(version: VersionRecord): XmlObject {
  const meta: XmlObject = {};
  for (const [k, v] of Object.entries(version.userMetadata)) meta[`X-Amz-Meta-${k.replace(/(^|-)([a-z])/g, (_, d, c) => d + c.toUpperCase())}`] = v;
  if (version.contentType) meta["content-type"] = version.contentType;
  return meta;
}

function entry(key: string, version: VersionRecord, encode: (t: string) => string, withMetadata: boolean): XmlObject {
  return {
    Key: encode(key),
    LastModified: xmlTime(version.lastModified),
    ETag: version.deleteMarker ? undefined : `"${version.etag}"`,
    Size: version.deleteMarker ? undefined : version.size,
    Owner: OWNER,
    StorageClass: version.deleteMarker ? undefined : version.storageClass ?? "STANDARD",
    UserMetadata: withMetadata && !version.deleteMarker ? metadataOf(version) : undefined,
    UserTags: withMetadata && version.tags ? new URLSearchParams(version.tags).toString() : undefined,
  };
}

export const listingConditions = (query: URLSearchParams): Record<string, string[]> => ({
  "s3:prefix": [query.get("prefix") ?? ""],
  ...(query.get("delimiter") ? { "s3:delimiter": [query.get("delimiter")!] } : {}),
  ...(query.get("max-keys") ? { "s3:max-keys": [query.get("max-keys")!] } : {}),
});

export async function listObjectsV2(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const encode = encoder(ctx);
  const prefix = ctx.query.get("prefix") ?? "";
  const delimiter = ctx.query.get("delimiter") ?? "";
  const token = ctx.query.get("continuation-token");
  let after = ctx.query.get("start-after") ?? "";
  if (token !== null) {
    try {
      after = new TextDecoder().decode(Uint8Array.fromBase64(token, { alphabet: "base64url" }));
    } catch {
      throw invalidArgument("The continuation token provided is incorrect");
    }
  }
  const maxKeys = maxKeysOf(ctx);
  const withMetadata = ctx.query.get("metadata") === "true";
  const out = listObjects(state, { prefix, delimiter, after, maxKeys });
  return xmlResponse("ListBucketResult", {
    Name: ctx.bucket,
    Prefix: encode(prefix),
    ContinuationToken: token ?? undefined,
    NextContinuationToken: out.isTruncated && out.last ? new TextEncoder().encode(out.last).toBase64({ alphabet: "base64url", omitPadding: true }) : undefined,
    StartAfter: ctx.query.get("start-after") ? encode(ctx.query.get("start-after")!) : undefined,
    KeyCount: out.objects.length + out.prefixes.length,
    MaxKeys: maxKeys,
    Delimiter: delimiter ? encode(delimiter) : undefined,
    EncodingType: ctx.query.get("encoding-type") ?? undefined,
    IsTruncated: out.isTruncated,
    Contents: out.objects.map((o) => {
      const e = entry(o.key, o.version, encode, withMetadata);
      if (ctx.query.get("fetch-owner") !== "true") delete e.Owner;
      return e;
    }),
    CommonPrefixes: out.prefixes.map((p) => ({ Prefix: encode(p) })),
  });
}

export async function listObjectsV1(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const encode = encoder(ctx);
  const prefix = ctx.query.get("prefix") ?? "";
  const delimiter = ctx.query.get("delimiter") ?? "";
  const marker = ctx.query.get("marker") ?? "";
  const maxKeys = maxKeysOf(ctx);
  const out = listObjects(state, { prefix, delimiter, after: marker, maxKeys });
  return xmlResponse("ListBucketResult", {
    Name: ctx.bucket,
    Prefix: encode(prefix),
    Marker: encode(marker),
    NextMarker: out.isTruncated && delimiter && out.last ? encode(out.last) : undefined,
    MaxKeys: maxKeys,
    Delimiter: delimiter ? encode(delimiter) : undefined,
    EncodingType: ctx.query.get("encoding-type") ?? undefined,
    IsTruncated: out.isTruncated,
    Contents: out.objects.map((o) => entry(o.key, o.version, encode, false)),
    CommonPrefixes: out.prefixes.map((p) => ({ Prefix: encode(p) })),
  });
}

export async function listObjectVersions(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const encode = encoder(ctx);
  const prefix = ctx.query.get("prefix") ?? "";
  const delimiter = ctx.query.get("delimiter") ?? "";
  const keyMarker = ctx.query.get("key-marker") ?? "";
  const versionIdMarker = ctx.query.get("version-id-marker") ?? "";
  if (versionIdMarker && !keyMarker) throw invalidArgument("A version-id marker cannot be specified without a key marker.");
  const maxKeys = maxKeysOf(ctx);
  const withMetadata = ctx.query.get("metadata") === "true";
  const out = listVersions(state, { prefix, delimiter, keyMarker, versionIdMarker, maxKeys });
  const body: XmlObject = {
    Name: ctx.bucket,
    Prefix: encode(prefix),
    KeyMarker: encode(keyMarker),
    VersionIdMarker: versionIdMarker,
    NextKeyMarker: out.isTruncated && out.nextKeyMarker ? encode(out.nextKeyMarker) : undefined,
    NextVersionIdMarker: out.isTruncated ? out.nextVersionIdMarker : undefined,
    MaxKeys: maxKeys,
    Delimiter: delimiter ? encode(delimiter) : undefined,
    EncodingType: ctx.query.get("encoding-type") ?? undefined,
    IsTruncated: out.isTruncated,
  };
  const xmlEntries = out.versions.map((v) => ({
    name: v.version.deleteMarker ? "DeleteMarker" : "Version",
    value: { ...entry(v.key, v.version, encode, withMetadata), VersionId: v.version.versionId, IsLatest: v.isLatest },
  }));
  // Versions and delete markers interleave in key order, so the body is assembled by hand.
  const head = buildXml("ListVersionsResult", body);
  const inner = xmlEntries.map((e) => buildXml(e.name, e.value as XmlObject, { namespace: null, prologue: false })).join("") +
    out.prefixes.map((p) => buildXml("CommonPrefixes", { Prefix: encode(p) }, { namespace: null, prologue: false })).join("");
  return new Response(head.replace("</ListVersionsResult>", `${inner}</ListVersionsResult>`), { headers: { "content-type": "application/xml" } });
}

export async function listMultipartUploads(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const prefix = ctx.query.get("prefix") ?? "";
  const maxUploads = Math.min(Number(ctx.query.get("max-uploads") ?? 1000) || 1000, 1000);
  const uploads = await listUploads(ctx.store, ctx.bucket, prefix);
  return xmlResponse("ListMultipartUploadsResult", {
    Bucket: ctx.bucket,
    KeyMarker: ctx.query.get("key-marker") ?? "",
    UploadIdMarker: ctx.query.get("upload-id-marker") ?? "",
    Prefix: prefix,
    MaxUploads: maxUploads,
    IsTruncated: uploads.length > maxUploads,
    Upload: uploads.slice(0, maxUploads).map((u) => ({
      Key: u.key,
      UploadId: u.uploadId,
      Initiator: OWNER,
      Owner: OWNER,
      StorageClass: "STANDARD",
      Initiated: xmlTime(u.initiated),
    })),
  });
}
