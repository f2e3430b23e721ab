/**
 * Whether an S3 request may do what it asks: the condition values its policies are evaluated with, and the
 * check itself (IAM for a signed request; the bucket policy alone for an anonymous one, MinIO's rule,
 * minio-protocol §6.3). Handlers that touch more than one bucket or object (copy, multi-delete, listing
 * buckets) call the check again per item.
 */
import { evaluate } from "../../policy/evaluate.ts";
import { normalizePolicy } from "../../policy/types.ts";
import type { Authenticated } from "../auth/verify.ts";
import type { ConditionValues, Credential, IdentityAuthority } from "../contracts.ts";
import type { Store } from "../fs/store.ts";
import { listingConditions } from "./listing.ts";

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
    "s3:signatureversion": ["AWS4-HMAC-SHA256"],
    "s3:authType": [auth.authType === "presigned" ? "REST-QUERY-STRING" : "REST-HEADER"],
    ...(cred
      ? {
        "aws:username": [cred.parentUser],
        "aws:userid": [cred.parentUser],
        "aws:principaltype": [cred.kind === "root" ? "Account" : "User"],
      }
      : {}),
    ...(url.searchParams.get("versionId") ? { "s3:versionid": [url.searchParams.get("versionId")!] } : {}),
    // SSE: policies may require encryption ("deny PUT unless x-amz-server-side-encryption is AES256").
    ...(header("x-amz-server-side-encryption") !== null
      ? { "s3:x-amz-server-side-encryption": [header("x-amz-server-side-encryption")!] }
      : {}),
    ...(header("x-amz-server-side-encryption-aws-kms-key-id") !== null
      ? {
        "s3:x-amz-server-side-encryption-aws-kms-key-id": [
          header("x-amz-server-side-encryption-aws-kms-key-id")!,
        ],
      }
      : {}),
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
