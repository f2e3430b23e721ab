/**
 * What MinIO answers for S3 features it does not have (its dummy handlers): ACLs read as "the owner has full
 * control" and set only as `private` (or one FULL_CONTROL grant); website, logging, transfer acceleration and
 * requester-pays read as S3's defaults; and the policy status, public when anonymous clients may both list
 * the bucket and upload to it.
 */
import { evaluate } from "../../lib/policy/evaluate.ts";
import { normalizePolicy } from "../../lib/policy/types.ts";
import { child, children, childText, escapeXml, S3_NAMESPACE } from "../../lib/s3/xml.ts";
import { findVersion } from "../fs/objects.ts";
import { bucketOf, emptyResponse, OWNER, readXmlBody, type S3Request, xmlResponse } from "./context.ts";
import { StoreError } from "../core/errors.ts";

const XML = { "content-type": "application/xml" };
const prologue = `<?xml version="1.0" encoding="UTF-8"?>\n`;
const notImplemented = () =>
  new StoreError(
    "NotImplemented",
    "A header you provided implies functionality that is not implemented",
    501,
  );

/** The ACL of a bucket or object: its owner, with a CanonicalUser grantee typed as S3 types it. */
export async function getAcl(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  if (ctx.key) findVersion(state, ctx.key, ctx.query.get("versionId") || undefined);
  const owner = `<ID>${escapeXml(OWNER.ID)}</ID><DisplayName>${escapeXml(OWNER.DisplayName)}</DisplayName>`;
  const grantee =
    `<Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser">${owner}</Grantee>`;
  return new Response(
    `${prologue}<AccessControlPolicy xmlns="${S3_NAMESPACE}"><Owner>${owner}</Owner><AccessControlList><Grant>${grantee}<Permission>FULL_CONTROL</Permission></Grant></AccessControlList></AccessControlPolicy>`,
    { headers: XML },
  );
}

/** PutBucketAcl / PutObjectAcl: `x-amz-acl: private`, or a body whose first grant is FULL_CONTROL. */
export async function putAcl(ctx: S3Request): Promise<Response> {
  const state = bucketOf(ctx);
  if (ctx.key) findVersion(state, ctx.key, ctx.query.get("versionId") || undefined);
  const canned = ctx.request.headers.get("x-amz-acl");
  if (canned) {
    if (canned !== "private") throw notImplemented();
    return emptyResponse(200);
  }
  const root = await readXmlBody(ctx, "AccessControlPolicy");
  const grants = children(child(root, "AccessControlList"), "Grant");
  if (grants.length === 0 || childText(grants[0], "Permission") !== "FULL_CONTROL") throw notImplemented();
  return emptyResponse(200);
}

export async function getBucketWebsite(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  throw new StoreError(
    "NoSuchWebsiteConfiguration",
    "The specified bucket does not have a website configuration",
    404,
  );
}

export async function deleteBucketWebsite(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  return emptyResponse(200);
}

export async function getBucketLogging(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  return new Response(`${prologue}<BucketLoggingStatus xmlns="${S3_NAMESPACE}"></BucketLoggingStatus>`, {
    headers: XML,
  });
}

export async function getBucketAccelerate(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  return xmlResponse("AccelerateConfiguration", {});
}

export async function getBucketRequestPayment(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  return xmlResponse("RequestPaymentConfiguration", { Payer: "BucketOwner" });
}

/** IsPublic "TRUE" when the bucket policy lets anonymous clients both list the bucket and upload to it. */
export async function getBucketPolicyStatus(ctx: S3Request): Promise<Response> {
  bucketOf(ctx);
  const text = await ctx.store.getDocument(ctx.bucket, "policy.json");
  const policy = text ? normalizePolicy(JSON.parse(text)) : null;
  const anonymous = (action: string) =>
    !!policy &&
    evaluate([{ name: "bucket", policy }], { action, bucket: ctx.bucket, key: "", conditions: {} }).allowed;
  const isPublic = anonymous("s3:ListBucket") && anonymous("s3:PutObject");
  return xmlResponse("PolicyStatus", { IsPublic: isPublic ? "TRUE" : "FALSE" });
}
