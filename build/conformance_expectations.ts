/**
 * Which s3-tests failures MinIO shares: each rule names tests (by pytest mark, file, name or junit message) that
 * fail against MinIO too, why, and the source that says so. `deno task conformance` files every failure a
 * rule matches under "MinIO does not support this either"; the rest are ours to fix. A failure that looks like
 * a server fault (a 500, a dropped connection, a timeout) is ours whatever the rules say: MinIO would answer.
 * A rule that matched tests of a run but none of its failures is listed as stale in the report.
 *
 * Sources name files of github.com/minio/minio (read at commit 7aac2a2, 2026-02-12) or s3-tests' own marks.
 */

export interface Expectation {
  /** Any test carrying one of these pytest marks. */
  marks?: string[];
  /** Test names (without the file), exact or by pattern; parameters in brackets are ignored. */
  tests?: (string | RegExp)[];
  /** Any failure whose junit message matches. */
  messages?: RegExp[];
  /** With tests, marks or file: the rule covers only failures whose junit message also matches this. */
  when?: RegExp;
  /** Tests the rule leaves out although it names them: MinIO passes these. */
  except?: string[];
  /** Only tests in this file of s3tests/functional/ (alone: every test of the file). */
  file?: string;
  /** The suite assumes Ceph RGW here (its extensions, its test setup), not S3 as AWS or MinIO serve it. */
  rgwOnly?: boolean;
  /** Why MinIO fails it too, in one line. */
  reason: string;
  /** Where that is written: MinIO source or documentation, or the suite's own marks. */
  source: string;
}

const ROUTER = "minio/minio cmd/api-router.go";
const REJECTED = `${ROUTER}: \`rejectedBucketAPIs\` answer NotImplemented`;

