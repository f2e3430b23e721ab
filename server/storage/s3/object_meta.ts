/** Per-object tagging, retention, legal hold, ACL stand-in, and multi-delete (minio-protocol §5.15, §5.17–5.18). */
import { childBool, children, childText, type XmlObject } from "../../lib/s3/xml.ts";
import { deleteVersion, findVersion, updateVersion } from "../fs/objects.ts";
import { parseTagging, taggingXml } from "./buckets.ts";
import {
  bucketOf,
  deleteEventName,
  emptyResponse,
  notifyObject,
  readXmlBody,
  requireContentMd5,
  type S3Request,
  versionIdHeader,
  xmlResponse,
} from "./context.ts";
import { bypassGovernance } from "./objects.ts";
import {
  replicateAfterDelete,
  replicateAfterWrite,
  replicationOnDelete,
  replicationOnMetadata,
} from "../replication/hooks.ts"; // replication hooks
import { invalidArgument, StoreError } from "../core/errors.ts";

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
  const replication = await replicationOnMetadata(ctx, ctx.key, tags); // replication hook
  const version = await updateVersion(ctx.store, bucketOf(ctx), ctx.key, versionOf(ctx), (v) => {
    v.tags = Object.keys(tags).length ? tags : undefined;
    v.replication = replication(v); // replication hook
  });
  await replicateAfterWrite(ctx, ctx.key, version); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:PutTagging", ctx.key, version);
  return emptyResponse(200, versionIdHeader(version.versionId));
}

export async function deleteObjectTagging(ctx: S3Request): Promise<Response> {
  const replication = await replicationOnMetadata(ctx, ctx.key, undefined); // replication hook
  const version = await updateVersion(ctx.store, bucketOf(ctx), ctx.key, versionOf(ctx), (v) => {
    v.tags = undefined;
    v.replication = replication(v); // replication hook
  });
  await replicateAfterWrite(ctx, ctx.key, version); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:DeleteTagging", ctx.key, version);
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
  const bypass = bypassGovernance(ctx, ctx.key);
  const replication = await replicationOnMetadata(ctx, ctx.key, "unchanged"); // replication hook
  const version = await updateVersion(ctx.store, bucketOf(ctx), ctx.key, versionOf(ctx), (v) => {
    const current = v.retention;
    const active = current && Date.parse(current.until) > ctx.now.getTime();
    if (active) {
      // As MinIO: while a retention is active only the same mode with an equal or later date may replace it;
      // any other change (another mode, an earlier date, none) is governance's bypass alone to make.
      const changed = mode !== current.mode || Date.parse(until!) < Date.parse(current.until);
      if (changed && (current.mode === "COMPLIANCE" || !bypass)) {
        throw new StoreError("AccessDenied", "Object is WORM protected and cannot be overwritten", 403);
      }
    }
    v.retention = mode
      ? { mode: mode as "GOVERNANCE" | "COMPLIANCE", until: new Date(until!).toISOString() }
      : undefined;
    v.replication = replication(v); // replication hook
  });
  await replicateAfterWrite(ctx, ctx.key, version); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:PutRetention", ctx.key, version);
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
  const replication = await replicationOnMetadata(ctx, ctx.key, "unchanged"); // replication hook
  const version = await updateVersion(ctx.store, bucketOf(ctx), ctx.key, versionOf(ctx), (v) => {
    v.legalHold = status === "ON";
    v.replication = replication(v); // replication hook
  });
  await replicateAfterWrite(ctx, ctx.key, version); // replication hook
  notifyObject(ctx, "s3:ObjectCreated:PutLegalHold", ctx.key, version);
  return emptyResponse(200, versionIdHeader(version.versionId));
}

export async function deleteObjects(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
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
      if (!ctx.allowed("s3:DeleteObject", ctx.bucket, object.key)) {
        throw new StoreError("AccessDenied", "Access Denied.", 403);
      }
      const replication = await replicationOnDelete(ctx, object.key, object.versionId); // replication hook
      const outcome = await deleteVersion(ctx.store, state, object.key, {
        versionId: object.versionId,
        bypassGovernance: bypassGovernance(ctx, object.key),
        now: ctx.now,
        replication,
      });
      await replicateAfterDelete(ctx, object.key, object.versionId, outcome, replication); // replication hook
      notifyObject(ctx, deleteEventName(object.versionId, outcome), object.key, undefined, outcome.versionId);
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
