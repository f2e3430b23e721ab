/**
 * MinIO's handler names for admin API calls (what trace shows after `admin.` and audit records as
 * `api.name`), keyed by method and operation path under /minio/admin/v3/ (minio-protocol §3.2).
 */

const NAMES: Record<string, string> = {
  "GET info": "ServerInfo",
  "GET storageinfo": "StorageInfo",
  "GET datausageinfo": "DataUsageInfo",
  "GET accountinfo": "AccountInfo",
  "GET list-users": "ListUsers",
  "PUT add-user": "AddUser",
  "DELETE remove-user": "RemoveUser",
  "GET user-info": "GetUserInfo",
  "PUT set-user-status": "SetUserStatus",
  "GET groups": "ListGroups",
  "GET group": "GetGroup",
  "PUT update-group-members": "UpdateGroupMembers",
  "PUT set-group-status": "SetGroupStatus",
  "GET list-canned-policies": "ListCannedPolicies",
  "GET info-canned-policy": "InfoCannedPolicy",
  "PUT add-canned-policy": "AddCannedPolicy",
  "DELETE remove-canned-policy": "RemoveCannedPolicy",
  "PUT set-user-or-group-policy": "SetPolicyForUserOrGroup",
  "PUT add-service-account": "AddServiceAccount",
  "GET list-service-accounts": "ListServiceAccounts",
  "GET info-service-account": "InfoServiceAccount",
  "POST update-service-account": "UpdateServiceAccount",
  "DELETE delete-service-account": "DeleteServiceAccount",
  "GET get-config-kv": "GetConfigKV",
  "PUT set-config-kv": "SetConfigKV",
  "DELETE del-config-kv": "DelConfigKV",
  "GET help-config-kv": "HelpConfigKV",
  "POST service": "Service",
  "GET get-bucket-quota": "GetBucketQuotaConfig",
  "PUT set-bucket-quota": "PutBucketQuotaConfig",
  "GET list-remote-targets": "ListRemoteTargets",
  "PUT set-remote-target": "SetRemoteTarget",
  "DELETE remove-remote-target": "RemoveRemoteTarget",
  "PUT tier": "AddTier",
  "GET tier": "ListTier",
  "GET tier-stats": "TierStats",
  "POST background-heal/status": "BackgroundHealStatus",
  "GET trace": "Trace",
  "GET log": "ConsoleLog",
  "GET healthinfo": "HealthInfo",
  "GET obdinfo": "HealthInfo",
};

const TIER_NAMES: Record<string, string> = { POST: "EditTier", DELETE: "RemoveTier", GET: "VerifyTier" };

/** `GET info` → `ServerInfo`; unknown operations keep their path so a trace still says what was called. */
export function adminApiName(method: string, op: string): string {
  const clean = op.replace(/\/+$/, "");
  const known = NAMES[`${method} ${clean}`];
  if (known) return known;
  if (clean === "heal" || clean.startsWith("heal/")) return "Heal";
  if (clean.startsWith("tier/") && TIER_NAMES[method]) return TIER_NAMES[method];
  return clean || "Unknown";
}
