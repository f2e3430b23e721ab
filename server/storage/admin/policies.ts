/** Canned policies and their mapping to users and groups (minio-protocol §3.6). */
import { parsesAsDn } from "../../lib/ldap/names.ts";
import { ldapConfigured, setLdapPolicy } from "./ldap_policy.ts";
import { checkPolicy } from "../../lib/policy/validate.ts";
import { type AdminContext, adminFail, empty, json, requireAction, requiredParam } from "./context.ts";

const noSuchPolicy = (name: string) =>
  adminFail("XMinioAdminNoSuchPolicy", `The canned policy ${name} does not exist.`, 404);

/** Policy names: non-empty, no commas (they are joined with commas), no control characters. */
export function policyNameProblem(name: string): string | null {
  if (!name.trim()) return "policy name must not be empty";
  if (name.length > 128) return "policy name must be at most 128 characters";
  // deno-lint-ignore no-control-regex -- control characters are exactly what is refused
  if (/[,\u0000-\u001f\u007f]/.test(name)) return "policy name must not contain commas or control characters";
  return null;
}

export async function listCannedPolicies(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ListUserPolicies");
  const out: Record<string, unknown> = {};
  for (const name of [...ctx.iam.policies.keys()].sort()) out[name] = ctx.iam.policies.get(name)!.document;
  return json(out);
}

export async function infoCannedPolicy(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:GetPolicy");
  const name = requiredParam(ctx, "name");
  const policy = ctx.iam.policies.get(name);
  if (!policy) throw noSuchPolicy(name);
  const version = ctx.query.get("v");
  if (version === "2") {
    return json({
      PolicyName: name,
      Policy: policy.document,
      CreateDate: policy.createDate,
      UpdateDate: policy.updateDate,
    });
  }
  if (version) {
    throw adminFail("XMinioAdminInvalidArgument", "unsupported version of the policy info API", 400);
  }
  return new Response(JSON.stringify(policy.document, null, " "), {
    headers: { "content-type": "application/json" },
  });
}

export async function addCannedPolicy(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:CreatePolicy");
  const name = requiredParam(ctx, "name");
  const nameProblem = policyNameProblem(name);
  if (nameProblem) throw adminFail("XMinioAdminInvalidArgument", nameProblem, 400);
  const text = new TextDecoder().decode(ctx.body);
  if (!text.trim()) throw adminFail("XMinioAdminInvalidArgument", "policy document is empty", 400);
  const { problems } = checkPolicy(text);
  if (problems.length) {
    const first = problems[0];
    throw adminFail(
      "XMinioMalformedIAMPolicy",
      `policy has an error at line ${first.line}, column ${first.column}: ${first.message}`,
      400,
    );
  }
  const existing = ctx.iam.policies.get(name);
  const stamp = new Date(ctx.now()).toISOString();
  await ctx.iam.putPolicy({
    name,
    document: JSON.parse(text),
    createDate: existing?.createDate ?? stamp,
    updateDate: stamp,
  });
  return empty();
}

export async function removeCannedPolicy(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:DeletePolicy");
  const name = requiredParam(ctx, "name");
  if (!ctx.iam.policies.has(name)) throw noSuchPolicy(name);
  await ctx.iam.removePolicy(name);
  // Mappings to a deleted policy grant nothing; drop them so listings stay truthful.
  for (const user of ctx.iam.users.values()) {
    if (user.policies.includes(name)) {
      await ctx.iam.putUser({
        ...user,
        policies: user.policies.filter((p) => p !== name),
      });
    }
  }
  for (const group of ctx.iam.groups.values()) {
    if (group.policies.includes(name)) {
      await ctx.iam.putGroup({
        ...group,
        policies: group.policies.filter((p) => p !== name),
      });
    }
  }
  return empty();
}

export async function setPolicy(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:AttachUserOrGroupPolicy");
  const names = (ctx.query.get("policyName") ?? "").split(",").map((n) => n.trim()).filter(Boolean);
  const entity = requiredParam(ctx, "userOrGroup");
  const isGroup = ctx.query.get("isGroup") === "true";
  for (const name of names) if (!ctx.iam.policies.has(name)) throw noSuchPolicy(name);
  const policies = [...new Set(names)];
  // With a directory configured, a DN that is no internal user or group names a directory user or group.
  if (
    ldapConfigured(ctx) && parsesAsDn(entity) &&
    !(isGroup ? ctx.iam.groups.has(entity) : ctx.iam.users.has(entity))
  ) {
    return await setLdapPolicy(ctx, entity, isGroup, policies);
  }
  const stamp = new Date(ctx.now()).toISOString();
  if (isGroup) {
    const group = ctx.iam.groups.get(entity);
    if (!group) throw adminFail("XMinioAdminNoSuchGroup", "The specified group does not exist.", 404);
    await ctx.iam.putGroup({ ...group, policies, updatedAt: stamp });
  } else {
    if (ctx.authority.isRoot(entity)) {
      throw adminFail("XMinioIAMActionNotAllowed", "Policies cannot be attached to the root user", 403);
    }
    const user = ctx.iam.users.get(entity);
    if (!user) throw adminFail("XMinioAdminNoSuchUser", "The specified user does not exist.", 404);
    await ctx.iam.putUser({ ...user, policies, updatedAt: stamp });
  }
  return empty();
}
