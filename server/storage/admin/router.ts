/** Dispatch of /minio/admin/v3/<op> to its handler (minio-protocol §3.2); errors in the admin JSON shape. */
import * as buckets from "./bucket_admin.ts";
import * as config from "./config_handlers.ts";
import { type AdminContext, adminFail, type AdminRoute } from "./context.ts";
import * as groups from "./groups.ts";
import * as healing from "./heal.ts";
import * as info from "./info.ts";
import * as live from "./live.ts";
import * as policies from "./policies.ts";
import * as association from "./policy_association.ts";
import * as ldap from "./ldap_policy.ts";
import * as accounts from "./service_accounts.ts";
import * as tiers from "./tiers.ts";
import * as users from "./users.ts";

const ROUTES: Record<string, AdminRoute> = {
  "GET info": info.serverInfo,
  "GET storageinfo": info.storageInfo,
  "GET datausageinfo": info.dataUsageInfo,
  "GET accountinfo": info.accountInfo,
  "GET list-users": users.listUsers,
  "PUT add-user": users.addUser,
  "DELETE remove-user": users.removeUser,
  "GET user-info": users.getUserInfo,
  "PUT set-user-status": users.setUserStatus,
  "GET groups": groups.listGroups,
  "GET group": groups.getGroup,
  "PUT update-group-members": groups.updateGroupMembers,
  "PUT set-group-status": groups.setGroupStatus,
  "GET list-canned-policies": policies.listCannedPolicies,
  "GET info-canned-policy": policies.infoCannedPolicy,
  "PUT add-canned-policy": policies.addCannedPolicy,
  "DELETE remove-canned-policy": policies.removeCannedPolicy,
  "PUT set-user-or-group-policy": policies.setPolicy,
  "POST idp/builtin/policy/attach": (ctx) => association.changePolicyAssociation(ctx, "attach"),
  "POST idp/builtin/policy/detach": (ctx) => association.changePolicyAssociation(ctx, "detach"),
  "POST idp/ldap/policy/attach": (ctx) => ldap.changeLdapPolicyAssociation(ctx, "attach"),
  "POST idp/ldap/policy/detach": (ctx) => ldap.changeLdapPolicyAssociation(ctx, "detach"),
  "GET idp/ldap/policy-entities": ldap.ldapPolicyEntities,
  "PUT add-service-account": accounts.addServiceAccount,
  "GET list-service-accounts": accounts.listServiceAccounts,
  "GET info-service-account": accounts.infoServiceAccount,
  "POST update-service-account": accounts.updateServiceAccount,
  "DELETE delete-service-account": accounts.deleteServiceAccount,
  "GET get-config-kv": config.getConfigKV,
  "PUT set-config-kv": config.setConfigKV,
  "DELETE del-config-kv": config.delConfigKV,
  "GET help-config-kv": config.helpConfigKV,
  "POST service": config.service,
  "GET get-bucket-quota": buckets.getBucketQuota,
  "PUT set-bucket-quota": buckets.setBucketQuota,
  "GET list-remote-targets": buckets.listRemoteTargets,
  "PUT set-remote-target": buckets.setRemoteTarget,
  "DELETE remove-remote-target": buckets.removeRemoteTarget,
  "PUT tier": tiers.addTier,
  "GET tier": tiers.listTiers,
  "GET tier-stats": tiers.tierStats,
  "GET trace": live.trace,
  "GET log": live.consoleLog,
  "GET healthinfo": live.healthInfo,
  "GET obdinfo": live.healthInfo,
  "POST background-heal/status": healing.backgroundHealStatus,
};

/** Routes with the tier name in the path: POST/GET/DELETE tier/<NAME>. */
function tierRoute(method: string, op: string): AdminRoute | null {
  const m = /^tier\/(.+)$/.exec(op);
  if (!m) return null;
  const name = decodeURIComponent(m[1]);
  if (method === "POST") return (ctx) => tiers.editTier(ctx, name);
  if (method === "DELETE") return (ctx) => tiers.removeTier(ctx, name);
  if (method === "GET") return (ctx) => tiers.verifyTier(ctx, name);
  return null;
}

/** POST revoke-tokens/<provider>: the provider is part of the path. */
function revokeRoute(method: string, op: string): AdminRoute | null {
  const m = /^revoke-tokens\/([^/]+)$/.exec(op);
  return m && method === "POST" ? (ctx) => users.revokeTokens(ctx, decodeURIComponent(m[1])) : null;
}

/** Runs the handler for the request; unknown operations answer XMinioAdminVersionMismatch like MinIO. */
export async function routeAdmin(ctx: AdminContext): Promise<Response> {
  const rawOp = ctx.url.pathname.slice("/minio/admin/v3/".length);
  // A heal path keeps its trailing slash: it is part of the object prefix.
  if (ctx.request.method === "POST" && (rawOp === "heal" || rawOp.startsWith("heal/"))) {
    return await healing.heal(ctx, rawOp);
  }
  const op = rawOp.replace(/\/+$/, "");
  const route = ROUTES[`${ctx.request.method} ${op}`] ?? tierRoute(ctx.request.method, op) ??
    revokeRoute(ctx.request.method, op);
  if (!route) {
    throw adminFail(
      "XMinioAdminVersionMismatch",
      "This 'admin' API is not supported by server in 'mode-server-xl'",
      426,
    );
  }
  return await route(ctx);
}
