/**
 * Settings › Identity diagnostics for the directory (identity_ldap): each step of a sign-in checked on its
 * own, from this console server, with the storage's stored settings: the address and TLS mode, the lookup
 * bind, the search bases, and for a test user (no password: never bound) the lookup, the groups and the
 * policies mapped to them. A step that fails stops the steps that need it.
 */
import type { DiagnosticsSection, DiagnosticStep } from "../../lib/contract/identity.ts";
import { LdapFailure, lookupUser, probe } from "../../lib/ldap/directory.ts";
import { ldapSettings, usesLookupBind } from "../../lib/ldap/settings.ts";
import { ldapPolicyEntities } from "../../lib/s3/admin/ldap.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { storedValues } from "./settings.ts";

const STEP_NAMES: Record<string, string> = {
  reach: "Directory reachable",
  "lookup-bind": "Lookup bind",
  "search-base": "Search base",
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `caCerts`: what the console trusts besides the system's (for the embedded storage, its certs dir, as the storage). */
export async function ldapDiagnostics(
  client: S3Client,
  testUser: string,
  caCerts: readonly string[] = [],
): Promise<DiagnosticsSection> {
  const settings = ldapSettings(await storedValues(client, "identity_ldap"), caCerts);
  if (!settings) return { configured: false, steps: [] };
  const steps: DiagnosticStep[] = [];
  const record = (name: string, passed: boolean, message: string) => {
    steps.push({ name, passed, message });
    return passed;
  };
  await probe(settings, async (id, run) => {
    try {
      return record(STEP_NAMES[id] ?? id, true, await run());
    } catch (error) {
      return record(STEP_NAMES[id] ?? id, false, messageOf(error));
    }
  });
  if (!usesLookupBind(settings)) {
    record(
      "Lookup bind",
      true,
      "no lookup_bind_dn: username-format mode binds with the DN made from username_format; a test user can only be checked by signing in",
    );
    return { configured: true, steps };
  }
  if (!testUser || steps.some((s) => !s.passed)) return { configured: true, steps };
  let user;
  try {
    user = await lookupUser(settings, testUser);
  } catch (error) {
    record("Test user lookup", false, error instanceof LdapFailure ? error.message : messageOf(error));
    return { configured: true, steps };
  }
  if (!user) {
    record(
      "Test user lookup",
      false,
      `no entry matches ${settings.userDnSearchFilter} for '${testUser}' under ${
        settings.userDnSearchBaseDns.join("; ")
      } (missing, outside the search base, or left out by the filter, e.g. disabled)`,
    );
    return { configured: true, steps };
  }
  record("Test user lookup", true, `found ${user.dn}`);
  record(
    "Test user groups",
    true,
    user.groups.length ? user.groups.join("; ") : "member of no group found by group_search_filter",
  );
  try {
    const entities = await ldapPolicyEntities(client, { users: [user.dn], groups: user.groups });
    const mapped = [
      ...(entities.userMappings ?? []).map((m) => `${m.policies.join(", ")} (user ${m.user})`),
      ...(entities.groupMappings ?? []).map((m) => `${m.policies.join(", ")} (group ${m.group})`),
    ];
    record(
      "Mapped policies",
      mapped.length > 0,
      mapped.length
        ? mapped.join("; ")
        : `no policy is mapped to ${user.dn} or its groups: sign-in will be refused until one is attached`,
    );
  } catch (error) {
    record("Mapped policies", false, `the storage server could not list the mappings: ${messageOf(error)}`);
  }
  return { configured: true, steps };
}
