/**
 * The Policy detail screen (spec 1) as one view model: the page renders it and the island's Refresh reads it
 * again through GET /api/v1/policy/detail, so a part the account may not read says so the same way in both.
 */
import { t } from "../../../islands/lib/i18n/t.ts";
import type { PolicyDetailView } from "../../lib/contract/policies.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { getPolicy, groupsWithPolicy, usersWithPolicy } from "./policies.ts";
import { readParts, viewFailures } from "./screen_parts.ts";

/** The policy `name` with who holds it; a policy that cannot be read fails the whole view. */
export async function policyDetail(client: S3Client, name: string): Promise<PolicyDetailView> {
  const [policy, { data, failures }] = await Promise.all([
    getPolicy(client, name),
    readParts<{ users: string[]; groups: string[] }>({
      users: [() => usersWithPolicy(client, name), [], t("iam.word.users")],
      groups: [() => groupsWithPolicy(client, name), [], t("iam.word.groups")],
    }),
  ]);
  const unavailable: PolicyDetailView["unavailable"] = {};
  for (const { key, error } of failures) unavailable[key] = error.message;
  return { policy, ...data, unavailable, failures: viewFailures(failures) };
}
