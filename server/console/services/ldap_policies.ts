/**
 * Policies of directory (LDAP) users and groups, by DN: the Users and Groups pages list the mappings the
 * storage holds and set one entity's policies. The directory owns the accounts and memberships; only the
 * policy mapping is the storage's, so that is all the console changes. Setting is done with MinIO's idp/ldap
 * attach and detach (only the difference), which work on MinIO as on the embedded storage.
 */
import type { DirectoryMappings, SetDirectoryPoliciesInput } from "../../lib/contract/identity.ts";
import { changeLdapPolicies, ldapPolicyEntities } from "../../lib/s3/admin/ldap.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";

/** The mappings; `enabled: false` when the storage has no directory (it refuses the call as not set up). */
export async function directoryMappings(client: S3Client): Promise<DirectoryMappings> {
  try {
    const entities = await ldapPolicyEntities(client);
    return {
      enabled: true,
      users: (entities.userMappings ?? []).map((m) => ({ dn: m.user, policies: m.policies })),
      groups: (entities.groupMappings ?? []).map((m) => ({ dn: m.group, policies: m.policies })),
    };
  } catch (error) {
    // 501 (embedded) or a 4xx naming LDAP as not configured (MinIO): no directory to show.
    if (
      error instanceof S3Error &&
      (error.status === 501 ||
        (error.status === 400 && /LDAP|not configured|not enabled/i.test(error.message)))
    ) {
      return { enabled: false, users: [], groups: [] };
    }
    throw error;
  }
}

/** Makes `policies` the entity's policies: attaches the missing ones, detaches the others. */
export async function setDirectoryPolicies(
  client: S3Client,
  input: SetDirectoryPoliciesInput,
): Promise<void> {
  const target = input.kind === "group" ? { group: input.entity } : { user: input.entity };
  const entities = await ldapPolicyEntities(
    client,
    input.kind === "group" ? { groups: [input.entity] } : { users: [input.entity] },
  );
  const current =
    (input.kind === "group" ? entities.groupMappings?.[0]?.policies : entities.userMappings?.[0]?.policies) ??
      [];
  const wanted = [...new Set(input.policies)];
  const attach = wanted.filter((p) => !current.includes(p));
  const detach = current.filter((p) => !wanted.includes(p));
  if (attach.length) await changeLdapPolicies(client, "attach", { ...target, policies: attach });
  if (detach.length) await changeLdapPolicies(client, "detach", { ...target, policies: detach });
}
