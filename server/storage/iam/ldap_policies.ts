/**
 * Which policies a directory identity holds: those mapped to the user's DN and to each of its groups' DNs
 * (MinIO's PolicyDBGet for LDAP), looked up by the DNs' normal form.
 */
import { dnKey } from "../../lib/ldap/names.ts";
import { type IamStore, type LdapIdentity, ldapMappingKey } from "./store.ts";

/** The DN's normal form, or the text lower-cased when it does not parse (it then matches only itself). */
export function safeDnKey(dn: string): string {
  try {
    return dnKey(dn);
  } catch {
    return dn.toLowerCase();
  }
}

/** Policies mapped to one DN. */
export function mappedPolicies(iam: IamStore, dn: string, isGroup: boolean): string[] {
  return iam.ldapMappings.get(ldapMappingKey(isGroup, safeDnKey(dn)))?.policies ?? [];
}

/** Policy names of a directory identity: the user's DN's and its groups', each once. */
export function ldapPolicyNames(iam: IamStore, identity: Pick<LdapIdentity, "dn" | "groups">): string[] {
  const names = new Set(mappedPolicies(iam, identity.dn, false));
  for (const group of identity.groups) mappedPolicies(iam, group, true).forEach((p) => names.add(p));
  return [...names];
}
