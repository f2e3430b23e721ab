/**
 * Per-object tagging, retention, legal hold, and multi-delete (minio-protocol §5.15, §5.17–5.18): parsed here,
 * the changes made by the write path (write/changes.ts).
 */
import { childBool, children, childText, type XmlObject } from "../../lib/s3/xml.ts";
import { findVersion } from "../fs/objects.ts";
import { accessDenied, invalidArgument, StoreError } from "../core/errors.ts";
import { notifyObject } from "../events/records.ts";
import { deleteObject, setLegalHold, setRetention, setTags } from "../write/changes.ts";
import { parseTagging, taggingXml } from "./buckets.ts";
import {
  bucketOf,
  emptyResponse,
  readXmlBody,
  requireContentMd5,
  type S3Request,
  versionIdHeader,
  xmlResponse,
} from "./context.ts";

const versionOf = (ctx: S3Request) => ctx.query.get("versionId") || undefined;

export async function getObjectTagging(ctx: S3Request): Promise<Response> {
  const version = findVersion(bucketOf(ctx), ctx.key, versionOf(ctx));
  if (version.deleteMarker) {
    throw new StoreError(
      "MethodNotAllowed",
      "The specified method is not allowed against this resource.",
      405,
    );
  }
  const response = taggingXml(version.tags ?? {});
  for (const [k, v] of Object.entries(versionIdHeader(version.versionId))) response.headers.set(k, v);
  return response;
}

export async function putObjectTagging(ctx: S3Request): Promise<Response> {
  const tags = parseTagging(await readXmlBody(ctx, "Tagging"), 10);
  const version = await setTags(ctx, versionOf(ctx), tags);
  return emptyResponse(200, versionIdHeader(version.versionId));
}

export async function deleteObjectTagging(ctx: S3Request): Promise<Response> {
  const version = await setTags(ctx, versionOf(ctx), undefined);
  return emptyResponse(204, versionIdHeader(version.versionId));
}

function requireLockBucket(ctx: S3Request): void {
  if (!bucketOf(ctx).meta.objectLock) {
    throw new StoreError("InvalidRequest", "Bucket is missing ObjectLockConfiguration", 400);
  }
}

export async function getObjectRetention(ctx: S3Request): Promise<Response> {
  requireLockBucket(ctx);
  const version = findVersion(bucketOf(ctx), ctx.key, versionOf(ctx));
  if (!version.retention) {
    throw new StoreError(
      "NoSuchObjectLockConfiguration",
      "The specified object does not have a ObjectLock configuration",
      404,
    );
  }
  notifyObject(ctx, "s3:ObjectAccessed:GetRetention", ctx.key, version);
  return xmlResponse("Retention", { Mode: version.retention.mode, RetainUntilDate: version.retention.until });
}

export async function putObjectRetention(ctx: S3Request): Promise<Response> {
  requireLockBucket(ctx);
  requireContentMd5(ctx);
  const root = await readXmlBody(ctx, "Retention");
  const mode = childText(root, "Mode");
  const until = childText(root, "RetainUntilDate");
  if ((mode === undefined) !== (until === undefined)) {
    throw new StoreError("MalformedXML", "Mode and RetainUntilDate go together", 400);
  }
  if (mode && mode !== "GOVERNANCE" && mode !== "COMPLIANCE") {
    throw new StoreError("MalformedXML", "Unknown retention mode", 400);
  }
  if (until && (Number.isNaN(Date.parse(until)) || Date.parse(until) <= ctx.now.getTime())) {
    throw new StoreError("InvalidArgument", "The retain until date must be in the future", 400);
  }
  const retention = mode
    ? { mode: mode as "GOVERNANCE" | "COMPLIANCE", until: new Date(until!).toISOString() }
    : undefined;
  const version = await setRetention(ctx, versionOf(ctx), retention);
  return emptyResponse(200, versionIdHeader(version.versionId));
}

export async function getObjectLegalHold(ctx: S3Request): Promise<Response> {
  requireLockBucket(ctx);
  const version = findVersion(bucketOf(ctx), ctx.key, versionOf(ctx));
  if (version.legalHold === undefined) {
    throw new StoreError(
      "NoSuchObjectLockConfiguration",
      "The specified object does not have a ObjectLock configuration",
      404,
    );
  }
  notifyObject(ctx, "s3:ObjectAccessed:GetLegalHold", ctx.key, version);
  return xmlResponse("LegalHold", { Status: version.legalHold ? "ON" : "OFF" });
}

export async function putObjectLegalHold(ctx: S3Request): Promise<Response> {
  requireLockBucket(ctx);
  requireContentMd5(ctx);
  const status = childText(await readXmlBody(ctx, "LegalHold"), "Status");
  if (status !== "ON" && status !== "OFF") {
    throw new StoreError("MalformedXML", "Legal hold status must be ON or OFF", 400);
  }
  const version = await setLegalHold(ctx, versionOf(ctx), status === "ON");
  return emptyResponse(200, versionIdHeader(version.versionId));
}

export async function deleteObjects(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  requireContentMd5(ctx);
  const root = await readXmlBody(ctx, "Delete");
  const quiet = childBool(root, "Quiet") === true;
  const objects = children(root, "Object").map((o) => ({
    key: childText(o, "Key") ?? "",
    versionId: childText(o, "VersionId") || undefined,
  }));
  if (objects.length === 0 || objects.length > 1000) {
    throw new StoreError("MalformedXML", "A delete request lists 1 to 1000 objects", 400);
  }
  const deleted: XmlObject[] = [];
  const errors: XmlObject[] = [];
  for (const object of objects) {
    try {
      if (!object.key) throw invalidArgument("Object name must not be empty");
      if (!ctx.allowed("s3:DeleteObject", ctx.bucket, object.key)) throw accessDenied();
      const outcome = await deleteObject(ctx, object.key, object.versionId, false);
      if (!quiet) {
        deleted.push({
          Key: object.key,
          VersionId: object.versionId,
          DeleteMarker: outcome.deleteMarker && !object.versionId ? "true" : undefined,
          DeleteMarkerVersionId: outcome.deleteMarker && !object.versionId ? outcome.versionId : undefined,
        });
      }
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      errors.push({ Key: object.key, VersionId: object.versionId, Code: error.code, Message: error.message });
    }
  }
  return xmlResponse("DeleteResult", { Deleted: deleted, Error: errors });
}
