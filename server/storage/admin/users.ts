/** Users (minio-protocol §3.4): list (encrypted), add / change secret (encrypted), remove, info, status. */
import {
  type AdminContext,
  adminFail,
  decryptJson,
  empty,
  encryptedJson,
  json,
  requireAction,
  requiredParam,
} from "./context.ts";

/** Access keys: 3-128 characters, no reserved separators or control characters. */
export function accessKeyProblem(accessKey: string): string | null {
  if (accessKey.length < 3 || accessKey.length > 128) return "access key length should be between 3 and 128";
  // deno-lint-ignore no-control-regex -- control characters are exactly what is refused
  if (/[=,\u0000-\u001f\u007f]/.test(accessKey)) {
    return "access key contains reserved characters =, or control characters";
  }
  return null;
}

function userInfo(ctx: AdminContext, accessKey: string) {
  const user = ctx.iam.users.get(accessKey)!;
  return {
    policyName: user.policies.join(","),
    status: user.status,
    memberOf: ctx.iam.groupsOf(accessKey),
    updatedAt: user.updatedAt,
  };
}

function noSuchUser(): Error {
  return adminFail("XMinioAdminNoSuchUser", "The specified user does not exist.", 404);
}

export async function listUsers(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ListUsers");
  const out: Record<string, unknown> = {};
  for (const key of [...ctx.iam.users.keys()].sort()) out[key] = userInfo(ctx, key);
  return await encryptedJson(ctx, out);
}

/** Whether the caller acts on its own long-term user and no Deny stops it (self-service rule, §6.4). */
function isSelfService(ctx: AdminContext, user: string, action: string): boolean {
  if (ctx.credential.parentUser !== user) return false;
  const decision = ctx.authority.decide(ctx.credential, action, "", "");
  return decision.effect !== "Deny";
}

export async function addUser(ctx: AdminContext): Promise<Response> {
  const accessKey = requiredParam(ctx, "accessKey");
  if (ctx.authority.isRoot(accessKey)) {
    throw adminFail(
      "XMinioInvalidIAMCredentials",
      "Credential is not allowed to be same as admin access key",
      403,
    );
  }
  const self = accessKey === ctx.credential.parentUser;
  if (self) {
    // Changing one's own password needs the long-term key (the console signs with it, §2.6).
    if (ctx.credential.kind !== "user") {
      throw adminFail(
        "XMinioIAMActionNotAllowed",
        "Temporary or derived credentials cannot change the parent user's password",
        403,
      );
    }
    if (!isSelfService(ctx, accessKey, "admin:CreateUser")) {
      throw adminFail("AccessDenied", "Access Denied.", 403);
    }
  } else requireAction(ctx, "admin:CreateUser");
  const problem = accessKeyProblem(accessKey);
  if (problem) throw adminFail("XMinioAdminInvalidAccessKey", problem, 400);
  if (ctx.iam.serviceAccounts.has(accessKey) || ctx.iam.sessions.has(accessKey)) {
    throw adminFail(
      "XMinioIAMActionNotAllowed",
      "A service account or temporary key with this access key exists",
      403,
    );
  }
  const body = await decryptJson<{ secretKey?: string; status?: string; policy?: string }>(ctx);
  const secretKey = body.secretKey ?? "";
  if (secretKey.length < 8 || secretKey.length > 40) {
    throw adminFail("XMinioAdminInvalidSecretKey", "secret key length should be between 8 and 40", 400);
  }
  if (body.status && body.status !== "enabled" && body.status !== "disabled") {
    throw adminFail("XMinioAdminInvalidArgument", "status must be enabled or disabled", 400);
  }
  const existing = ctx.iam.users.get(accessKey);
  const policies = body.policy ? body.policy.split(",").filter(Boolean) : existing?.policies ?? [];
  for (const policy of policies) {
    if (!ctx.iam.policies.has(policy)) {
      throw adminFail("XMinioAdminNoSuchPolicy", `The canned policy ${policy} does not exist.`, 404);
    }
  }
  await ctx.iam.putUser({
    accessKey,
    secretKey,
    status: (body.status as "enabled" | "disabled") || existing?.status || "enabled",
    policies,
    updatedAt: new Date(ctx.now()).toISOString(),
  });
  return empty();
}

