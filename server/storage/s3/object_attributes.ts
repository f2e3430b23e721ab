/**
 * GetObjectAttributes (MinIO's getObjectAttributesHandler): what `x-amz-object-attributes` asks for of a
 * version, its ETag, checksum, parts (a page of them: x-amz-max-parts, x-amz-part-number-marker), storage
 * class and size, without its bytes.
 */
import { checksumElement } from "../../lib/s3/checksums.ts";
import type { XmlObject } from "../../lib/s3/xml.ts";
import { sseForRead } from "../sse/request.ts";
import { bucketOf, httpTime, type S3Request, versionIdHeader, xmlResponse } from "./context.ts";
import { checkKey, readTarget } from "./object_read.ts";
import { readPreconditions } from "./preconditions.ts";
import { invalidArgument, StoreError } from "../core/errors.ts";
import { notifyObject } from "../events/records.ts";

const ATTRIBUTES = ["ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize"];

/** x-amz-object-attributes: one or more of ATTRIBUTES, comma-separated. */
function attributesOf(headers: Headers): Set<string> {
  const asked = (headers.get("x-amz-object-attributes") ?? "").split(",").map((a) => a.trim()).filter(
    Boolean,
  );
  if (asked.length === 0 || asked.some((a) => !ATTRIBUTES.includes(a))) {
    throw invalidArgument("Invalid attribute name specified.");
  }
  return new Set(asked);
}

function intHeader(headers: Headers, name: string): number {
  const text = headers.get(name)?.trim() ?? "";
  if (text === "") return 0;
  if (!/^\d+$/.test(text)) throw invalidArgument(`Invalid ${name} header value`);
  return Number(text);
}

export async function getObjectAttributes(ctx: S3Request): Promise<Response> {
  checkKey(ctx.key);
  const attributes = attributesOf(ctx.request.headers);
  const maxParts = intHeader(ctx.request.headers, "x-amz-max-parts") || 1000;
  const marker = intHeader(ctx.request.headers, "x-amz-part-number-marker");
  // As MinIO: reading the attributes also takes the right to read the object (or that version of it).
  const read = ctx.query.has("versionId") ? "s3:GetObjectVersion" : "s3:GetObject";
  if (!ctx.allowed(read, ctx.bucket, ctx.key)) throw new StoreError("AccessDenied", "Access Denied.", 403);
  const state = bucketOf(ctx);
  const version = readTarget(ctx, state);
  const sse = await sseForRead(ctx, version);
  const headers = {
    ...versionIdHeader(version.versionId),
    "last-modified": httpTime(version.lastModified),
  };
  const early = readPreconditions(ctx.request, version, { etag: `"${version.etag}"`, ...headers });
  if (early) return early;
  const checksum = sse.meta ? sse.meta.checksum : version.checksum;
  const sizes = version.partSizes ?? [version.size];
  const partChecksums = version.sse ? undefined : version.partChecksums;
  const body: XmlObject = {};
  if (attributes.has("ETag")) body.ETag = version.etag;
  if (attributes.has("Checksum") && checksum) {
    body.Checksum = {
      [checksumElement(checksum.algorithm)]: checksum.value.replace(/-\d+$/, ""),
      ChecksumType: checksum.type,
    };
  }
  if (attributes.has("ObjectParts")) {
    const page = sizes.map((size, i) => ({ number: i + 1, size })).filter((p) => p.number > marker)
      .slice(0, maxParts);
    const next = page.length ? page[page.length - 1].number : 0;
    body.ObjectParts = {
      IsTruncated: next !== sizes.length,
      MaxParts: maxParts,
      NextPartNumberMarker: next,
      PartNumberMarker: marker,
      PartsCount: sizes.length,
      Part: page.map((p) => ({
        PartNumber: p.number,
        Size: p.size,
        ...(checksum && partChecksums?.[p.number - 1]
          ? { [checksumElement(checksum.algorithm)]: partChecksums[p.number - 1] }
          : {}),
      })),
    };
  }
  if (attributes.has("StorageClass")) body.StorageClass = version.storageClass ?? "STANDARD";
  if (attributes.has("ObjectSize")) body.ObjectSize = version.size;
  notifyObject(ctx, "s3:ObjectAccessed:Attributes", ctx.key, version);
  return xmlResponse("GetObjectAttributesResponse", body, { headers: { ...headers, ...sse.headers } });
}
