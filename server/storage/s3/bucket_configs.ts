/**
 * Bucket configuration documents: policy, encryption, lifecycle, replication, notification — each validated
 * as MinIO validates it, stored durably, and returned (minio-protocol §5.6–5.10).
 */
import { checkPolicy } from "../../lib/policy/validate.ts";
import { lifecycleXml, parseLifecycleXml } from "../../lib/s3/ops/lifecycle.ts";
import { notificationXml, parseNotificationXml } from "../../lib/s3/ops/notification.ts";
import { parseReplicationXml, replicationXml } from "../../lib/s3/ops/replication.ts";
import { child, childText, XmlError } from "../../lib/s3/xml.ts";
import { replicateExistingObjects } from "../replication/hooks.ts";
import { checkBucketEncryption } from "../sse/request.ts";
import {
  bucketOf,
  emptyResponse,
  readSmallBody,
  readXmlBody,
  requireContentMd5,
  type S3Request,
} from "./context.ts";
import { StoreError } from "../core/errors.ts";

const malformed = () =>
  new StoreError(
    "MalformedXML",
    "The XML you provided was not well-formed or did not validate against our published schema.",
    400,
  );

function parseOr<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof XmlError) throw malformed();
    throw error;
  }
}

async function getDocumentOr404(
  ctx: S3Request,
  name: string,
  code: string,
  message: string,
  type = "application/xml",
): Promise<Response> {
  bucketOf(ctx);
  const text = await ctx.store.getDocument(ctx.bucket, name);
  if (!text) throw new StoreError(code, message, 404);
  return new Response(text, { headers: { "content-type": type } });
}

export const getBucketPolicy = (ctx: S3Request) =>
  getDocumentOr404(
    ctx,
    "policy.json",
    "NoSuchBucketPolicy",
    "The bucket policy does not exist",
    "application/json",
  );

export async function putBucketPolicy(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const text = await readSmallBody(ctx, 20 * 1024 + 1);
  if (text.length > 20 * 1024) {
    throw new StoreError("PolicyTooLarge", "Policy exceeds the maximum allowed document size.", 400);
  }
  const { problems } = checkPolicy(text, { bucketPolicy: true, bucket: ctx.bucket });
  if (problems.length) {
    throw new StoreError(
      "MalformedPolicy",
      `Policy has invalid resource or syntax: line ${problems[0].line}: ${problems[0].message}`,
      400,
    );
  }
  await ctx.store.putDocument(ctx.bucket, "policy.json", text);
  return emptyResponse(204);
}

export async function deleteBucketPolicy(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await ctx.store.putDocument(ctx.bucket, "policy.json", undefined);
  return emptyResponse(204);
}

export const getBucketEncryption = (ctx: S3Request) =>
  getDocumentOr404(
    ctx,
    "encryption.xml",
    "ServerSideEncryptionConfigurationNotFoundError",
    "The server side encryption configuration was not found",
  );

