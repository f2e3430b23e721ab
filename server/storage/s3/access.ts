/**
 * Whether an S3 request may do what it asks: the condition values its policies are evaluated with, and the
 * check itself (IAM for a signed request; the bucket policy alone for an anonymous one, MinIO's rule,
 * minio-protocol §6.3). Handlers that touch more than one bucket or object (copy, multi-delete, listing
 * buckets) call the check again per item.
 */
import { evaluate } from "../../lib/policy/evaluate.ts";
import { normalizePolicy } from "../../lib/policy/types.ts";
import type { ConditionValues, Credential, IdentityAuthority } from "../core/contracts.ts";
import type { Store } from "../fs/store.ts";
import { listingConditions } from "./listing.ts";
import type { Authenticated } from "../auth/authenticated.ts";

/** The s3: condition keys that name a request header (MinIO's list, server/lib/policy/operators.ts). */
const HEADER_KEYS = [
  "x-amz-server-side-encryption",
  "x-amz-server-side-encryption-aws-kms-key-id",
  "x-amz-server-side-encryption-customer-algorithm",
  "x-amz-copy-source",
  "x-amz-metadata-directive",
  "x-amz-storage-class",
  "x-amz-content-sha256",
  "x-amz-object-if-match",
  "x-amz-annotation-directive",
];

/** The condition keys a policy may test for this request: who, from where, when, how signed, SSE, listing. */
export function requestConditions(
  request: Request,
  url: URL,
  sourceIp: string,
  now: number,
  auth: Authenticated,
  operation: string,
  bucket: string,
): ConditionValues {
  const cred = auth.credential;
  const header = (name: string) => request.headers.get(name);
  return {
    "aws:SourceIp": [sourceIp],
    "aws:SecureTransport": [String(url.protocol === "https:")],
    "aws:CurrentTime": [new Date(now).toISOString()],
    "aws:EpochTime": [String(Math.floor(now / 1000))],
    "aws:UserAgent": [header("user-agent") ?? ""],
    "aws:Referer": [header("referer") ?? ""],
    "s3:signatureversion": [auth.signatureVersion ?? "AWS4-HMAC-SHA256"],
    "s3:authType": [auth.authType === "presigned" ? "REST-QUERY-STRING" : "REST-HEADER"],
    ...(cred
      ? {
        "aws:username": [cred.parentUser],
        "aws:userid": [cred.parentUser],
        "aws:principaltype": [cred.kind === "root" ? "Account" : "User"],
      }
      : {}),
    ...(url.searchParams.get("versionId") ? { "s3:versionid": [url.searchParams.get("versionId")!] } : {}),
    // s3:x-amz-* keys are the request's headers, as MinIO reads them: policies may require encryption
    // ("deny PUT unless x-amz-server-side-encryption is AES256"), a storage class, a copy source…
    ...Object.fromEntries(
      HEADER_KEYS.filter((name) => header(name) !== null).map((name) => [`s3:${name}`, [header(name)!]]),
    ),
    ...(operation.startsWith("List") && bucket ? listingConditions(url.searchParams) : {}),
  };
}

/**
 * The access check of one request. An anonymous request is judged by bucket policies, which must be loaded
 * (`loadBucketPolicy`) for each bucket it touches before `allowed` is asked about that bucket.
 */
export function accessCheck(
  store: Store,
  authority: IdentityAuthority,
  credential: Credential | null,
  conditions: ConditionValues,
) {
  const policies = new Map<string, ReturnType<typeof normalizePolicy> | null>();
  return {
    async loadBucketPolicy(bucket: string): Promise<void> {
      if (policies.has(bucket)) return;
      const text = store.buckets.has(bucket) ? await store.getDocument(bucket, "policy.json") : undefined;
      policies.set(bucket, text ? normalizePolicy(JSON.parse(text)) : null);
    },
    allowed(action: string, bucket: string, key: string, extra: ConditionValues = {}): boolean {
      const all = { ...conditions, ...extra };
      if (credential) return authority.isAllowed(credential, action, bucket, key, all);
      const policy = policies.get(bucket);
      return !!policy &&
        evaluate([{ name: "bucket", policy }], { action, bucket, key, conditions: all }).allowed;
    },
  };
}