export const EXPECTATIONS: Expectation[] = [
  // The suite's RGW-only areas.
  {
    marks: ["bucket_logging", "bucket_logging_cleanup"],
    rgwOnly: true,
    reason: "Bucket logging (PutBucketLogging and RGW's extensions to it): MinIO refuses PUT/DELETE ?logging",
    source: `${REJECTED} (logging); s3-tests marks bucket_logging`,
  },
  {
    file: "test_iam.py",
    rgwOnly: true,
    reason:
      "The AWS IAM query API (users, policies, groups, roles, OIDC providers, accounts) at the S3 endpoint: " +
      "MinIO manages identities through its admin API instead",
    source:
      "minio/minio cmd/routers.go registers S3, STS and admin routes only; identities: cmd/admin-router.go",
  },
  {
    file: "test_sts.py",
    rgwOnly: true,
    reason:
      "STS with roles created through the IAM API, GetSessionToken, GetCallerIdentity and Keycloak web " +
      "identities: MinIO's STS has AssumeRole (no role ARNs) and AssumeRoleWith* for its configured identity providers",
    source: "minio/minio cmd/sts-handlers.go (registerSTSRouter routes only the AssumeRole* actions)",
  },
  {
    file: "test_sns.py",
    rgwOnly: true,
    reason:
      "The SNS topic API (CreateTopic, ...) of RGW's bucket notifications: MinIO configures notification " +
      "targets in its server configuration",
    source: "s3-tests mark sns; MinIO: mc admin config set notify_* (no SNS API)",
  },
  {
    marks: ["lifecycle_expiration"],
    rgwOnly: true,
    reason:
      "Expiry within seconds: the tests count on RGW's rgw_lc_debug_interval, which makes a lifecycle day " +
      "last lc_debug_interval seconds; MinIO counts real days",
    source: "s3-tests s3tests.conf.SAMPLE (lc_debug_interval); mark lifecycle_expiration",
  },
  {
    marks: ["lifecycle_transition", "cloud_transition", "cloud_restore"],
    rgwOnly: true,
    reason:
      "Transitions to storage classes and cloud tiers configured in RGW; MinIO transitions to tiers added " +
      "with mc ilm tier add",
    source: "s3-tests marks lifecycle_transition, cloud_transition, cloud_restore",
  },
  {
    tests: ["test_account_usage", "test_head_bucket_usage", "test_bucket_head_extended"],
    rgwOnly: true,
    reason: "RGW's usage extensions (x-rgw-object-count, x-rgw-bytes-used, the account usage summary)",
    source: "s3-tests reads RGW's X-RGW-* headers and its ?usage answer",
  },
  {
    tests: ["test_bucket_list_unordered", "test_bucket_listv2_unordered"],
    rgwOnly: true,
    reason: "RGW's allow-unordered listing parameter",
    source: "s3-tests uses RGW's allow-unordered query parameter",
  },
  // What MinIO refuses or answers differently.
  {
    tests: [
      /acl/,
      /^test_access_bucket_/,
      "test_bucket_list_objects_anonymous",
      "test_bucket_listv2_objects_anonymous",
      "test_expected_bucket_owner",
      "test_object_anon_put_write_access",
      "test_object_raw_get",
      "test_object_raw_get_bucket_gone",
      "test_object_raw_get_object_gone",
      "test_object_delete_key_bucket_gone",
      "test_post_object_anonymous_request",
      "test_post_object_tags_anonymous_request",
      "test_cors_origin_response",
      "test_cors_origin_wildcard",
      "test_list_multipart_upload_owner",
      // These set a public-read or public-read-write ACL first (PutBucketAcl, or CreateBucket with
      // x-amz-acl) and then read or write anonymously through it.
      "test_100_continue",
      /^test_cors_presigned_/,
      /^test_object_raw_get_x_amz_expires_not_expired/,
      "test_post_object_set_success_code",
      "test_post_object_set_invalid_success_code",
      "test_post_object_success_redirect_action",
    ],
    except: ["test_bucket_acl_canned_private_to_private", "test_object_acl_canned_during_create_private"],
    reason:
      "ACLs other than private: MinIO accepts only the private canned ACL (or one FULL_CONTROL grant), " +
      "answers NotImplemented otherwise, and reports every ACL as the owner's FULL_CONTROL; access is decided by " +
      "IAM and bucket policies",
    source: "minio/minio cmd/acl-handlers.go (PutBucketACLHandler and PutObjectACLHandler are dummy calls)",
  },
  {
    marks: ["object_ownership"],
    messages: [/BucketOwnershipControls operation/],
    reason: "Object ownership controls: MinIO refuses ?ownershipControls",
    source: `${REJECTED} (ownershipControls)`,
  },
  {
    messages: [/PublicAccessBlock operation/],
    tests: [/block_public|public_block/],
    reason: "Block Public Access: MinIO refuses ?publicAccessBlock",
    source: `${REJECTED} (publicAccessBlock)`,
  },
  {
    messages: [/'arn:aws:kms:/],
    reason: "MinIO names the SSE-KMS key as arn:aws:kms:<key> in x-amz-server-side-encryption-aws-kms-key-id",
    source: "minio/minio cmd/encryption-v1.go (crypto.ARNPrefix added to the key ID)",
  },
  {
    messages: [
      /BucketAlreadyOwnedByYou\) when calling the CreateBucket/,
      /'BucketAlreadyOwnedByYou' == 'BucketAlreadyExists'/,
    ],
    tests: ["test_bucket_create_exists"],
    reason:
      "Creating an existing bucket: MinIO answers 409 BucketAlreadyOwnedByYou whoever asks (buckets have no " +
      "owning user), where AWS us-east-1 answers 200 to the owner and BucketAlreadyExists to others",
    source: "minio/minio cmd/api-errors.go (BucketExists maps to ErrBucketAlreadyOwnedByYou)",
  },
  {
    tests: ["test_object_create_bad_expect_mismatch", "test_bucket_create_bad_expect_mismatch"],
    reason:
      "An Expect header other than 100-continue: MinIO's HTTP server (Go's net/http) answers 417 Expectation " +
      "Failed before MinIO sees the request",
    source: "Go net/http server.go (conn.serve calls sendExpectationFailed), which MinIO serves with",
  },
  {
    tests: ["test_object_raw_get_x_amz_expires_out_max_range"],
    reason:
      "A presigned URL valid for more than 7 days: MinIO answers 400 (X-Amz-Expires must be less than a week)",
    source: "minio/minio cmd/api-errors.go (ErrMaximumExpires, HTTP 400)",
  },
  {
    tests: ["test_object_copy_not_owned_bucket"],
    reason:
      "Another user's bucket: buckets have no owning user in MinIO, so a user whose policy allows s3:* " +
      "(the suite's accounts have readwrite) reaches every bucket",
    source:
      "minio/minio cmd/auth-handler.go (access is decided by IAM and bucket policies, not by ownership)",
  },
  {
    messages: [/ParamValidationError/],
    reason:
      "The suite's own call fails botocore's parameter validation before any request is sent: no server " +
      "passes it with this boto3",
    source: "the junit message (botocore.exceptions.ParamValidationError)",
  },
  {
    tests: [/^test_(object|bucket)_create_bad_authorization_(empty|none)$/],
    reason:
      "The suite cannot take the Authorization header away (boto3 signs after the suite's hook), so the " +
      "request it means to be unsigned is signed and succeeds on any server",
    source: "s3-tests test_headers.py (fails_on_rgw, with a TODO saying so)",
  },
  {
    messages: [/kms:KeyNotFound/],
    reason:
      "A second KMS key (the suite's kms_keyid2): MinIO's static key store (MINIO_KMS_SECRET_KEY) holds one " +
      "key and answers kms:KeyNotFound for any other",
    source: "minio/minio internal/kms/secret-key.go (a single-key KMS; ErrKeyNotFound for other key IDs)",
  },
  {
    messages: [/resources must be inside bucket/],
    reason: "A bucket policy naming another bucket's objects: MinIO refuses it as MalformedPolicy",
    source:
      "minio/minio cmd/bucket-policy-handlers.go (ParseBucketPolicyConfig checks every resource against the " +
      "bucket)",
  },
  {
    tests: [
      /^test_bucket_policy_(get_obj_existing_tag|get_obj_tagging_existing_tag|multipart|put_obj_copy_source|put_obj_copy_source_meta|put_obj_kms_s3|put_obj_request_obj_tag|put_obj_s3_incorrect_algo_sse_s3|put_obj_s3_kms|put_obj_s3_noenc|put_obj_tagging_existing_tag|set_condition_operator_end_with_IfExists|upload_part_copy)$/,
      "test_encryption_sse_c_deny_algo_with_bucket_policy",
      "test_encryption_sse_c_enforced_with_bucket_policy",
      "test_head_object_404_with_policy_prefix",
    ],
    reason:
      "A bucket policy that should refuse or allow a signed request: MinIO consults bucket policies only for " +
      "anonymous requests and judges signed ones by the user's IAM policies (the suite's users have readwrite)",
    source:
      "minio/minio cmd/auth-handler.go (authorizeRequest: globalPolicySys only when cred.AccessKey is empty)",
  },
  {
    messages: [/unsupported condition key "s3:x-amz-grant-/],
    reason: "Grant headers as policy condition keys: MinIO's condition-key list has no s3:x-amz-grant-*",
    source: "minio/pkg policy/condition/key.go (the supported keys; others are refused as MalformedPolicy)",
  },
  {
    tests: ["test_bucket_policy_different_tenant", "test_bucket_policy_tenanted_bucket"],
    rgwOnly: true,
    reason: "RGW tenants (tenant:bucket names and tenant users)",
    source: "s3-tests' tenant client and bucket names of the form tenant:bucket",
  },
  {
    messages: [/MinIO supports only the anonymous principal/],
    reason: 'A bucket policy naming an IAM principal: MinIO\'s bucket policies accept only the "*" principal',
    source:
      "minio/minio cmd/bucket-policy-handlers.go (PutBucketPolicyHandler validates with policy.ParseBucketPolicyConfig)",
  },
  {
    tests: [/^test_(delete_object|delete_objects)_.*if_match/],
    reason:
      "Conditional deletes (If-Match, x-amz-if-match-size, x-amz-if-match-last-modified-time on DeleteObject and " +
      "DeleteObjects): MinIO deletes without checking them, as AWS does outside directory buckets",
    source:
      "minio/minio cmd/object-handlers.go (DeleteObjectHandler checks no precondition); s3-tests marks fails_on_aws",
  },
  {
    tests: [
      "test_encryption_sse_c_other_key",
      "test_encryption_sse_c_multipart_bad_download",
      "test_encryption_sse_c_multipart_invalid_chunks_1",
      "test_copy_part_enc",
    ],
    when: /^assert 403 == 400/,
    reason:
      "A wrong SSE-C key (reading an object, or uploading a part with another key than its upload's): MinIO " +
      "answers 403 AccessDenied (no access without the right key), AWS 400",
    source:
      "minio/minio cmd/api-errors.go (toAPIErrorCode: crypto.ErrInvalidCustomerKey maps to ErrAccessDenied)",
  },
  {
    file: "test_s3select.py",
    // pytest shortens long strings in its assertion message: `...ter ";" at 42` is the same parse error.
    messages: [/unexpected character ";"|ter ";" at \d+/],
    tests: ["test_progress_expressions", "test_alias_cyclic_refernce", "test_schema_definition"],
    rgwOnly: true,
    reason:
      "Queries ending in \";\", RGW's SQL functions (int(), ...) and RGW's own error texts: MinIO's grammar ends " +
      "at LIMIT and has no statement terminator",
    source: "minio/minio internal/s3select/sql/parser.go (type Select: SELECT, FROM, WHERE, LIMIT)",
  },
  {
    tests: [/object_attributes$/, /^test_multipart_use_cksum_helper_sha(1|256)$/],
    when: /'ObjectParts' not in|==.*-\d+'/,
    reason:
      "GetObjectAttributes: MinIO lists ObjectParts for every object (a single PUT has one part) and gives " +
      "checksums without the -<parts> suffix",
    source:
      'minio/minio cmd/object-handlers.go (GetObjectAttributesHandler: strings.Split(checksum, "-")[0])',
  },
  {
    tests: [/^test_(multipart|non_multipart)_(single_)?(sse_c_)?get_part$/],
    when: /^assert 416 == 400|'InvalidRequest' == 'InvalidPart'/,
    reason:
      "A part number past the last: MinIO answers InvalidPartNumber with 416 (AWS: 400), and a read of an SSE-C " +
      "object without its key is refused first (InvalidRequest); MinIO's InvalidPart belongs to " +
      "CompleteMultipartUpload only",
    source:
      "minio/minio cmd/api-errors.go (ErrInvalidPartNumber: http.StatusRequestedRangeNotSatisfiable; ErrSSEEncryptedObject)",
  },
  {
    tests: [
      "test_multipart_upload",
      "test_multipart_upload_small",
      "test_multipart_reupload_checksum_and_etag",
    ],
    when: /NoSuchUpload\) when calling the CompleteMultipartUpload/,
    reason: "Completing an upload a second time: MinIO answers NoSuchUpload once an upload is completed",
    source: "minio/minio issue 13318 (closed as working as intended)",
  },
  {
    tests: ["test_multipart_copy_invalid_range"],
    reason: "An x-amz-copy-source-range outside the source: MinIO answers InvalidArgument, AWS InvalidRange",
    source: "minio/minio cmd/api-errors.go (ErrInvalidCopyPartRangeSource: InvalidArgument)",
  },
  {
    tests: [
      "test_object_checksum_sha256",
      "test_object_checksum_crc64nvme",
      "test_multipart_checksum_sha256",
    ],
    when: /'InvalidArgument' == 'BadDigest'/,
    reason:
      "A checksum header that is not base64 of the right length: MinIO answers InvalidArgument, AWS BadDigest",
    source:
      "minio/minio internal/hash/checksum.go and cmd/api-errors.go (ErrInvalidChecksum: InvalidArgument)",
  },
  {
    file: "test_headers.py",
    tests: [/_aws2$/],
    when: /ClientError not raised/,
    reason:
      "The suite cannot send these V2 requests as meant: botocore's V2 signer sets Date and Authorization " +
      "after the suite's hook, so the request is signed correctly and succeeds on any server",
    source:
      "botocore auth.py (HmacV1Auth replaces Date and Authorization); s3-tests marks fails_on_rgw on the twins",
  },
  {
    file: "test_headers.py",
    tests: [/_date_(before_epoch|invalid)_aws2$/],
    reason:
      "A V2 request with a bad Date: MinIO answers RequestTimeTooSkewed (403) for a valid but distant date and " +
      "MalformedDate (400) for an unreadable one, where the suite expects AccessDenied 403",
    source: "minio/minio cmd/auth-handler.go (setAuthMiddleware: parseAmzDateHeader, then globalMaxSkewTime)",
  },
  {
    tests: ["test_object_create_date_and_amz_date", "test_object_create_amz_date_and_no_date"],
    reason:
      "With a Date header botocore sends no X-Amz-Date, and MinIO reads the Date header as ISO 8601 only, so " +
      "an RFC 1123 Date is MalformedDate",
    source: "minio/minio cmd/signature-v4.go (doesSignatureMatch: time.Parse(iso8601Format, date))",
  },
  {
    tests: [
      "test_object_raw_get_x_amz_expires_out_positive_range",
      "test_object_raw_put_authenticated_expired",
    ],
    reason: "A negative X-Amz-Expires: MinIO answers 400 (X-Amz-Expires must be non-negative), AWS 403",
    source: "minio/minio cmd/api-errors.go (ErrNegativeExpires, HTTP 400)",
  },
  {
    tests: ["test_object_write_with_chunked_transfer_encoding", "test_object_create_bad_contentlength_none"],
    reason:
      "A PUT without Content-Length (plain chunked transfer encoding, not aws-chunked): MinIO answers " +
      "MissingContentLength",
    source: "minio/minio cmd/object-handlers.go (PutObjectHandler: size -1 answers ErrMissingContentLength)",
  },
  {
    tests: ["test_object_set_get_unicode_metadata"],
    reason:
      "A metadata value with a non-ASCII character: botocore signs it as UTF-8 but http.client sends it as " +
      "Latin-1, and MinIO signs the bytes it received, so the signature does not match",
    source: "minio/minio cmd/signature-v4-utils.go (extractSignedHeaders uses the received header values)",
  },
  {
    tests: ["test_object_read_unreadable"],
    reason:
      "A key with a C1 control character: MinIO takes it as a key (404 NoSuchKey), AWS refuses the URI (400)",
    source: "minio/minio cmd/object-api-utils.go (IsValidObjectName accepts any valid UTF-8)",
  },
  {
    tests: ["test_bucket_list_prefix_unreadable"],
    reason:
      "ListObjects (V1) with encoding-type=url: MinIO URL-encodes Prefix too, which botocore does not decode",
    source:
      "minio/minio cmd/api-response.go (generateListObjectsV1Response: s3EncodeName(prefix, encodingType))",
  },
  {
    tests: ["test_bucket_listv2_continuationtoken_empty"],
    reason:
      "An empty continuation-token: MinIO answers InvalidArgument (the continuation token provided is incorrect)",
    source: "minio/minio cmd/api-utils.go and cmd/api-errors.go (ErrIncorrectContinuationToken)",
  },
  {
    tests: ["test_list_buckets_paginated"],
    reason: "ListBuckets with max-buckets: MinIO lists every bucket in one page",
    source:
      "minio/minio cmd/bucket-handlers.go (ListBucketsHandler reads no max-buckets or continuation-token)",
  },
  {
    tests: [/^test_object_lock_put_obj_lock_(invalid_mode|invalid_status|with_days_and_years)$/],
    when: /'InvalidArgument' == 'MalformedXML'/,
    reason: "An invalid object lock configuration: MinIO answers InvalidArgument, AWS MalformedXML",
    source:
      "minio/minio cmd/bucket-handlers.go (PutBucketObjectLockConfigHandler: ParseObjectLockConfig errors are ErrInvalidArgument)",
  },
  {
    tests: ["test_object_lock_put_obj_lock_enable_after_create"],
    reason: "Enabling object lock on an existing bucket: MinIO refuses it (only at bucket creation)",
    source: "minio/minio cmd/api-errors.go (ErrObjectLockConfigurationNotAllowed)",
  },
  {
    tests: ["test_object_lock_suspend_versioning"],
    reason:
      "Suspending versioning of an object lock bucket: MinIO answers InvalidBucketState with 400, AWS 409",
    source:
      "minio/minio cmd/bucket-versioning-handler.go (PutBucketVersioningHandler: http.StatusBadRequest)",
  },
  {
    tests: ["test_delete_marker_nonversioned"],
    reason:
      "HEAD of a deleted key in an unversioned bucket: MinIO sends x-amz-delete-marker only in versioned buckets",
    source:
      "minio/minio cmd/object-handlers.go (HeadObjectHandler sets the delete-marker header when versioned)",
  },
  {
    tests: ["test_put_excess_tags"],
    reason: "More than 10 object tags: MinIO answers BadRequest, AWS InvalidTag",
    source: "minio/minio-go pkg/tags/tags.go (errTooManyObjectTags has code BadRequest)",
  },
  {
    tests: ["test_put_obj_with_tags"],
    reason:
      "Tags come back in the order they were stored, not sorted by key as AWS sorts them (MinIO: map order)",
    source: "minio/minio-go pkg/tags/tags.go (tagSet.MarshalXML ranges over a map)",
  },
  {
    tests: ["test_sse_kms_no_key"],
    reason: "SSE-KMS without a key ID: MinIO encrypts with its default key instead of refusing",
    source:
      "minio/minio internal/crypto/sse-kms.go (ParseHTTP: the key ID is optional; the KMS default key is used)",
  },
  {
    tests: [/^test_post_object_/],
    when: /^assert 403 == 400/,
    reason:
      "A POST form with a malformed or unsigned policy: MinIO answers 403 (AccessDenied, PostPolicyInvalidKeyName, " +
      "SignatureDoesNotMatch) where AWS answers 400",
    source: "minio/minio cmd/bucket-handlers.go (PostPolicyBucketHandler) and cmd/api-errors.go " +
      "(ErrPostPolicyConditionInvalidFormat: http.StatusForbidden)",
  },
  {
    tests: ["test_post_object_upload_checksum"],
    reason:
      "The form sends x-amz-checksum-sha256, which its policy does not name: MinIO refuses every form field " +
      "without a policy condition (403), as S3's documentation requires",
    source:
      "minio/minio cmd/postpolicyform.go (checkPostPolicy: keyInPolicyExceptions lists no checksum field)",
  },
  {
    tests: ["test_object_create_bad_contentlength_mismatch_below_aws2"],
    when: /'XAmzContentChecksumMismatch' == 'BadDigest'/,
    reason:
      "A body one byte past its Content-Length: botocore sends a CRC32 checksum rather than Content-MD5, so the " +
      "short body is a checksum mismatch, which MinIO answers XAmzContentChecksumMismatch (the suite marks the " +
      "test fails_on_rgw: it cannot set Content-Length as meant)",
    source: "minio/minio cmd/api-errors.go (ErrContentChecksumMismatch: XAmzContentChecksumMismatch)",
  },
  {
    tests: ["test_multipart_resend_first_finishes_last"],
    when: /InvalidPartOrder/,
    reason:
      "The suite lists part 1 twice in CompleteMultipartUpload; MinIO refuses a list that is not in strictly " +
      "ascending order",
    source:
      "minio/minio cmd/object-multipart-handlers.go (CompleteMultipartUploadHandler: ErrInvalidPartOrder)",
  },
  {
    tests: ["test_get_object_torrent"],
    reason: "GET ?torrent: MinIO refuses it with NotImplemented",
    source: `${ROUTER}: \`rejectedObjAPIs\` (torrent)`,
  },
];
