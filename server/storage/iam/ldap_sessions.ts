/**
 * Directory sessions end when the directory drops the account. Every check, each user with live directory
 * sessions is looked up again with the service account: a user the lookup no longer finds (deleted, moved
 * out of the search bases, or left out by the search filter as disabled) loses its sessions, and a user whose
 * groups changed has them updated, so the group policies follow. A directory that cannot be reached keeps the
 * sessions (an outage must not sign everyone out); they still end when their credentials expire.
 * Username-format mode has no service account to ask, so there expiry is the only end (docs/notes.md).
 */
import { lookupUser } from "../../lib/ldap/directory.ts";
import { type LdapSettings, usesLookupBind } from "../../lib/ldap/settings.ts";
import type { IamStore } from "./store.ts";
import { safeDnKey } from "./ldap_policies.ts";

export interface LdapCheckResult {
  ended: number;
  failures: string[];
}

export async function checkLdapSessions(
  iam: IamStore,
  settings: LdapSettings | null,
): Promise<LdapCheckResult> {
  const result: LdapCheckResult = { ended: 0, failures: [] };
  if (!settings || !usesLookupBind(settings)) return result;
  const byUser = new Map<string, string[]>();
  for (const session of iam.sessions.values()) {
    if (!session.ldap) continue;
    const list = byUser.get(session.ldap.username) ?? [];
    list.push(session.accessKey);
    byUser.set(session.ldap.username, list);
  }
  for (const [username, accessKeys] of byUser) {
    let found;
    try {
      found = await lookupUser(settings, username);
    } catch (error) {
      result.failures.push(error instanceof Error ? error.message : String(error));
      continue;
    }
    for (const accessKey of accessKeys) {
      const session = iam.sessions.get(accessKey);
      if (!session?.ldap) continue;
      if (!found || found.key !== safeDnKey(session.ldap.dn)) {
        await iam.removeSession(accessKey);
        result.ended++;
      } else if (found.groups.join("\n") !== session.ldap.groups.join("\n")) {
        await iam.putSession({ ...session, ldap: { ...session.ldap, groups: found.groups } });
      }
    }
  }
  return result;
}
