/**
 * Feature groups of s3-tests for the report's table: a test joins the first group whose marks, file or name
 * pattern it matches. Marks come first (the suite's own word), names catch the unmarked basics.
 */

interface Group {
  label: string;
  marks?: string[];
  file?: string;
  name?: RegExp;
}

const GROUPS: Group[] = [
  { label: "Bucket logging (RGW)", marks: ["bucket_logging", "bucket_logging_cleanup"] },
  { label: "IAM API: users, roles, accounts", file: "test_iam.py" },
  {
    label: "IAM accounts and roles (RGW)",
    marks: ["iam_account", "iam_cross_account", "iam_role", "iam_user"],
  },
  { label: "Tenants (RGW)", marks: ["iam_tenant"] },
  { label: "STS", file: "test_sts.py" },
  { label: "S3 Select", file: "test_s3select.py" },
  { label: "SNS topics (RGW)", file: "test_sns.py" },
  {
    label: "Lifecycle",
    marks: ["lifecycle", "lifecycle_expiration", "lifecycle_transition", "cloud_transition", "cloud_restore"],
  },
  { label: "Object lock", name: /object_lock/ },
  { label: "Encryption (SSE-C, SSE-S3, SSE-KMS)", marks: ["encryption", "sse_s3", "bucket_encryption"] },
  {
    label: "Bucket policy and public access",
    marks: ["bucket_policy"],
    name: /polic|block_public|public_block/,
  },
  { label: "ACLs and ownership", marks: ["object_ownership"], name: /acl|access_bucket|authpublic|public/ },
  { label: "Conditional requests and writes", marks: ["conditional_write"], name: /conditional|atomic_dual/ },
  { label: "Checksums", marks: ["checksum"], name: /checksum/ },
  { label: "Copy", marks: ["copy"] },
  { label: "Tagging", marks: ["tagging"] },
  { label: "Versioning", marks: ["versioning", "delete_marker"], name: /version/ },
  { label: "Multipart uploads", name: /multipart|upload_part/ },
  { label: "POST uploads (browser forms)", name: /post_object/ },
  { label: "CORS", name: /cors/ },
  {
    label: "Authentication and headers",
    marks: ["auth_aws2", "auth_aws4", "auth_common"],
    file: "test_headers.py",
  },
  {
    label: "Listing",
    marks: ["list_objects_v2"],
    name: /bucket_list|list_buckets|buckets_list|get_paginated/,
  },
  { label: "Buckets", name: /bucket/ },
  { label: "Objects and the rest", file: "test_s3.py" },
];

/** The group label of one test, from its node id and marks. */
export function groupOf(id: string, marks: string[]): string {
  const [path, name = ""] = id.split("::");
  const file = path.split("/").at(-1) ?? path;
  const group = GROUPS.find((g) =>
    (g.marks?.some((m) => marks.includes(m)) ?? false) || g.file === file || (g.name?.test(name) ?? false)
  );
  return group?.label ?? file;
}

/** Every label in table order. */
export const GROUP_ORDER = GROUPS.map((g) => g.label);