export async function removeUser(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:DeleteUser");
  const accessKey = requiredParam(ctx, "accessKey");
  if (accessKey === ctx.credential.parentUser || ctx.authority.isRoot(accessKey)) {
    throw adminFail(
      "XMinioIAMActionNotAllowed",
      "Specified IAM action is not allowed: a user cannot delete itself or the root user",
      403,
    );
  }
  if (!ctx.iam.users.has(accessKey)) throw noSuchUser();
  await ctx.iam.removeUser(accessKey);
  return empty();
}

export async function getUserInfo(ctx: AdminContext): Promise<Response> {
  const accessKey = requiredParam(ctx, "accessKey");
  if (accessKey !== ctx.credential.parentUser) requireAction(ctx, "admin:GetUser");
  if (!ctx.iam.users.has(accessKey)) throw noSuchUser();
  return json(userInfo(ctx, accessKey));
}

export async function setUserStatus(ctx: AdminContext): Promise<Response> {
  const accessKey = requiredParam(ctx, "accessKey");
  const status = requiredParam(ctx, "status");
  if (status !== "enabled" && status !== "disabled") {
    throw adminFail("XMinioAdminInvalidArgument", "status must be enabled or disabled", 400);
  }
  requireAction(ctx, status === "enabled" ? "admin:EnableUser" : "admin:DisableUser");
  if (ctx.authority.isRoot(accessKey)) {
    throw adminFail("XMinioIAMActionNotAllowed", "The root user cannot be disabled", 403);
  }
  const user = ctx.iam.users.get(accessKey);
  if (!user) throw noSuchUser();
  await ctx.iam.putUser({ ...user, status, updatedAt: new Date(ctx.now()).toISOString() });
  return empty();
}

/**
 * POST revoke-tokens/{provider} (minio-protocol-2 §13.1, MinIO RELEASE.2025-04-03): ends STS credentials.
 * No `user`: the caller's own, all (`fullRevoke=true`), of one `tokenRevokeType`, or else of the calling
 * credential's own type. Another user's need admin:RemoveServiceAccount and exactly one of the two options.
 */
export async function revokeTokens(ctx: AdminContext, provider: string): Promise<Response> {
  if (provider !== "builtin") {
    throw adminFail(
      "XMinioIAMActionNotAllowed",
      "Specified IAM action is not allowed: only the builtin provider is configured",
      403,
    );
  }
  const named = ctx.query.get("user") ?? "";
  let revokeType = ctx.query.get("tokenRevokeType") ?? "";
  const fullRevoke = ctx.query.get("fullRevoke") === "true";
  const isSelf = named === "";
  if ((!isSelf && !revokeType && !fullRevoke) || (revokeType && fullRevoke)) {
    throw adminFail("InvalidRequest", "Invalid Request", 400);
  }
  let user = named;
  if (isSelf || !ctx.can("admin:RemoveServiceAccount")) {
    if (!isSelf && named !== ctx.credential.parentUser) {
      throw adminFail("AccessDenied", "Access Denied.", 403);
    }
    user = ctx.credential.parentUser;
  }
  if (isSelf && !revokeType && !fullRevoke) {
    revokeType = (ctx.credential.kind === "sts"
      ? ctx.iam.sessions.get(ctx.credential.accessKey)?.revokeType
      : undefined) ?? "";
    if (!revokeType) {
      throw adminFail(
        "InvalidArgument",
        "No token revoke type specified and one could not be inferred from the request",
        400,
      );
    }
  }
  await ctx.iam.revokeSessions(user, revokeType || undefined);
  return empty(204);
}
