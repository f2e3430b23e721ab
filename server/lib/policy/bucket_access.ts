/**
 * Anonymous access to a bucket as the console presents it: whole-bucket presets (PRIVATE/PUBLIC/CUSTOM,
 * minio-protocol §5.6) and per-prefix access rules (readonly/writeonly/readwrite). Pure functions over bucket
 * policy documents; statements the console did not write are kept untouched.
 */
import type { Policy, Statement } from "./types.ts";

export type AccessLevel = "readonly" | "writeonly" | "readwrite";
export type BucketAccess = "PRIVATE" | "PUBLIC" | "CUSTOM";

export interface AccessRule {
  prefix: string;
  access: AccessLevel;
}

const BUCKET_READ = ["s3:GetBucketLocation", "s3:ListBucket"];
const BUCKET_WRITE = ["s3:GetBucketLocation", "s3:ListBucketMultipartUploads"];
const OBJECT_READ = ["s3:GetObject"];
const OBJECT_WRITE = [
  "s3:AbortMultipartUpload",
  "s3:DeleteObject",
  "s3:ListMultipartUploadParts",
  "s3:PutObject",
];
const MANAGED_BUCKET = new Set([...BUCKET_READ, ...BUCKET_WRITE]);
const MANAGED_OBJECT = new Set([...OBJECT_READ, ...OBJECT_WRITE]);

const arn = (bucket: string, rest = "") => `arn:aws:s3:::${bucket}${rest}`;
const isAnonymousAllow = (s: Statement) =>
  s.Effect === "Allow" && (s.Principal ?? []).every((p) => p === "*") && !s.NotAction && !s.NotResource;

/** Splits a bucket policy into the console's prefix rules and the statements it did not write. */
export function readAccessRules(
  policy: Policy | null,
  bucket: string,
): { rules: AccessRule[]; foreign: Statement[] } {
  const found = new Map<string, { read: boolean; write: boolean }>();
  const foreign: Statement[] = [];
  for (const s of policy?.Statement ?? []) {
    const actions = s.Action ?? [];
    const resources = s.Resource ?? [];
    if (
      isAnonymousAllow(s) && resources.length > 0 && resources.every((r) => r === arn(bucket)) &&
      actions.every((a) => MANAGED_BUCKET.has(a))
    ) {
      continue; // bucket-level companion statements are rebuilt from the rules
    }
    const objectPrefixes = resources.map((
      r,
    ) => (r.startsWith(arn(bucket, "/")) && r.endsWith("*") ? r.slice(arn(bucket, "/").length, -1) : null));
    if (
      isAnonymousAllow(s) && !s.Condition && resources.length > 0 && objectPrefixes.every((p) =>
        p !== null
      ) && actions.every((a) => MANAGED_OBJECT.has(a))
    ) {
      for (const prefix of objectPrefixes as string[]) {
        const entry = found.get(prefix) ?? { read: false, write: false };
        if (actions.some((a) => OBJECT_READ.includes(a))) entry.read = true;
        if (actions.some((a) => a === "s3:PutObject")) entry.write = true;
        found.set(prefix, entry);
      }
      continue;
    }
    foreign.push(s);
  }
  const rules: AccessRule[] = [];
  for (const [prefix, { read, write }] of found) {
    if (read || write) {
      rules.push({ prefix, access: read && write ? "readwrite" : read ? "readonly" : "writeonly" });
    }
  }
  return { rules: rules.sort((a, b) => a.prefix.localeCompare(b.prefix)), foreign };
}

/** Builds the bucket policy for these rules plus the kept statements; null when nothing is left (private). */
export function buildAccessPolicy(
  bucket: string,
  rules: AccessRule[],
  foreign: Statement[] = [],
): Policy | null {
  const statements: Statement[] = [];
  const reads = rules.filter((r) => r.access !== "writeonly");
  const writes = rules.filter((r) => r.access !== "readonly");
  const bucketActions = new Set<string>();
  if (reads.length) BUCKET_READ.forEach((a) => bucketActions.add(a));
  if (writes.length) BUCKET_WRITE.forEach((a) => bucketActions.add(a));
  const wholeBucketRead = reads.some((r) => r.prefix === "");
  if (bucketActions.size) {
    const unconditioned = [...bucketActions].filter((a) => a !== "s3:ListBucket" || wholeBucketRead).sort();
    statements.push({ Effect: "Allow", Principal: ["*"], Action: unconditioned, Resource: [arn(bucket)] });
    if (reads.length && !wholeBucketRead) {
      statements.push({
        Effect: "Allow",
        Principal: ["*"],
        Action: ["s3:ListBucket"],
        Resource: [arn(bucket)],
        Condition: { StringLike: { "s3:prefix": reads.map((r) => `${r.prefix}*`) } },
      });
    }
  }
  for (const rule of rules) {
    const actions = [
      ...(rule.access !== "writeonly" ? OBJECT_READ : []),
      ...(rule.access !== "readonly" ? OBJECT_WRITE : []),
    ].sort();
    statements.push({
      Effect: "Allow",
      Principal: ["*"],
      Action: actions,
      Resource: [arn(bucket, `/${rule.prefix}*`)],
    });
  }
  statements.push(...foreign);
  return statements.length ? { Version: "2012-10-17", Statement: statements } : null;
}

/** Adds or replaces the rule for `prefix` (access "none" removes it). */
export function setAccessRule(
  policy: Policy | null,
  bucket: string,
  prefix: string,
  access: AccessLevel | "none",
): Policy | null {
  const { rules, foreign } = readAccessRules(policy, bucket);
  const rest = rules.filter((r) => r.prefix !== prefix);
  if (access !== "none") rest.push({ prefix, access });
  return buildAccessPolicy(bucket, rest.sort((a, b) => a.prefix.localeCompare(b.prefix)), foreign);
}

/** The console's summary of a bucket policy. */
export function bucketAccessOf(policy: Policy | null, bucket: string): BucketAccess {
  if (!policy || policy.Statement.length === 0) return "PRIVATE";
  const { rules, foreign } = readAccessRules(policy, bucket);
  if (
    foreign.length === 0 && rules.length === 1 && rules[0].prefix === "" && rules[0].access === "readwrite"
  ) return "PUBLIC";
  return "CUSTOM";
}

/** The policy for a whole-bucket preset; PRIVATE → null (delete the policy). */
export function presetPolicy(bucket: string, access: "PRIVATE" | "PUBLIC"): Policy | null {
  return access === "PUBLIC" ? buildAccessPolicy(bucket, [{ prefix: "", access: "readwrite" }]) : null;
}

/** Serialises a normalised policy the way S3 expects (Principal as {"AWS": [...]}). */
export function policyToJson(policy: Policy): string {
  return JSON.stringify({
    Version: policy.Version || "2012-10-17",
    ...(policy.Id ? { Id: policy.Id } : {}),
    Statement: policy.Statement.map((s) => ({
      ...(s.Sid ? { Sid: s.Sid } : {}),
      Effect: s.Effect,
      ...(s.Principal ? { Principal: { AWS: s.Principal } } : {}),
      ...(s.Action ? { Action: s.Action } : {}),
      ...(s.NotAction ? { NotAction: s.NotAction } : {}),
      ...(s.Resource ? { Resource: s.Resource } : {}),
      ...(s.NotResource ? { NotResource: s.NotResource } : {}),
      ...(s.Condition ? { Condition: s.Condition } : {}),
    })),
  });
}
