/**
 * IAM policies (api-index §4, spec 2): list, read, create-or-overwrite after validation, delete, and who
 * holds a policy. Documents are validated with the same checker the browser's editor uses, so a bad
 * policy is refused with the line and column of the first problem before the storage server sees it.
 */
import { t } from "../../../islands/lib/i18n/t.ts";
import { problemText } from "../../../islands/lib/policy/problems.ts";
import type { AddPolicyInput, PolicySummary } from "../../lib/contract/policies.ts";
import { ApiError } from "../http/errors.ts";
import { checkPolicy } from "../../lib/policy/mod.ts";
import * as iam from "../../lib/s3/admin/iam.ts";
import type { S3Client } from "../../lib/s3/client.ts";

const pretty = (doc: unknown) => JSON.stringify(doc, null, 2);

export async function listPolicies(
  client: S3Client,
  page: { offset?: number; limit?: number } = {},
): Promise<{ policies: PolicySummary[]; total: number }> {
  const all = Object.entries(await iam.listCannedPolicies(client))
    .map(([name, doc]) => ({ name, policy: typeof doc === "string" ? doc : pretty(doc) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const offset = page.offset ?? 0;
  return { policies: all.slice(offset, page.limit ? offset + page.limit : undefined), total: all.length };
}

export async function getPolicy(client: S3Client, name: string): Promise<PolicySummary> {
  const text = await iam.infoCannedPolicy(client, name);
  let policy = text;
  try {
    policy = pretty(JSON.parse(text));
  } catch { /* keep the server's text */ }
  return { name, policy };
}

/** Refuses a document that is not valid JSON or not a valid IAM policy, naming the first problem's line. */
export function assertValidPolicy(text: string): void {
  const { problems } = checkPolicy(text);
  if (!problems.length) return;
  const first = problems[0];
  const at = (p: typeof first) => ({
    line: String(p.line),
    column: String(p.column),
    message: problemText(p.message),
  });
  throw new ApiError(400, t("iam.api.invalidPolicy", at(first)), {
    detail: problems.map((p) => t("iam.api.policyProblem", at(p))).join("\n"),
  });
}

export async function addPolicy(client: S3Client, input: AddPolicyInput): Promise<PolicySummary> {
  assertValidPolicy(input.policy);
  await iam.addCannedPolicy(client, input.name, input.policy);
  return await getPolicy(client, input.name);
}

export async function removePolicy(client: S3Client, name: string): Promise<void> {
  await iam.removeCannedPolicy(client, name);
}

const holds = (joined: string | undefined, name: string) =>
  (joined ?? "").split(",").map((p) => p.trim()).includes(name);

export async function usersWithPolicy(client: S3Client, name: string): Promise<string[]> {
  const users = await iam.listUsers(client) ?? {};
  return Object.entries(users).filter(([, info]) => holds(info.policyName, name)).map(([user]) => user)
    .sort();
}

export async function groupsWithPolicy(client: S3Client, name: string): Promise<string[]> {
  const groups = await iam.listGroups(client);
  const described = await Promise.all(
    groups.map(async (group) => ({ group, desc: await iam.getGroupDescription(client, group) })),
  );
  return described.filter(({ desc }) => holds(desc.policy, name)).map(({ group }) => group).sort();
}
