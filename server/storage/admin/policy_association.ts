/**
 * POST idp/builtin/policy/attach and …/detach (minio-protocol-2 §12.1): add policies to, or take them from, a
 * user's or group's list. Two eras of clients call it. madmin v2.x sends no Content-Type and accepts only
 * 201 (attach) or 204 (detach) with no body, and servers of that era refused the whole call when any policy
 * was already attached (or not attached). madmin v3+ sends application/octet-stream and expects 200 with the
 * encrypted list of what changed, an error only when nothing would. The Content-Type tells them apart.
 */
import { type AdminContext, adminFail, decryptJson, empty, encryptedJson } from "./context.ts";

const invalid = (message: string) => adminFail("XMinioAdminInvalidArgument", message, 400);

/** Who may change policy associations, built-in or directory ones alike. */
export function requireAssociationPermission(ctx: AdminContext): void {
  if (!ctx.can("admin:UpdatePolicyAssociation") && !ctx.can("admin:AttachUserOrGroupPolicy")) {
    throw adminFail("AccessDenied", "Access Denied.", 403);
  }
}

/**
 * The encrypted body of an attach or detach, checked as MinIO checks it: a non-empty list of policy names
 * (each existing, for an attach) and exactly one of user or group.
 */
export async function readAssociationBody(
  ctx: AdminContext,
  operation: "attach" | "detach",
): Promise<{ policies: string[]; user: string; group: string }> {
  const body = await decryptJson<{ policies?: unknown; user?: unknown; group?: unknown }>(ctx);
  if (!Array.isArray(body.policies) || body.policies.length === 0) {
    throw invalid("no policy names were given");
  }
  if (body.policies.some((p) => typeof p !== "string" || p.trim() === "")) {
    throw invalid("an empty policy name was given");
  }
  const policies = [...new Set(body.policies as string[])];
  const user = typeof body.user === "string" ? body.user : "";
  const group = typeof body.group === "string" ? body.group : "";
  if (!user && !group) throw invalid("no user or group association was given");
  if (user && group) throw invalid("either a group or a user association must be given, not both");
  if (operation === "attach") {
    for (const name of policies) {
      if (!ctx.iam.policies.has(name)) {
        throw adminFail("XMinioAdminNoSuchPolicy", `The canned policy ${name} does not exist.`, 404);
      }
    }
  }
  return { policies, user, group };
}

export async function changePolicyAssociation(
  ctx: AdminContext,
  operation: "attach" | "detach",
): Promise<Response> {
  requireAssociationPermission(ctx);
  const modern = (ctx.request.headers.get("content-type") ?? "").toLowerCase().startsWith(
    "application/octet-stream",
  );
  const { policies, user, group } = await readAssociationBody(ctx, operation);

  let current: string[];
  if (user) {
    if (ctx.authority.isRoot(user)) {
      throw modern
        ? adminFail(
          "XMinioIAMActionNotAllowed",
          "Specified IAM action is not allowed: the root user has every permission",
          403,
        )
        : adminFail("XMinioAdminNoSuchUser", "The specified user does not exist.", 404);
    }
    if (ctx.iam.sessions.has(user) || ctx.iam.serviceAccounts.has(user)) {
      throw adminFail(
        "XMinioIAMActionNotAllowed",
        "Specified IAM action is not allowed: policies attach to users, not to temporary or service account keys",
        403,
      );
    }
    const record = ctx.iam.users.get(user);
    if (!record) throw adminFail("XMinioAdminNoSuchUser", "The specified user does not exist.", 404);
    current = record.policies;
  } else {
    const record = ctx.iam.groups.get(group);
    if (!record) throw adminFail("XMinioAdminNoSuchGroup", "The specified group does not exist.", 404);
    current = record.policies;
  }

  const changed = operation === "attach"
    ? policies.filter((p) => !current.includes(p))
    : policies.filter((p) => current.includes(p));
  if (modern && changed.length === 0) {
    throw adminFail(
      "XMinioAdminPolicyChangeAlreadyApplied",
      "The specified policy change is already in effect.",
      400,
    );
  }
  if (!modern && changed.length < policies.length) {
    throw operation === "attach"
      ? adminFail("XMinioPolicyAlreadyAttached", "The specified policy is already attached.", 409)
      : adminFail("XMinioPolicyNotAttached", "The specified policy is not found.", 404);
  }
  const next = operation === "attach"
    ? [...current, ...changed]
    : current.filter((p) => !changed.includes(p));
  const updatedAt = new Date(ctx.now()).toISOString();
  if (user) await ctx.iam.putUser({ ...ctx.iam.users.get(user)!, policies: next, updatedAt });
  else await ctx.iam.putGroup({ ...ctx.iam.groups.get(group)!, policies: next, updatedAt });

  if (!modern) return empty(operation === "attach" ? 201 : 204);
  return await encryptedJson(
    ctx,
    operation === "attach"
      ? { policiesAttached: changed, updatedAt }
      : { policiesDetached: changed, updatedAt },
  );
}
