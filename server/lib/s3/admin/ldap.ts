/**
 * Policies of directory users and groups, by DN (MinIO's idp/ldap admin calls): attach, detach, and the
 * mappings that exist. Bodies and answers are encrypted with the caller's secret key as the other admin calls.
 */
import type { S3Client } from "../client.ts";
import { decryptPayload } from "../payload_crypto.ts";
import { adminSend } from "./request.ts";

export interface LdapPolicyEntities {
  timestamp: string;
  userMappings?: { user: string; policies: string[] }[];
  groupMappings?: { group: string; policies: string[] }[];
  policyMappings?: { policy: string; users: string[]; groups: string[] }[];
}

async function decrypted<T>(client: S3Client, res: Response): Promise<T> {
  const bytes = await decryptPayload(client.credentials.secretKey, new Uint8Array(await res.arrayBuffer()));
  return JSON.parse(new TextDecoder().decode(bytes)) as T;
}

/** Attaches (or detaches) policies to a directory user (DN or login name) or group (DN); the changed ones. */
export async function changeLdapPolicies(
  client: S3Client,
  operation: "attach" | "detach",
  target: { policies: string[]; user?: string; group?: string },
): Promise<string[]> {
  const res = await adminSend(client, {
    method: "POST",
    op: `idp/ldap/policy/${operation}`,
    body: { policies: target.policies, ...(target.user ? { user: target.user } : { group: target.group }) },
    encrypt: true,
    headers: { "content-type": "application/octet-stream" },
  });
  const answer = await decrypted<{ policiesAttached?: string[]; policiesDetached?: string[] }>(client, res);
  return (operation === "attach" ? answer.policiesAttached : answer.policiesDetached) ?? [];
}

/** The DN → policy mappings: all, or those of the given users, groups and policies. */
export async function ldapPolicyEntities(
  client: S3Client,
  query: { users?: string[]; groups?: string[]; policies?: string[] } = {},
): Promise<LdapPolicyEntities> {
  const res = await adminSend(client, {
    method: "GET",
    op: "idp/ldap/policy-entities",
    query: { user: query.users, group: query.groups, policy: query.policies },
  });
  return await decrypted<LdapPolicyEntities>(client, res);
}
