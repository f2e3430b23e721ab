/**
 * Policies for directory users and groups, mapped by DN (MinIO's `mc idp ldap policy …`):
 *
 *   POST idp/ldap/policy/attach | detach    encrypted {policies, user | group}; user is a DN or a login name
 *   GET  idp/ldap/policy-entities           ?user=&group=&policy= (each repeatable), encrypted answer
 *   PUT  set-user-or-group-policy           the older call, with a DN as userOrGroup (policies.ts hands over)
 *
 * With a service account configured, a user's login name is looked up to its DN and every DN is checked to
 * exist in the directory and spelled as the directory spells it; without one (username-format mode) the DN
 * is taken as given. Mappings are kept under the DN's normal form, so any spelling of it finds them.
 */
import { LdapFailure, lookupDn, lookupUser } from "../../lib/ldap/directory.ts";
import { dnKey, parsesAsDn } from "../../lib/ldap/names.ts";
import { type LdapSettings, usesLookupBind } from "../../lib/ldap/settings.ts";
import { mappedPolicies } from "../iam/ldap_policies.ts";
import { ldapMappingKey } from "../iam/store.ts";
import { type AdminContext, adminFail, empty, encryptedJson, requireAction } from "./context.ts";
import { readAssociationBody, requireAssociationPermission } from "./policy_association.ts";

const invalid = (message: string) => adminFail("XMinioAdminInvalidArgument", message, 400);

/** The configured directory, or the error MinIO gives when LDAP is not set up. */
export function directoryOf(ctx: AdminContext): LdapSettings {
  const settings = ctx.ldap();
  if (!settings) throw adminFail("XMinioAdminNotImplemented", "LDAP is not configured on this server", 501);
  return settings;
}

export const ldapConfigured = (ctx: AdminContext) => ctx.ldap() !== null;

const directoryError = (error: unknown) =>
  error instanceof LdapFailure
    ? adminFail("XMinioAdminLDAPError", `LDAP server error: ${error.message}`, 500)
    : error;

/** The DN a policy is mapped to: a user's name looked up, a DN checked to exist (lookup-bind mode). */
async function resolveEntity(settings: LdapSettings, entity: string, isGroup: boolean): Promise<string> {
  const asDn = parsesAsDn(entity);
  if (isGroup && !asDn) throw invalid(`'${entity}' is not a distinguished name: groups are given by DN`);
  if (!usesLookupBind(settings)) {
    if (!asDn) throw invalid(`'${entity}' is not a distinguished name (without lookup_bind_dn, give the DN)`);
    return entity;
  }
  try {
    if (!asDn) {
      const found = await lookupUser(settings, entity);
      if (!found) {
        throw adminFail(
          "XMinioAdminNoSuchUser",
          `The specified user does not exist: User DN not found for: ${entity}`,
          404,
        );
      }
      return found.dn;
    }
    const found = await lookupDn(settings, entity);
    if (!found) {
      throw isGroup
        ? adminFail(
          "XMinioAdminNoSuchGroup",
          `The specified group does not exist in the directory: ${entity}`,
          404,
        )
        : adminFail(
          "XMinioAdminNoSuchUser",
          `The specified user does not exist in the directory: ${entity}`,
          404,
        );
    }
    return found;
  } catch (error) {
    throw directoryError(error);
  }
}

/** Replaces, adds or removes the policies mapped to one DN; returns what changed. */
async function changeMapping(
  ctx: AdminContext,
  dn: string,
  isGroup: boolean,
  change: (current: string[]) => string[],
): Promise<{ before: string[]; after: string[] }> {
  const key = ldapMappingKey(isGroup, dnKey(dn));
  const before = ctx.iam.ldapMappings.get(key)?.policies ?? [];
  const after = change(before);
  await ctx.iam.putLdapMapping(key, {
    dn,
    isGroup,
    policies: after,
    updatedAt: new Date(ctx.now()).toISOString(),
  });
  return { before, after };
}

export async function changeLdapPolicyAssociation(
  ctx: AdminContext,
  operation: "attach" | "detach",
): Promise<Response> {
  requireAssociationPermission(ctx);
  const settings = directoryOf(ctx);
  const { policies, user, group } = await readAssociationBody(ctx, operation);
  const dn = await resolveEntity(settings, user || group, !!group);
  const current = mappedPolicies(ctx.iam, dn, !!group);
  const changed = operation === "attach"
    ? policies.filter((p) => !current.includes(p))
    : policies.filter((p) => current.includes(p));
  if (changed.length === 0) {
    throw adminFail(
      "XMinioAdminPolicyChangeAlreadyApplied",
      "The specified policy change is already in effect.",
      400,
    );
  }
  await changeMapping(
    ctx,
    dn,
    !!group,
    (now) => operation === "attach" ? [...now, ...changed] : now.filter((p) => !changed.includes(p)),
  );
  const updatedAt = new Date(ctx.now()).toISOString();
  return await encryptedJson(
    ctx,
    operation === "attach"
      ? { policiesAttached: changed, updatedAt }
      : { policiesDetached: changed, updatedAt },
  );
}

/** PUT set-user-or-group-policy with a DN while LDAP is configured: the policies replace the DN's mapping. */
export async function setLdapPolicy(ctx: AdminContext, entity: string, isGroup: boolean, names: string[]) {
  const dn = await resolveEntity(directoryOf(ctx), entity, isGroup);
  await changeMapping(ctx, dn, isGroup, () => names);
  return empty();
}

/** GET idp/ldap/policy-entities: the mappings, all or those of the users, groups and policies asked for. */
export async function ldapPolicyEntities(ctx: AdminContext): Promise<Response> {
  directoryOf(ctx);
  requireAction(ctx, "admin:ListUserPolicies");
  const users = ctx.query.getAll("user").filter(Boolean);
  const groups = ctx.query.getAll("group").filter(Boolean);
  const policies = ctx.query.getAll("policy").filter(Boolean);
  const all = users.length === 0 && groups.length === 0 && policies.length === 0;
  const mappings = [...ctx.iam.ldapMappings.values()].sort((a, b) => a.dn.localeCompare(b.dn));
  const wanted = (list: string[], dn: string) => {
    const key = dnKey(dn);
    return list.some((item) => {
      try {
        return dnKey(item) === key;
      } catch {
        return false;
      }
    });
  };
  const userMappings = mappings.filter((m) => !m.isGroup && (all || wanted(users, m.dn)))
    .map((m) => ({ user: m.dn, policies: m.policies }));
  const groupMappings = mappings.filter((m) => m.isGroup && (all || wanted(groups, m.dn)))
    .map((m) => ({ group: m.dn, policies: m.policies }));
  const policyNames = all ? [...new Set(mappings.flatMap((m) => m.policies))].sort() : policies;
  const policyMappings = policyNames.map((policy) => ({
    policy,
    users: mappings.filter((m) => !m.isGroup && m.policies.includes(policy)).map((m) => m.dn),
    groups: mappings.filter((m) => m.isGroup && m.policies.includes(policy)).map((m) => m.dn),
  })).filter((p) => p.users.length || p.groups.length);
  return await encryptedJson(ctx, {
    timestamp: new Date(ctx.now()).toISOString(),
    ...(userMappings.length && (all || users.length) ? { userMappings } : {}),
    ...(groupMappings.length && (all || groups.length) ? { groupMappings } : {}),
    ...(policyMappings.length && (all || policies.length) ? { policyMappings } : {}),
  });
}
