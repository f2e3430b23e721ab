/**
 * The signed-in account and service accounts (api-index §4): change one's own password (signed with
 * the typed current secret, which also proves it), change another user's password, and list, create and
 * delete service accounts for oneself or for a user. New secrets pass through once and are never logged.
 */
import { t } from "../../../islands/lib/i18n/t.ts";
import type { ChangeUserPasswordInput, ServiceAccountCredentials } from "../../lib/contract/account.ts";
import { ApiError } from "../http/errors.ts";
import * as iam from "../../lib/s3/admin/iam.ts";
import * as serviceAccounts from "../../lib/s3/admin/service_accounts.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { assertValidPolicy } from "./policies.ts";
import { endSessions } from "./session_revocation.ts";

/**
 * Changes the user's secret keeping its status and policies, then ends the user's sessions: a reset password
 * usually means someone else may know the old one (MinIO itself leaves STS credentials alone, §13.2).
 */
export async function changeUserPassword(client: S3Client, input: ChangeUserPasswordInput): Promise<void> {
  const info = await iam.getUserInfo(client, input.selectedUser);
  await iam.addUser(
    client,
    input.selectedUser,
    input.newSecretKey,
    info.status === "disabled" ? "disabled" : "enabled",
  );
  await endSessions(client, { user: input.selectedUser, fullRevoke: true });
}

/**
 * Changes one's own secret with a client signed by the current secret (a wrong one fails the signature), then
 * ends every session of the account, signed with the new secret; the caller signs in again for a new one.
 */
export async function changeOwnPassword(
  ownClient: (secret: string) => S3Client,
  currentSecret: string,
  account: string,
  newSecret: string,
): Promise<void> {
  await iam.addUser(ownClient(currentSecret), account, newSecret, "enabled");
  await endSessions(ownClient(newSecret), { fullRevoke: true });
}

export async function listServiceAccounts(client: S3Client, user = ""): Promise<string[]> {
  return (await serviceAccounts.listServiceAccounts(client, user)).map((a) => a.accessKey).sort();
}

/** Creates a service account for `user` (empty: the caller), optionally restricted by a policy and with chosen keys. */
export async function createServiceAccount(
  client: S3Client,
  request: { user?: string; policy: string; accessKey?: string; secretKey?: string },
): Promise<ServiceAccountCredentials> {
  let policy: unknown = undefined;
  if (request.policy.trim()) {
    assertValidPolicy(request.policy);
    policy = JSON.parse(request.policy);
  }
  const created = await serviceAccounts.addServiceAccount(client, {
    policy,
    targetUser: request.user || undefined,
    accessKey: request.accessKey || undefined,
    secretKey: request.secretKey || undefined,
  });
  return { accessKey: created.accessKey, secretKey: created.secretKey };
}

export async function deleteServiceAccount(client: S3Client, accessKey: string): Promise<void> {
  if (!accessKey) throw ApiError.badRequest(t("iam.api.accessKeyRequired"));
  await serviceAccounts.deleteServiceAccount(client, accessKey);
}
