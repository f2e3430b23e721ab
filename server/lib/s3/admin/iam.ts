/** Users, groups, canned policies and policy mapping (minio-protocol §3.4–3.6). */
import type { S3Client } from "../client.ts";
import { adminDo, adminJson, adminSend } from "./request.ts";
import { decryptPayload } from "../payload_crypto.ts";

export interface UserInfo {
  policyName?: string;
  status: "enabled" | "disabled";
  memberOf?: string[] | null;
  updatedAt?: string;
}

/** Regular users (service accounts and STS keys excluded). */
export function listUsers(client: S3Client): Promise<Record<string, UserInfo>> {
  return adminJson(client, { method: "GET", op: "list-users", decrypt: true });
}

/** Creates a user or sets its secret (also used to change one's own password). */
export async function addUser(
  client: S3Client,
  accessKey: string,
  secretKey: string,
  status: "enabled" | "disabled" = "enabled",
): Promise<void> {
  await adminDo(client, {
    method: "PUT",
    op: "add-user",
    query: { accessKey },
    body: { secretKey, status },
    encrypt: true,
  });
}

export async function removeUser(client: S3Client, accessKey: string): Promise<void> {
  await adminDo(client, { method: "DELETE", op: "remove-user", query: { accessKey } });
}

export function getUserInfo(client: S3Client, accessKey: string): Promise<UserInfo> {
  return adminJson(client, { method: "GET", op: "user-info", query: { accessKey } });
}

export async function setUserStatus(
  client: S3Client,
  accessKey: string,
  status: "enabled" | "disabled",
): Promise<void> {
  await adminDo(client, { method: "PUT", op: "set-user-status", query: { accessKey, status } });
}

/**
 * Ends STS credentials (POST revoke-tokens/builtin, minio-protocol-2 §13.1; MinIO RELEASE.2025-04-03 and
 * later). No user: the signer's own, of its own token revoke type unless `fullRevoke`. With a user: all of
 * that user's (`fullRevoke`) or those of one `tokenRevokeType`; needs admin:RemoveServiceAccount.
 */
export async function revokeTokens(
  client: S3Client,
  target: { user?: string; tokenRevokeType?: string; fullRevoke?: boolean } = {},
): Promise<void> {
  const query: Record<string, string> = {};
  if (target.user) query.user = target.user;
  if (target.tokenRevokeType) query.tokenRevokeType = target.tokenRevokeType;
  if (target.fullRevoke) query.fullRevoke = "true";
  await adminDo(client, { method: "POST", op: "revoke-tokens/builtin", query });
}

/**
 * Adds policies to (attach) or takes them from (detach) a user's or group's list, leaving the others
 * (POST idp/builtin/policy/attach|detach, minio-protocol-2 §12.1). Resolves with the policies that changed,
 * or null when the server is of the era that answers 201/204 without saying.
 */
export async function changePolicyAssociation(
  client: S3Client,
  operation: "attach" | "detach",
  target: { policies: string[]; user?: string; group?: string },
): Promise<string[] | null> {
  const res = await adminSend(client, {
    method: "POST",
    op: `idp/builtin/policy/${operation}`,
    body: { policies: target.policies, ...(target.user ? { user: target.user } : { group: target.group }) },
    encrypt: true,
    headers: { "content-type": "application/octet-stream" },
  });
  if (res.status !== 200) {
    await res.body?.cancel();
    return null;
  }
  const answer = JSON.parse(
    new TextDecoder().decode(
      await decryptPayload(client.credentials.secretKey, new Uint8Array(await res.arrayBuffer())),
    ),
  ) as {
    policiesAttached?: string[];
    policiesDetached?: string[];
  };
  return (operation === "attach" ? answer.policiesAttached : answer.policiesDetached) ?? [];
}

export interface GroupDesc {
  name: string;
  status: "enabled" | "disabled";
  members: string[] | null;
  policy: string;
  updatedAt?: string;
}

export async function listGroups(client: S3Client): Promise<string[]> {
  return (await adminJson<string[] | null>(client, { method: "GET", op: "groups" })) ?? [];
}

export function getGroupDescription(client: S3Client, group: string): Promise<GroupDesc> {
  return adminJson(client, { method: "GET", op: "group", query: { group } });
}

/** Adds members (creating the group), removes members, or with isRemove and no members deletes the group. */
export async function updateGroupMembers(
  client: S3Client,
  change: { group: string; members: string[]; isRemove: boolean; groupStatus?: string },
): Promise<void> {
  await adminDo(client, {
    method: "PUT",
    op: "update-group-members",
    body: { groupStatus: "enabled", ...change },
  });
}

export async function setGroupStatus(
  client: S3Client,
  group: string,
  status: "enabled" | "disabled",
): Promise<void> {
  await adminDo(client, { method: "PUT", op: "set-group-status", query: { group, status } });
}

/** All canned policies, name → document. */
export async function listCannedPolicies(client: S3Client): Promise<Record<string, unknown>> {
  return (await adminJson<Record<string, unknown> | null>(client, {
    method: "GET",
    op: "list-canned-policies",
  })) ?? {};
}

/** One policy document (as JSON text, pretty-printed by the server). */
export async function infoCannedPolicy(client: S3Client, name: string): Promise<string> {
  const res = await adminSend(client, { method: "GET", op: "info-canned-policy", query: { name } });
  return await res.text();
}

export async function addCannedPolicy(client: S3Client, name: string, policy: string): Promise<void> {
  await adminDo(client, { method: "PUT", op: "add-canned-policy", query: { name }, body: policy });
}

export async function removeCannedPolicy(client: S3Client, name: string): Promise<void> {
  await adminDo(client, { method: "DELETE", op: "remove-canned-policy", query: { name } });
}

/** Sets the policies of a user or group (comma-joined names; empty detaches all). */
export async function setPolicy(
  client: S3Client,
  policyNames: string[],
  entity: string,
  isGroup: boolean,
): Promise<void> {
  await adminDo(client, {
    method: "PUT",
    op: "set-user-or-group-policy",
    query: { policyName: policyNames.join(","), userOrGroup: entity, isGroup: String(isGroup) },
  });
}