export async function putBucketEncryption(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const root = await readXmlBody(ctx, "ServerSideEncryptionConfiguration");
  const rules = root.children.filter((c) => c.name === "Rule");
  if (rules.length !== 1) {
    throw new StoreError("MalformedXML", "Exactly one encryption rule is required", 400);
  }
  const apply = child(rules[0], "ApplyServerSideEncryptionByDefault");
  const algorithm = childText(apply, "SSEAlgorithm");
  const keyId = childText(apply, "KMSMasterKeyID");
  if (algorithm !== "AES256" && algorithm !== "aws:kms") {
    throw new StoreError("MalformedXML", "Unknown SSE algorithm", 400);
  }
  if (algorithm === "AES256" && keyId) {
    throw new StoreError("InvalidArgument", "KMSMasterKeyID is only allowed with aws:kms", 400);
  }
  // SSE hook (server/storage/sse): refused without a key store or for a key it does not have.
  checkBucketEncryption(ctx, keyId);
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<ServerSideEncryptionConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>${algorithm}</SSEAlgorithm>${
      keyId ? `<KMSMasterKeyID>${keyId.replace(/[<&>]/g, "")}</KMSMasterKeyID>` : ""
    }</ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>`;
  await ctx.store.putDocument(ctx.bucket, "encryption.xml", xml);
  return emptyResponse(200);
}

export async function deleteBucketEncryption(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await ctx.store.putDocument(ctx.bucket, "encryption.xml", undefined);
  return emptyResponse(204);
}

export const getBucketLifecycle = (ctx: S3Request) =>
  getDocumentOr404(
    ctx,
    "lifecycle.xml",
    "NoSuchLifecycleConfiguration",
    "The lifecycle configuration does not exist",
  );

/**
 * A rule's Expiration or Transition Date as MinIO takes it: RFC 3339, at midnight UTC ("Z"); written back in
 * MinIO's form, `2020-01-01T00:00:00Z`.
 */
function lifecycleDate(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  const day = m ? new Date(`${m[1]}T00:00:00Z`) : null;
  if (!m || !day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== m[1]) {
    throw new StoreError("InvalidArgument", "Date must be provided in ISO 8601 format", 400);
  }
  const [, date, hours, minutes, seconds, fraction = "0", zone] = m;
  if (hours !== "00" || minutes !== "00" || seconds !== "00" || /[1-9]/.test(fraction) || zone !== "Z") {
    throw new StoreError("InvalidArgument", "'Date' must be at midnight GMT", 400);
  }
  return `${date}T00:00:00Z`;
}

export async function putBucketLifecycle(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  requireContentMd5(ctx);
  const text = await readSmallBody(ctx);
  const list = parseOr(() => parseLifecycleXml(text));
  if (list.length === 0 || list.length > 1000) {
    throw new StoreError("MalformedXML", "A lifecycle configuration needs 1 to 1000 rules", 400);
  }
  const ids = new Set<string>();
  const tiers = ctx.facts.tierNames();
  for (const rule of list) {
    if (!rule.id) rule.id = crypto.randomUUID().replace(/-/g, "").slice(0, 20);
    if (rule.id.length > 255) {
      throw new StoreError("InvalidArgument", "ID length is limited to 255 characters", 400);
    }
    if (ids.has(rule.id)) {
      throw new StoreError(
        "InvalidArgument",
        "Rule ID must be unique. Found same ID for more than one rule",
        400,
      );
    }
    ids.add(rule.id);
    if (rule.status !== "Enabled" && rule.status !== "Disabled") {
      throw new StoreError("MalformedXML", "Rule status must be Enabled or Disabled", 400);
    }
    for (const size of [rule.sizeGreaterThan, rule.sizeLessThan]) {
      if (size !== undefined && (!Number.isInteger(size) || size < 0)) {
        throw new StoreError("InvalidArgument", "Object size filters must be non-negative integers", 400);
      }
    }
    if (
      rule.sizeGreaterThan !== undefined && rule.sizeLessThan !== undefined &&
      rule.sizeGreaterThan >= rule.sizeLessThan
    ) {
      throw new StoreError(
        "InvalidArgument",
        "ObjectSizeGreaterThan must be less than ObjectSizeLessThan",
        400,
      );
    }
    if (
      rule.abortIncompleteMultipartUploadDays !== undefined &&
      (rule.tags?.length || rule.sizeGreaterThan !== undefined || rule.sizeLessThan !== undefined)
    ) {
      throw new StoreError(
        "InvalidRequest",
        "AbortIncompleteMultipartUpload cannot be specified with Tags or object size filters",
        400,
      );
    }
    const hasAction = rule.expiration || rule.transition || rule.noncurrentExpiration ||
      rule.noncurrentTransition || rule.abortIncompleteMultipartUploadDays !== undefined;
    if (!hasAction) {
      throw new StoreError("InvalidRequest", "At least one action needs to be specified in a rule", 400);
    }
    for (
      const days of [
        rule.expiration?.days,
        rule.transition?.days,
        rule.noncurrentExpiration?.noncurrentDays,
        rule.noncurrentTransition?.noncurrentDays,
      ]
    ) {
      if (
        days !== undefined &&
        (!Number.isInteger(days) || days < 0 || (days === 0 && rule.noncurrentExpiration === undefined))
      ) {
        throw new StoreError(
          "InvalidArgument",
          "'Days' for Expiration action must be a positive integer",
          400,
        );
      }
    }
    if (
      rule.expiration && rule.expiration.days === undefined && !rule.expiration.date &&
      !rule.expiration.expiredObjectDeleteMarker
    ) {
      throw new StoreError("MalformedXML", "Expiration needs Days, Date or ExpiredObjectDeleteMarker", 400);
    }
    if (rule.expiration?.date) rule.expiration.date = lifecycleDate(rule.expiration.date);
    if (rule.transition?.date) rule.transition.date = lifecycleDate(rule.transition.date);
    for (const storageClass of [rule.transition?.storageClass, rule.noncurrentTransition?.storageClass]) {
      if (storageClass !== undefined && !tiers.includes(storageClass)) {
        throw new StoreError("InvalidStorageClass", "Invalid storage class.", 400);
      }
      // Lifecycle: the embedded storage moves data only to S3-compatible tiers.
      const type = storageClass === undefined ? undefined : ctx.facts.tierType(storageClass);
      if (type === "gcs" || type === "azure") {
        throw new StoreError(
          "NotImplemented",
          `Tier ${storageClass} is a ${
            type === "gcs" ? "GCS" : "Azure"
          } tier: the embedded storage transitions objects only to S3 and MinIO tiers`,
          501,
        );
      }
    }
  }
  await ctx.store.putDocument(ctx.bucket, "lifecycle.xml", lifecycleXml(list));
  return emptyResponse(200);
}

export async function deleteBucketLifecycle(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await ctx.store.putDocument(ctx.bucket, "lifecycle.xml", undefined);
  return emptyResponse(204);
}

export const getBucketReplication = (ctx: S3Request) =>
  getDocumentOr404(
    ctx,
    "replication.xml",
    "ReplicationConfigurationNotFoundError",
    "The replication configuration was not found",
  );

export async function putBucketReplication(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  const text = await readSmallBody(ctx);
  const parsed = parseOr(() => parseReplicationXml(text));
  if (state.meta.versioning !== "Enabled") {
    throw new StoreError(
      "InvalidRequest",
      "Versioning must be 'Enabled' on the bucket to apply a replication configuration",
      400,
    );
  }
  if (parsed.rules.length === 0) {
    throw new StoreError("MalformedXML", "A replication configuration needs at least one rule", 400);
  }
  const targets = await ctx.facts.remoteTargetArns(ctx.bucket);
  const ids = new Set<string>();
  const priorities = new Set<number>();
  for (const rule of parsed.rules) {
    if (!rule.id) rule.id = crypto.randomUUID().replace(/-/g, "").slice(0, 20);
    if (ids.has(rule.id)) throw new StoreError("InvalidArgument", "Rule ID must be unique", 400);
    ids.add(rule.id);
    if (priorities.has(rule.priority)) {
      throw new StoreError("InvalidArgument", "Rule priority must be unique", 400);
    }
    priorities.add(rule.priority);
    if (rule.status !== "Enabled" && rule.status !== "Disabled") {
      throw new StoreError("MalformedXML", "Rule status must be Enabled or Disabled", 400);
    }
    // Newer style: the destination is the remote-target ARN; legacy style: Role holds it (§5.9).
    const arn = rule.destinationBucket.startsWith("arn:minio:replication:")
      ? rule.destinationBucket
      : parsed.role;
    if (!targets.includes(arn)) {
      throw new StoreError(
        "InvalidArgument",
        "The destination ARN is not a remote target configured for this bucket",
        400,
      );
    }
    if (arn === parsed.role && parsed.role) rule.destinationBucket = arn;
  }
  await ctx.store.putDocument(
    ctx.bucket,
    "replication.xml",
    replicationXml({ role: "", rules: parsed.rules }),
  );
  replicateExistingObjects(ctx); // replication hook: ExistingObjectReplication
  return emptyResponse(200);
}

export async function deleteBucketReplication(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  await ctx.store.putDocument(ctx.bucket, "replication.xml", undefined);
  return emptyResponse(200);
}

/** Event names (and wildcards) MinIO accepts in configurations and listen requests. */
export const EVENT_PATTERN =
  /^s3:(ObjectCreated:(\*|Put|Post|Copy|CompleteMultipartUpload|PutRetention|PutLegalHold|PutTagging|DeleteTagging)|ObjectRemoved:(\*|Delete|DeleteMarkerCreated|DeleteAllVersions|NoOP)|ObjectAccessed:(\*|Get|Head|GetRetention|GetLegalHold|Attributes)|Replication:(\*|OperationFailedReplication|OperationCompletedReplication|OperationMissedThreshold|OperationReplicatedAfterThreshold|OperationNotTracked)|ObjectRestore:(\*|Post|Completed)|ObjectTransition:(\*|Failed|Complete)|Scanner:(ManyVersions|BigPrefix|LargeVersions)|BucketCreated:\*|BucketRemoved:\*|LifecycleDelMarkerExpiration:Delete)$/;

export async function getBucketNotification(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const text = await ctx.store.getDocument(ctx.bucket, "notification.xml");
  return new Response(text ?? notificationXml([]), { headers: { "content-type": "application/xml" } });
}

export async function putBucketNotification(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const text = await readSmallBody(ctx);
  const root = parseOr(() => parseNotificationXml(text));
  const arns = ctx.facts.notificationArns();
  for (const config of root) {
    if (!arns.includes(config.arn)) {
      throw new StoreError(
        "InvalidArgument",
        "A specified destination ARN does not exist or is not well-formed. Verify the destination ARN.",
        400,
      );
    }
    if (config.events.length === 0 || !config.events.every((e) => EVENT_PATTERN.test(e))) {
      throw new StoreError("InvalidArgument", "A specified event is not supported for notifications.", 400);
    }
    if (!config.id) config.id = crypto.randomUUID();
  }
  for (let i = 0; i < root.length; i++) {
    for (let j = i + 1; j < root.length; j++) {
      const a = root[i], b = root[j];
      const sameFilter = (a.prefix ?? "") === (b.prefix ?? "") && (a.suffix ?? "") === (b.suffix ?? "");
      if (a.arn === b.arn && sameFilter && a.events.some((e) => b.events.includes(e))) {
        throw new StoreError(
          "InvalidArgument",
          "Configurations overlap. Configurations on the same bucket cannot share a common event type.",
          400,
        );
      }
    }
  }
  await ctx.store.putDocument(
    ctx.bucket,
    "notification.xml",
    root.length ? notificationXml(root) : undefined,
  );
  return emptyResponse(200);
}
