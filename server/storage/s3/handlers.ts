/**
 * Which handler serves each S3 operation (the names s3/router.ts resolves requests to). The front
 * (s3_server.ts) authenticates and authorises first; a handler gets the request with its bucket, key and
 * access check already settled.
 */
import { getBucketReplicationMetrics } from "../replication/metrics.ts";
import * as configs from "./bucket_configs.ts";
import * as defaults from "./bucket_defaults.ts";
import * as buckets from "./buckets.ts";
import type { S3Handler, S3Request } from "./context.ts";
import * as cors from "./cors.ts";
import * as listen from "./listen.ts";
import * as listing from "./listing.ts";
import * as multipart from "./multipart.ts";
import * as meta from "./object_meta.ts";
import { getObjectAttributes } from "./object_attributes.ts";
import { copyObject } from "./object_copy.ts";
import * as read from "./object_read.ts";
import * as objects from "./objects.ts";
import { postObject } from "./post_object.ts";
import * as parts from "./upload_part.ts";
import type { PostForm } from "./post_policy.ts";

/**
 * S3 Select and archive extraction are imported by their first request, so a start does not load their
 * parsers (issue 25). By URL: Deno reads a literal import() into the graph it loads before the thread runs.
 */
const selectObjectContent: S3Handler = async (ctx) =>
  (await import(new URL("./select.ts", import.meta.url).href) as typeof import("./select.ts"))
    .selectObjectContent(ctx);
const putObjectExtract: S3Handler = async (ctx) =>
  (await import(new URL("./object_extract.ts", import.meta.url).href) as typeof import("./object_extract.ts"))
    .putObjectExtract(ctx);

export const HANDLERS: Record<string, S3Handler> = {
  ListBuckets: buckets.listBuckets,
  CreateBucket: buckets.createBucket,
  HeadBucket: buckets.headBucket,
  DeleteBucket: buckets.deleteBucket,
  GetBucketLocation: buckets.getBucketLocation,
  GetBucketVersioning: buckets.getBucketVersioning,
  PutBucketVersioning: buckets.putBucketVersioning,
  GetObjectLockConfiguration: buckets.getObjectLockConfiguration,
  PutObjectLockConfiguration: buckets.putObjectLockConfiguration,
  GetBucketTagging: buckets.getBucketTagging,
  PutBucketTagging: buckets.putBucketTagging,
  DeleteBucketTagging: buckets.deleteBucketTagging,
  GetBucketPolicy: configs.getBucketPolicy,
  PutBucketPolicy: configs.putBucketPolicy,
  DeleteBucketPolicy: configs.deleteBucketPolicy,
  GetBucketEncryption: configs.getBucketEncryption,
  PutBucketEncryption: configs.putBucketEncryption,
  DeleteBucketEncryption: configs.deleteBucketEncryption,
  GetBucketLifecycle: configs.getBucketLifecycle,
  PutBucketLifecycle: configs.putBucketLifecycle,
  DeleteBucketLifecycle: configs.deleteBucketLifecycle,
  GetBucketReplication: configs.getBucketReplication,
  PutBucketReplication: configs.putBucketReplication,
  DeleteBucketReplication: configs.deleteBucketReplication,
  GetBucketReplicationMetrics: getBucketReplicationMetrics,
  GetBucketNotification: configs.getBucketNotification,
  PutBucketNotification: configs.putBucketNotification,
  GetBucketCors: cors.getBucketCors,
  PutBucketCors: cors.putBucketCors,
  DeleteBucketCors: cors.deleteBucketCors,
  GetBucketAcl: defaults.getAcl,
  PutBucketAcl: defaults.putAcl,
  GetBucketPolicyStatus: defaults.getBucketPolicyStatus,
  GetBucketWebsite: defaults.getBucketWebsite,
  DeleteBucketWebsite: defaults.deleteBucketWebsite,
  GetBucketLogging: defaults.getBucketLogging,
  GetBucketAccelerate: defaults.getBucketAccelerate,
  GetBucketRequestPayment: defaults.getBucketRequestPayment,
  ListObjects: listing.listObjectsV1,
  ListObjectsV2: listing.listObjectsV2,
  ListObjectVersions: listing.listObjectVersions,
  ListMultipartUploads: listing.listMultipartUploads,
  DeleteObjects: meta.deleteObjects,
  PutObject: objects.putObject,
  PutObjectExtract: putObjectExtract,
  CopyObject: copyObject,
  GetObject: read.getObject,
  HeadObject: read.headObject,
  DeleteObject: objects.deleteObject,
  GetObjectAttributes: getObjectAttributes,
  SelectObjectContent: selectObjectContent,
  GetObjectAcl: defaults.getAcl,
  PutObjectAcl: defaults.putAcl,
  GetObjectTagging: meta.getObjectTagging,
  PutObjectTagging: meta.putObjectTagging,
  DeleteObjectTagging: meta.deleteObjectTagging,
  GetObjectRetention: meta.getObjectRetention,
  PutObjectRetention: meta.putObjectRetention,
  GetObjectLegalHold: meta.getObjectLegalHold,
  PutObjectLegalHold: meta.putObjectLegalHold,
  CreateMultipartUpload: multipart.createMultipartUpload,
  UploadPart: parts.uploadPart,
  UploadPartCopy: parts.uploadPartCopy,
  CompleteMultipartUpload: multipart.completeMultipartUpload,
  AbortMultipartUpload: multipart.abortMultipartUpload,
  ListParts: multipart.listPartsHandler,
  PostObject: (ctx) => postObject(ctx as S3Request & { form: PostForm }),
  ListenBucketNotification: listen.listenBucketNotification,
  ListenNotification: listen.listenBucketNotification,
};
