/** Groups (minio-protocol §3.5): list, describe, add/remove members (creating or deleting the group), status. */
import {
  type AdminContext,
  adminFail,
  empty,
  json,
  plainJson,
  requireAction,
  requiredParam,
} from "./context.ts";
import { hasBadPathComponent } from "../../lib/contract/iam_names.ts";
import { badComponents } from "../core/errors.ts";

const noSuchGroup = () => adminFail("XMinioAdminNoSuchGroup", "The specified group does not exist.", 404);

export async function listGroups(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ListGroups");
  return json([...ctx.iam.groups.keys()].sort());
}

export async function getGroup(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:GetGroup");
  const group = ctx.iam.groups.get(requiredParam(ctx, "group"));
  if (!group) throw noSuchGroup();
  return json({
    name: group.name,
    status: group.status,
    members: group.members,
    policy: group.policies.join(","),
    updatedAt: group.updatedAt,
  });
}

export async function updateGroupMembers(ctx: AdminContext): Promise<Response> {
  const body = plainJson<
    { group?: string; members?: string[] | null; isRemove?: boolean; groupStatus?: string }
  >(ctx);
  const name = (body.group ?? "").trim();
  const members = body.members ?? [];
  requireAction(ctx, body.isRemove ? "admin:RemoveUserFromGroup" : "admin:AddUserToGroup");
  // deno-lint-ignore no-control-regex -- control characters (NUL above all) are exactly what is refused
  if (!name || name.includes(",") || name.length > 256 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw adminFail("XMinioAdminInvalidArgument", "Invalid group name", 400);
  }
  const existing = ctx.iam.groups.get(name);
  // A new group so named could never be named in a query (MinIO's check refuses it there); one made before
  // this check can still be emptied and removed.
  if (!existing && hasBadPathComponent(name)) throw badComponents();
  const stamp = new Date(ctx.now()).toISOString();
  for (const member of members) {
    if (!ctx.iam.users.has(member)) {
      if (
        ctx.iam.serviceAccounts.has(member) || ctx.iam.sessions.has(member) || ctx.authority.isRoot(member)
      ) {
        throw adminFail(
          "XMinioIAMActionNotAllowed",
          `${member} is not a regular user and cannot be a group member`,
          403,
        );
      }
      throw adminFail("XMinioAdminNoSuchUser", `The specified user ${member} does not exist.`, 404);
    }
  }
  if (body.isRemove) {
    if (!existing) throw noSuchGroup();
    if (members.length === 0) {
      if (existing.members.length > 0) {
        throw adminFail(
          "XMinioAdminGroupNotEmpty",
          "The specified group is not empty - cannot remove it.",
          400,
        );
      }
      await ctx.iam.removeGroup(name);
      return empty();
    }
    await ctx.iam.putGroup({
      ...existing,
      members: existing.members.filter((m) => !members.includes(m)),
      updatedAt: stamp,
    });
    return empty();
  }
  const merged = [...new Set([...(existing?.members ?? []), ...members])];
  await ctx.iam.putGroup({
    name,
    members: merged,
    status: existing?.status ?? (body.groupStatus === "disabled" ? "disabled" : "enabled"),
    policies: existing?.policies ?? [],
    updatedAt: stamp,
  });
  return empty();
}

export async function setGroupStatus(ctx: AdminContext): Promise<Response> {
  const name = requiredParam(ctx, "group");
  const status = requiredParam(ctx, "status");
  if (status !== "enabled" && status !== "disabled") {
    throw adminFail("XMinioAdminInvalidArgument", "status must be enabled or disabled", 400);
  }
  requireAction(ctx, status === "enabled" ? "admin:EnableGroup" : "admin:DisableGroup");
  const group = ctx.iam.groups.get(name);
  if (!group) throw noSuchGroup();
  await ctx.iam.putGroup({ ...group, status, updatedAt: new Date(ctx.now()).toISOString() });
  return empty();
}
