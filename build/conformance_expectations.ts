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
    tests: ["test_get_object_torrent"],
    reason: "GET ?torrent: MinIO refuses it with NotImplemented",
    source: `${ROUTER}: \`rejectedObjAPIs\` (torrent)`,
  },
];
