/**
 * The User detail screen (spec 1) as one view model: the page renders it and the island reads it again after
 * every change through GET /api/v1/user/detail, so a part the account may not read says so the same way in
 * both.
 */
import { t } from "../../../islands/lib/i18n/t.ts";
import type { UserDetailView } from "../../lib/contract/users.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { listServiceAccounts } from "./account.ts";
import { listGroups } from "./groups.ts";
import { listPolicies } from "./policies.ts";
import { readParts, viewFailures } from "./screen_parts.ts";
import { getUser } from "./users.ts";

/** The user `name` with its service accounts and the names its dialogs offer; a user that cannot be read fails. */
export async function userDetail(client: S3Client, name: string): Promise<UserDetailView> {
  const [user, { data, failures }] = await Promise.all([
    getUser(client, name),
    readParts<{ serviceAccounts: string[]; groups: string[]; policies: string[] }>({
      groups: [async () => (await listGroups(client)).groups, [], t("iam.word.groups")],
      policies: [
        async () => (await listPolicies(client)).policies.map((p) => p.name),
        [],
        t("iam.word.policies"),
      ],
      serviceAccounts: [() => listServiceAccounts(client, name), [], t("iam.word.serviceAccounts")],
    }),
  ]);
  const unavailable: UserDetailView["unavailable"] = {};
  for (const { key, error } of failures) if (key === "serviceAccounts") unavailable[key] = error.message;
  return { user, ...data, unavailable, failures: viewFailures(failures) };
}
