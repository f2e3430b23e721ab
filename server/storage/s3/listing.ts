/** ListObjects v1/v2, ListObjectVersions and ListMultipartUploads responses (minio-protocol §5.12–5.13). */
import { crc32 } from "node:zlib";
import { buildXml, type XmlObject } from "../../lib/s3/xml.ts";
import { listObjects, listVersions } from "../fs/listing.ts";
import { listUploads } from "../fs/multipart.ts";
import { compareKeys } from "../fs/store.ts";
import { bucketOf, OWNER, type S3Request, xmlResponse, xmlTime } from "./context.ts";
import { invalidArgument } from "../core/errors.ts";
import type { VersionRecord } from "../core/records.ts";

function maxKeysOf(ctx: S3Request): number {
  const text = ctx.query.get("max-keys");
  if (text === null || text === "") return 1000;
  if (!/^-?\d+$/.test(text) || Number(text) < 0) {
    throw invalidArgument("Argument maxKeys must be an integer between 0 and 2147483647");
  }
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
  for (const [k, v] of Object.entries(version.userMetadata)) {
    meta[`X-Amz-Meta-${k.replace(/(^|-)([a-z])/g, (_, d, c) => d + c.toUpperCase())}`] = v;
  }
  if (version.contentType) meta["content-type"] = version.contentType;
  // SSE hook: MinIO reports an object's encryption among its listed metadata (minio-protocol-2 §7.2).
  if (version.sse?.type === "SSE-C") meta["X-Amz-Server-Side-Encryption-Customer-Algorithm"] = "AES256";
  else if (version.sse) {
    meta["X-Amz-Server-Side-Encryption"] = version.sse.type === "SSE-S3" ? "AES256" : "aws:kms";
  }
  return meta;
}

function entry(
  key: string,
  version: VersionRecord,
  encode: (t: string) => string,
  withMetadata: boolean,
): XmlObject {
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

/** Continuation tokens name the last key listed, with a CRC so a made-up token is refused rather than obeyed. */
function encodeToken(lastKey: string): string {
  const key = new TextEncoder().encode(lastKey);
  const out = new Uint8Array(4 + key.length);
  new DataView(out.buffer).setUint32(0, crc32(key));
  out.set(key, 4);
  return out.toBase64({ alphabet: "base64url", omitPadding: true });
}

function decodeToken(token: string): string {
  try {
    const bytes = Uint8Array.fromBase64(token, { alphabet: "base64url" });
    const key = bytes.subarray(4);
    if (bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset).getUint32(0) === crc32(key)) {
      return new TextDecoder("utf-8", { fatal: true }).decode(key);
    }
  } catch { /* below */ }
  throw invalidArgument("The continuation token provided is incorrect");
}

export async function listObjectsV2(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const encode = encoder(ctx);
  const prefix = ctx.query.get("prefix") ?? "";
  const delimiter = ctx.query.get("delimiter") ?? "";
  const token = ctx.query.get("continuation-token");
  let after = ctx.query.get("start-after") ?? "";
  if (token !== null) after = decodeToken(token);
  const maxKeys = maxKeysOf(ctx);
  const withMetadata = ctx.query.get("metadata") === "true";
  const out = ctx.store.traced(
    "WalkDir",
    `${ctx.bucket}/${prefix}`,
    () => listObjects(state, { prefix, delimiter, after, maxKeys }),
  );
  return xmlResponse("ListBucketResult", {
    Name: ctx.bucket,
    Prefix: encode(prefix),
    ContinuationToken: token ?? undefined,
    NextContinuationToken: out.isTruncated && out.last ? encodeToken(out.last) : undefined,
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
  const out = ctx.store.traced(
    "WalkDir",
    `${ctx.bucket}/${prefix}`,
    () => listObjects(state, { prefix, delimiter, after: marker, maxKeys }),
  );
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
  if (versionIdMarker && !keyMarker) {
    throw invalidArgument("A version-id marker cannot be specified without a key marker.");
  }
  const maxKeys = maxKeysOf(ctx);
  const withMetadata = ctx.query.get("metadata") === "true";
  const out = ctx.store.traced(
    "WalkDir",
    `${ctx.bucket}/${prefix}`,
    () => listVersions(state, { prefix, delimiter, keyMarker, versionIdMarker, maxKeys }),
  );
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
    value: {
      ...entry(v.key, v.version, encode, withMetadata),
      VersionId: v.version.versionId,
      IsLatest: v.isLatest,
    },
  }));
  // Versions and delete markers interleave in key order, so the body is assembled by hand.
  const head = buildXml("ListVersionsResult", body);
  const inner =
    xmlEntries.map((e) => buildXml(e.name, e.value as XmlObject, { namespace: null, prologue: false })).join(
      "",
    ) +
    out.prefixes.map((p) =>
      buildXml("CommonPrefixes", { Prefix: encode(p) }, { namespace: null, prologue: false })
    ).join("");
  return new Response(head.replace("</ListVersionsResult>", `${inner}</ListVersionsResult>`), {
    headers: { "content-type": "application/xml" },
  });
}

export async function listMultipartUploads(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const prefix = ctx.query.get("prefix") ?? "";
  const keyMarker = ctx.query.get("key-marker") ?? "";
  const uploadIdMarker = ctx.query.get("upload-id-marker") ?? "";
  const maxUploads = Math.min(Number(ctx.query.get("max-uploads") ?? 1000) || 1000, 1000);
  // Uploads after the markers: later keys, or the marker key's uploads after the marker upload id.
  const after = (await listUploads(ctx.store, ctx.bucket, prefix)).filter((u) =>
    !keyMarker || compareKeys(u.key, keyMarker) > 0 ||
    (u.key === keyMarker && uploadIdMarker !== "" && u.uploadId > uploadIdMarker)
  );
  const page = after.slice(0, maxUploads);
  const isTruncated = after.length > maxUploads;
  const last = page[page.length - 1];
  return xmlResponse("ListMultipartUploadsResult", {
    Bucket: ctx.bucket,
    KeyMarker: keyMarker,
    UploadIdMarker: uploadIdMarker,
    NextKeyMarker: isTruncated ? last.key : undefined,
    NextUploadIdMarker: isTruncated ? last.uploadId : undefined,
    Prefix: prefix,
    MaxUploads: maxUploads,
    IsTruncated: isTruncated,
    Upload: page.map((u) => ({
      Key: u.key,
      UploadId: u.uploadId,
      Initiator: OWNER,
      Owner: OWNER,
      StorageClass: "STANDARD",
      Initiated: xmlTime(u.initiated),
      ChecksumAlgorithm: u.checksum?.algorithm,
    })),
  });
}
