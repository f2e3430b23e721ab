/**
 * Which S3 operation a request is, and the IAM action that authorises it: dispatch on method plus the
 * presence of sub-resource query keys, object keys first (minio-protocol §7 "Routing").
 */

export interface Operation {
  name: string;
  action: string;
}

const op = (name: string, action: string): Operation => ({ name, action });

/** Sub-resources we do not implement; S3 clients get NotImplemented for them. */
const UNSUPPORTED = [
  "replication-reset",
  "replication-reset-status",
  "analytics",
  "inventory",
  "metrics",
  "ownershipControls",
  "publicAccessBlock",
  "intelligent-tiering",
  "restore",
  "torrent",
];

/** Resolves the operation; null for "not implemented". */
export function resolveOperation(
  method: string,
  bucket: string,
  key: string,
  query: URLSearchParams,
  headers: Headers,
): Operation | null {
  const has = (name: string) => query.has(name);
  if (UNSUPPORTED.some(has)) return null;
  if (!bucket) {
    if (has("events")) return method === "GET" ? op("ListenNotification", "s3:ListenNotification") : null;
    return method === "GET" ? op("ListBuckets", "s3:ListAllMyBuckets") : null;
  }
  if (key) {
    if (has("uploadId") && has("partNumber") && method === "PUT") {
      return headers.has("x-amz-copy-source")
        ? op("UploadPartCopy", "s3:PutObject")
        : op("UploadPart", "s3:PutObject");
    }
    if (has("uploadId")) {
      return ({
        POST: op("CompleteMultipartUpload", "s3:PutObject"),
        DELETE: op("AbortMultipartUpload", "s3:AbortMultipartUpload"),
        GET: op("ListParts", "s3:ListMultipartUploadParts"),
      } as Record<string, Operation>)[method] ?? null;
    }
    if (has("uploads")) return method === "POST" ? op("CreateMultipartUpload", "s3:PutObject") : null;
    if (has("tagging")) {
      return ({
        GET: op("GetObjectTagging", "s3:GetObjectTagging"),
        PUT: op("PutObjectTagging", "s3:PutObjectTagging"),
        DELETE: op("DeleteObjectTagging", "s3:DeleteObjectTagging"),
      } as Record<string, Operation>)[method] ?? null;
    }
    if (has("retention")) {
      return ({
        GET: op("GetObjectRetention", "s3:GetObjectRetention"),
        PUT: op("PutObjectRetention", "s3:PutObjectRetention"),
      } as Record<string, Operation>)[method] ?? null;
    }
    if (has("legal-hold")) {
      return ({
        GET: op("GetObjectLegalHold", "s3:GetObjectLegalHold"),
        PUT: op("PutObjectLegalHold", "s3:PutObjectLegalHold"),
      } as Record<string, Operation>)[method] ?? null;
    }
    // MinIO's stand-in ACLs: read as "owner has full control", and only "private" may be set.
    if (has("acl")) {
      return ({
        GET: op("GetObjectAcl", "s3:GetObject"),
        PUT: op("PutObjectAcl", "s3:PutBucketPolicy"),
      } as Record<
        string,
        Operation
      >)[method] ?? null;
    }
    if (has("attributes")) {
      if (method !== "GET") return null;
      return query.has("versionId")
        ? op("GetObjectAttributes", "s3:GetObjectVersionAttributes")
        : op("GetObjectAttributes", "s3:GetObjectAttributes");
    }
    if (has("select")) {
      return method === "POST" && query.get("select-type") === "2"
        ? op("SelectObjectContent", "s3:GetObject")
        : null;
    }
    switch (method) {
      case "PUT":
        if (headers.has("x-amz-copy-source")) return op("CopyObject", "s3:PutObject");
        // MinIO's auto-extract upload (its api-router matches the header's value against "true").
        return /true/.test(headers.get("x-amz-meta-snowball-auto-extract") ?? "")
          ? op("PutObjectExtract", "s3:PutObject")
          : op("PutObject", "s3:PutObject");
      case "GET":
        return op("GetObject", "s3:GetObject");
      case "HEAD":
        return op("HeadObject", "s3:GetObject");
      case "DELETE":
        return op("DeleteObject", "s3:DeleteObject");
      case "POST":
        return null;
    }
    return null;
  }
  // MinIO's listen extension (minio-protocol §5.20) routes on the presence of `events`.
  if (has("events")) {
    return method === "GET" ? op("ListenBucketNotification", "s3:ListenBucketNotification") : null;
  }
  const sub: [string, Record<string, Operation>][] = [
    ["location", { GET: op("GetBucketLocation", "s3:GetBucketLocation") }],
    ["policy", {
      GET: op("GetBucketPolicy", "s3:GetBucketPolicy"),
      PUT: op("PutBucketPolicy", "s3:PutBucketPolicy"),
      DELETE: op("DeleteBucketPolicy", "s3:DeleteBucketPolicy"),
    }],
    ["lifecycle", {
      GET: op("GetBucketLifecycle", "s3:GetLifecycleConfiguration"),
      PUT: op("PutBucketLifecycle", "s3:PutLifecycleConfiguration"),
      DELETE: op("DeleteBucketLifecycle", "s3:PutLifecycleConfiguration"),
    }],
    ["encryption", {
      GET: op("GetBucketEncryption", "s3:GetEncryptionConfiguration"),
      PUT: op("PutBucketEncryption", "s3:PutEncryptionConfiguration"),
      DELETE: op("DeleteBucketEncryption", "s3:PutEncryptionConfiguration"),
    }],
    ["object-lock", {
      GET: op("GetObjectLockConfiguration", "s3:GetBucketObjectLockConfiguration"),
      PUT: op("PutObjectLockConfiguration", "s3:PutBucketObjectLockConfiguration"),
    }],
    ["replication-metrics", { GET: op("GetBucketReplicationMetrics", "s3:GetReplicationConfiguration") }],
    ["replication", {
      GET: op("GetBucketReplication", "s3:GetReplicationConfiguration"),
      PUT: op("PutBucketReplication", "s3:PutReplicationConfiguration"),
      DELETE: op("DeleteBucketReplication", "s3:PutReplicationConfiguration"),
    }],
    ["versioning", {
      GET: op("GetBucketVersioning", "s3:GetBucketVersioning"),
      PUT: op("PutBucketVersioning", "s3:PutBucketVersioning"),
    }],
    ["notification", {
      GET: op("GetBucketNotification", "s3:GetBucketNotification"),
      PUT: op("PutBucketNotification", "s3:PutBucketNotification"),
    }],
    ["tagging", {
      GET: op("GetBucketTagging", "s3:GetBucketTagging"),
      PUT: op("PutBucketTagging", "s3:PutBucketTagging"),
      DELETE: op("DeleteBucketTagging", "s3:PutBucketTagging"),
    }],
    ["uploads", { GET: op("ListMultipartUploads", "s3:ListBucketMultipartUploads") }],
    // AWS authorises DeleteBucketCors with s3:PutBucketCORS.
    ["cors", {
      GET: op("GetBucketCors", "s3:GetBucketCors"),
      PUT: op("PutBucketCors", "s3:PutBucketCors"),
      DELETE: op("DeleteBucketCors", "s3:PutBucketCors"),
    }],
    ["versions", { GET: op("ListObjectVersions", "s3:ListBucketVersions") }],
    ["delete", { POST: op("DeleteObjects", "s3:DeleteObject") }],
    ["acl", { GET: op("GetBucketAcl", "s3:GetBucketPolicy"), PUT: op("PutBucketAcl", "s3:PutBucketPolicy") }],
    ["policyStatus", { GET: op("GetBucketPolicyStatus", "s3:GetBucketPolicyStatus") }],
    // Features MinIO does not have, read as S3's defaults (its dummy handlers); setting them is NotImplemented.
    ["website", {
      GET: op("GetBucketWebsite", "s3:GetBucketPolicy"),
      DELETE: op("DeleteBucketWebsite", "s3:PutBucketPolicy"),
    }],
    ["logging", { GET: op("GetBucketLogging", "s3:GetBucketPolicy") }],
    ["accelerate", { GET: op("GetBucketAccelerate", "s3:GetBucketPolicy") }],
    ["requestPayment", { GET: op("GetBucketRequestPayment", "s3:GetBucketPolicy") }],
  ];
  for (const [name, methods] of sub) if (has(name)) return methods[method] ?? null;
  switch (method) {
    case "PUT":
      return op("CreateBucket", "s3:CreateBucket");
    case "HEAD":
      return op("HeadBucket", "s3:ListBucket");
    case "DELETE":
      return headers.get("x-minio-force-delete") === "true"
        ? op("DeleteBucket", "s3:ForceDeleteBucket")
        : op("DeleteBucket", "s3:DeleteBucket");
    case "GET":
      return op(query.get("list-type") === "2" ? "ListObjectsV2" : "ListObjects", "s3:ListBucket");
    case "POST":
      // A browser form upload (POST policy): authenticated by the signed policy in the form.
      return /^multipart\/form-data/i.test(headers.get("content-type") ?? "")
        ? op("PostObject", "s3:PutObject")
        : null;
  }
  return null;
}
