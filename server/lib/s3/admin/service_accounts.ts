/** Service accounts (minio-protocol §3.7): add/list/info/update/delete with encrypted bodies. */
import type { S3Client } from "../client.ts";
import { adminDo, adminJson } from "./request.ts";

export interface NewServiceAccount {
  /** Policy document (object); omitted → the account inherits its parent's policy. */
  policy?: unknown;
  targetUser?: string;
  accessKey?: string;
  secretKey?: string;
  name?: string;
  description?: string;
  expiration?: string;
}

export interface ServiceAccountCredentials {
  accessKey: string;
  secretKey: string;
  expiration?: string;
}

export async function addServiceAccount(
  client: S3Client,
  request: NewServiceAccount,
): Promise<ServiceAccountCredentials> {
  const res = await adminJson<{ credentials: ServiceAccountCredentials }>(client, {
    method: "PUT",
    op: "add-service-account",
    body: request,
    encrypt: true,
    decrypt: true,
  });
  return res.credentials;
}

export interface ServiceAccountSummary {
  accessKey: string;
  parentUser?: string;
  accountStatus?: string;
  impliedPolicy?: boolean;
  name?: string;
  description?: string;
  expiration?: string;
}

/** Service accounts of `user` (empty = the caller); accepts v1 (strings) and v3 (objects) shapes. */
export async function listServiceAccounts(client: S3Client, user = ""): Promise<ServiceAccountSummary[]> {
  const res = await adminJson<{ accounts: (string | ServiceAccountSummary)[] | null }>(client, {
    method: "GET",
    op: "list-service-accounts",
    query: { user },
    decrypt: true,
  });
  return (res.accounts ?? []).map((a) => (typeof a === "string" ? { accessKey: a } : a));
}

export interface ServiceAccountInfo {
  parentUser: string;
  accountStatus: string;
  impliedPolicy: boolean;
  policy?: string;
  name?: string;
  description?: string;
  expiration?: string | null;
}

export function infoServiceAccount(client: S3Client, accessKey: string): Promise<ServiceAccountInfo> {
  return adminJson(client, {
    method: "GET",
    op: "info-service-account",
    query: { accessKey },
    decrypt: true,
  });
}

export async function updateServiceAccount(
  client: S3Client,
  accessKey: string,
  update: {
    newPolicy?: unknown;
    newSecretKey?: string;
    newStatus?: string;
    newName?: string;
    newDescription?: string;
    newExpiration?: string;
  },
): Promise<void> {
  await adminDo(client, {
    method: "POST",
    op: "update-service-account",
    query: { accessKey },
    body: update,
    encrypt: true,
  });
}

export async function deleteServiceAccount(client: S3Client, accessKey: string): Promise<void> {
  await adminDo(client, { method: "DELETE", op: "delete-service-account", query: { accessKey } });
}
