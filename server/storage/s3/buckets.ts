/** Bucket handlers: list, create, head, location, delete, versioning, object lock, tagging (minio-protocol §5.2–5.5, §5.11). */
import { child, childBool, children, childText } from "../../lib/s3/xml.ts";
import { bucketNameProblem } from "../fs/names.ts";
import {
  bucketOf,
  emptyResponse,
  OWNER,
  readXmlBody,
  type S3Request,
  xmlResponse,
  xmlTime,
} from "./context.ts";
import { StoreError } from "../core/errors.ts";
import { defaultRetention } from "../write/settings.ts";

export async function listBuckets(ctx: S3Request): Promise<Response> {
  const all = [...ctx.store.buckets.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  // Without s3:ListAllMyBuckets a caller sees the buckets it may list or locate (§5.2).
  const visible = ctx.allowed("s3:ListAllMyBuckets", "", "")
    ? all
    : all.filter((b) =>
      ctx.allowed("s3:ListBucket", b.name, "") || ctx.allowed("s3:GetBucketLocation", b.name, "")
    );
  if (visible.length === 0 && !ctx.allowed("s3:ListAllMyBuckets", "", "") && all.length > 0) {
    throw new StoreError("AccessDenied", "Access Denied.", 403);
  }
  return xmlResponse("ListAllMyBucketsResult", {
    Owner: OWNER,
    Buckets: { Bucket: visible.map((b) => ({ Name: b.name, CreationDate: xmlTime(b.meta.created) })) },
  });
}

export async function createBucket(ctx: S3Request): Promise<Response> {
  const problem = bucketNameProblem(ctx.bucket);
  if (problem) {
    throw new StoreError("InvalidBucketName", `The specified bucket is not valid. ${problem}`, 400);
  }
  const body = await readXmlBody(ctx).catch(() => null);
  const location = childText(body ?? undefined, "LocationConstraint") ?? "";
  const region = ctx.facts.region();
  if (location && region && location !== region && !(region === "us-east-1" && location === "US")) {
    throw new StoreError("InvalidLocationConstraint", "The specified location-constraint is not valid", 400);
  }
  if (ctx.store.buckets.has(ctx.bucket)) {
    throw new StoreError(
      "BucketAlreadyOwnedByYou",
      "Your previous request to create the named bucket succeeded and you already own it.",
      409,
    );
  }
  await ctx.store.createBucket(ctx.bucket, {
    objectLock: ctx.request.headers.get("x-amz-bucket-object-lock-enabled")?.toLowerCase() === "true",
    now: ctx.now,
  });
  return emptyResponse(200, { location: `/${ctx.bucket}` });
}

export async function headBucket(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  return emptyResponse(200, ctx.facts.region() ? { "x-amz-bucket-region": ctx.facts.region() } : {});
}

export async function getBucketLocation(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const region = ctx.facts.region();
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${
      region === "us-east-1" ? "" : region
    }</LocationConstraint>`,
    { headers: { "content-type": "application/xml" } },
  );
}

export async function deleteBucket(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const force = ctx.request.headers.get("x-minio-force-delete") === "true";
  if (force) {
    if (state.meta.objectLock) {
      throw new StoreError(
        "MethodNotAllowed",
        "Force delete is not allowed on buckets with object lock",
        405,
      );
    }
    const replication = await ctx.store.getDocument(ctx.bucket, "replication.xml");
    if (replication) {
      throw new StoreError(
        "MethodNotAllowed",
        "Force delete is not allowed on buckets with replication",
        405,
      );
    }
  }
  await ctx.store.deleteBucket(ctx.bucket, { force });
  return emptyResponse(204);
}

export async function getBucketVersioning(ctx: S3Request): Promise<Response> {
  const meta = bucketOf(ctx).meta;
  return xmlResponse("VersioningConfiguration", {
    Status: meta.versioning || undefined,
    ExcludedPrefixes: meta.excludedPrefixes?.map((Prefix) => ({ Prefix })),
    ExcludeFolders: meta.excludeFolders ? "true" : undefined,
  });
}

export async function putBucketVersioning(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const root = await readXmlBody(ctx, "VersioningConfiguration");
  const status = childText(root, "Status");
  if (status !== "Enabled" && status !== "Suspended") {
    throw new StoreError(
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema.",
      400,
    );
  }
  const excluded = children(root, "ExcludedPrefixes").map((p) => childText(p, "Prefix") ?? "");
  const excludeFolders = childBool(root, "ExcludeFolders") === true;
  if (excluded.length > 10) {
    throw new StoreError("InvalidArgument", "Too many excluded prefixes: at most 10 are allowed", 400);
  }
  if ((excluded.length || excludeFolders) && status !== "Enabled") {
    throw new StoreError(
      "InvalidArgument",
      "Excluded prefixes and folders require versioning to be Enabled",
      400,
    );
  }
  if (state.meta.objectLock && (status === "Suspended" || excluded.length)) {
    throw new StoreError(
      "InvalidBucketState",
      "An Object Lock configuration is present on this bucket, versioning cannot be suspended.",
      400,
    );
  }
  if (status === "Suspended" && (await ctx.store.getDocument(ctx.bucket, "replication.xml"))) {
    throw new StoreError(
      "InvalidBucketState",
      "A replication configuration is present on this bucket, bucket versioning cannot be suspended.",
      400,
    );
  }
  state.meta = {
    ...state.meta,
    versioning: status,
    excludedPrefixes: excluded.length ? excluded : undefined,
    excludeFolders: excludeFolders || undefined,
  };
  await ctx.store.saveBucketMeta(state);
  return emptyResponse(200);
}

export async function getObjectLockConfiguration(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  if (!state.meta.objectLock) {
    throw new StoreError(
      "ObjectLockConfigurationNotFoundError",
      "Object Lock configuration does not exist for this bucket",
      404,
    );
  }
  const retention = await defaultRetention(ctx);
  return xmlResponse("ObjectLockConfiguration", {
    ObjectLockEnabled: "Enabled",
    Rule: retention
      ? { DefaultRetention: { Mode: retention.mode, Days: retention.days, Years: retention.years } }
      : undefined,
  });
}

export async function putObjectLockConfiguration(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const root = await readXmlBody(ctx, "ObjectLockConfiguration");
  if (!state.meta.objectLock) {
    throw new StoreError(
      "InvalidBucketState",
      "Object Lock configuration cannot be enabled on existing buckets",
      409,
    );
  }
  if (childText(root, "ObjectLockEnabled") !== "Enabled") {
    throw new StoreError(
      "InvalidArgument",
      "Only Enabled value is allowed to ObjectLockEnabled element",
      400,
    );
  }
  const retention = child(child(root, "Rule"), "DefaultRetention");
  if (!retention) {
    await ctx.store.putDocument(ctx.bucket, "object-lock.json", undefined);
    return emptyResponse(200);
  }
  const mode = childText(retention, "Mode");
  const days = childText(retention, "Days");
  const years = childText(retention, "Years");
  if (mode !== "GOVERNANCE" && mode !== "COMPLIANCE") {
    throw new StoreError("InvalidArgument", "unknown retention mode", 400);
  }
  if ((days === undefined) === (years === undefined)) {
    throw new StoreError("InvalidArgument", "either Days or Years must be specified, not both", 400);
  }
  const value = Number(days ?? years);
  if (!Number.isInteger(value) || value < 1) {
    throw new StoreError(
      "InvalidRetentionPeriod",
      "Default retention period must be a positive integer value",
      400,
    );
  }
  await ctx.store.putDocument(
    ctx.bucket,
    "object-lock.json",
    JSON.stringify({ mode, ...(days ? { days: value } : { years: value }) }),
  );
  return emptyResponse(200);
}

export function parseTagging(root: ReturnType<typeof child>, limit: number): Record<string, string> {
  const tags: Record<string, string> = {};
  const nodes = children(child(root, "TagSet"), "Tag");
  if (nodes.length > limit) {
    throw new StoreError("BadRequest", `Object tags cannot be greater than ${limit}`, 400);
  }
  for (const tag of nodes) {
    const key = childText(tag, "Key") ?? "";
    const value = childText(tag, "Value") ?? "";
    if (key.length < 1 || key.length > 128) {
      throw new StoreError("InvalidTag", "The TagKey you have provided is invalid", 400);
    }
    if (value.length > 256) {
      throw new StoreError(
        "InvalidTag",
        "The TagValue you have provided is too long, max 256 characters",
        400,
      );
    }
    if (key in tags) {
      throw new StoreError("InvalidTag", "Cannot provide multiple Tags with the same key", 400);
    }
    tags[key] = value;
  }
  return tags;
}

export function taggingXml(tags: Record<string, string>): Response {
  return xmlResponse("Tagging", {
    TagSet: { Tag: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) },
  });
}

export async function getBucketTagging(ctx: S3Request): Promise<Response> {
  const text = await ctx.store.getDocument(ctx.bucket, "tagging.json");
  if (!text) throw new StoreError("NoSuchTagSet", "The TagSet does not exist", 404);
  return taggingXml(JSON.parse(text));
}

export async function putBucketTagging(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const tags = parseTagging(await readXmlBody(ctx, "Tagging"), 50);
  await ctx.store.putDocument(ctx.bucket, "tagging.json", JSON.stringify(tags));
  return emptyResponse(200);
}

export async function deleteBucketTagging(ctx: S3Request): Promise<Response> {
  await ctx.store.putDocument(ctx.bucket, "tagging.json", undefined);
  return emptyResponse(204);
}
