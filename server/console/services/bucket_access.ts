/**
 * Who can reach a bucket (spec 2 Access Audit) and its anonymous prefix rules (Access Rules). Audit: the canned
 * policies whose statements grant any action on the bucket, and the users holding such a policy directly or
 * through a group.
 */
import type { AccessRuleInput, AccessRuleList } from "../../lib/contract/buckets.ts";
import { accessRuleExistsMessage } from "../../../islands/lib/bucket_texts.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import { ApiError } from "../http/errors.ts";
import type { PolicySummary } from "../../lib/contract/policies.ts";
import {
  normalizePolicy,
  policyToJson,
  readAccessRules,
  resourceMatches,
  setAccessRule,
} from "../../lib/policy/mod.ts";
import type { Policy } from "../../lib/policy/types.ts";
import * as iam from "../../lib/s3/admin/iam.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { getBucketPolicy, putBucketPolicy } from "../../lib/s3/ops/bucket_config.ts";
import { unlessUnsupported } from "./unsupported.ts";

/** Whether an Allow statement of the policy applies to the bucket or anything in it. */
export function grantsBucket(policy: Policy, bucket: string): boolean {
  return policy.Statement.some((s) =>
    s.Effect === "Allow" &&
    (s.Resource ?? ["*"]).some((r) =>
      resourceMatches(r, bucket, "", {}) || resourceMatches(r, bucket, "x", {}) ||
      r === `arn:aws:s3:::${bucket}/*`
    )
  );
}

export async function policiesForBucket(
  client: S3Client,
  bucket: string,
): Promise<{ policies: PolicySummary[]; total: number }> {
  const all = await iam.listCannedPolicies(client);
  const policies = Object.entries(all)
    .filter(([, doc]) =>
      grantsBucket(normalizePolicy(typeof doc === "string" ? JSON.parse(doc) : doc), bucket)
    )
    .map(([name, doc]) => ({ name, policy: typeof doc === "string" ? doc : JSON.stringify(doc, null, 2) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { policies, total: policies.length };
}

export async function usersForBucket(client: S3Client, bucket: string): Promise<string[]> {
  const granting = new Set((await policiesForBucket(client, bucket)).policies.map((p) => p.name));
  const split = (joined?: string) => (joined ?? "").split(",").map((p) => p.trim()).filter(Boolean);
  const groups = new Map<string, string[]>();
  for (const group of await iam.listGroups(client)) {
    const desc = await iam.getGroupDescription(client, group);
    if (desc.status !== "disabled") groups.set(group, split(desc.policy));
  }
  const users = await iam.listUsers(client) ?? {};
  return Object.entries(users)
    .filter(([, info]) =>
      [...split(info.policyName), ...(info.memberOf ?? []).flatMap((g) => groups.get(g) ?? [])].some((p) =>
        granting.has(p)
      )
    )
    .map(([name]) => name)
    .sort();
}

async function readBucketPolicy(client: S3Client, bucket: string): Promise<Policy | null> {
  const text = await unlessUnsupported(t("buckets.unsupported.policies"), getBucketPolicy(client, bucket));
  return text ? normalizePolicy(JSON.parse(text)) : null;
}

export async function listAccessRules(client: S3Client, bucket: string): Promise<AccessRuleList> {
  const { rules } = readAccessRules(await readBucketPolicy(client, bucket), bucket);
  const accessRules = rules.filter((r) => r.prefix !== "").sort((a, b) => a.prefix.localeCompare(b.prefix));
  return { accessRules, total: accessRules.length };
}

/**
 * Sets (or with "none" removes) anonymous access on a prefix, keeping statements the console did not write.
 * Adding (`replace: false`) refuses a prefix that already has a rule, so Add never overwrites what Edit shows.
 */
export async function setAccessRuleFor(
  client: S3Client,
  bucket: string,
  input: AccessRuleInput | { prefix: string; access: "none" },
): Promise<boolean> {
  const current = await readBucketPolicy(client, bucket);
  if ("replace" in input && input.replace === false) {
    const existing = readAccessRules(current, bucket).rules.find((r) => r.prefix === input.prefix);
    if (existing) {
      throw new ApiError(409, t("buckets.error.ruleExists"), {
        detail: accessRuleExistsMessage(input.prefix, existing.access),
      });
    }
  }
  const next = setAccessRule(current, bucket, input.prefix, input.access);
  await unlessUnsupported(
    t("buckets.unsupported.policies"),
    putBucketPolicy(client, bucket, next ? policyToJson(next) : ""),
  );
  return true;
}
