/**
 * Settings › Identity diagnostics for the directory (identity_ldap): each step of a sign-in checked on its
 * own, from this console server, with the storage's stored settings: the address and TLS mode, the lookup
 * bind, the search bases, and for a test user (no password: never bound) the lookup, the groups and the
 * policies mapped to them. A step that fails stops the steps that need it. Step names and the messages made
 * here are in the request's language; the directory's own answers are quoted as they came.
 */
import type { DiagnosticsSection, DiagnosticStep } from "../../lib/contract/identity.ts";
import { LdapFailure, lookupUser, probe } from "../../lib/ldap/directory.ts";
import { ldapSettings, usesLookupBind } from "../../lib/ldap/settings.ts";
import { ldapPolicyEntities } from "../../lib/s3/admin/ldap.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { storedValues } from "./settings.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

const stepName = (id: string): string =>
  id === "reach"
    ? t("settings.identity.step.reach")
    : id === "lookup-bind"
    ? t("settings.identity.step.lookupBind")
    : id === "search-base"
    ? t("settings.identity.step.searchBase")
    : id;

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
      return record(stepName(id), true, await run());
    } catch (error) {
      return record(stepName(id), false, messageOf(error));
    }
  });
  if (!usesLookupBind(settings)) {
    record(t("settings.identity.step.lookupBind"), true, t("settings.identity.msg.usernameFormatMode"));
    return { configured: true, steps };
  }
  if (!testUser || steps.some((s) => !s.passed)) return { configured: true, steps };
  let user;
  try {
    user = await lookupUser(settings, testUser);
  } catch (error) {
    record(
      t("settings.identity.step.userLookup"),
      false,
      error instanceof LdapFailure ? error.message : messageOf(error),
    );
    return { configured: true, steps };
  }
  if (!user) {
    record(
      t("settings.identity.step.userLookup"),
      false,
      t("settings.identity.msg.noEntry", {
        filter: settings.userDnSearchFilter,
        user: testUser,
        bases: settings.userDnSearchBaseDns.join("; "),
      }),
    );
    return { configured: true, steps };
  }
  record(t("settings.identity.step.userLookup"), true, t("settings.identity.msg.found", { dn: user.dn }));
  record(
    t("settings.identity.step.userGroups"),
    true,
    user.groups.length ? user.groups.join("; ") : t("settings.identity.msg.noGroup"),
  );
  try {
    const entities = await ldapPolicyEntities(client, { users: [user.dn], groups: user.groups });
    const mapped = [
      ...(entities.userMappings ?? []).map((m) =>
        t("settings.identity.msg.userMapping", { policies: m.policies.join(", "), user: m.user })
      ),
      ...(entities.groupMappings ?? []).map((m) =>
        t("settings.identity.msg.groupMapping", { policies: m.policies.join(", "), group: m.group })
      ),
    ];
    record(
      t("settings.identity.step.policies"),
      mapped.length > 0,
      mapped.length ? mapped.join("; ") : t("settings.identity.msg.noPolicy", { dn: user.dn }),
    );
  } catch (error) {
    record(
      t("settings.identity.step.policies"),
      false,
      t("settings.identity.msg.mappingsFailed", { reason: messageOf(error) }),
    );
  }
  return { configured: true, steps };
}
