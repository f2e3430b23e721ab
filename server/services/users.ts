/**
 * Users (api-index §4): list, detail, create with groups and policies, update, delete, bulk group
 * membership, policy attachment, and Deck's effective access check. Every call goes to the storage
 * server's admin API with the session's credentials, so the storage server decides what is allowed.
 */
import type { AccessCheck, AddUserInput, BulkUsersGroupsInput, SetPolicyInput, UpdateUserInput, User } from "../contract/users.ts";
import { ApiError } from "../errors.ts";
import * as iam from "../s3/admin/iam.ts";
import type { S3Client } from "../s3/client.ts";
import { S3Error } from "../s3/errors.ts";
import { evaluate, type NamedPolicy, normalizePolicy } from "../policy/mod.ts";

const policyNames = (joined: string | undefined) => (joined ?? "").split(",").map((p) => p.trim()).filter(Boolean);

/** Group name → its policies, for the groups given (each described once). */
async function groupPolicies(client: S3Client, groups: Iterable<string>): Promise<Map<string, { policies: string[]; enabled: boolean }>> {
  const out = new Map<string, { policies: string[]; enabled: boolean }>();
  await Promise.all([...new Set(groups)].map(async (group) => {
    try {
      const desc = await iam.getGroupDescription(client, group);
      out.set(group, { policies: policyNames(desc.policy), enabled: desc.status !== "disabled" });
    } catch (error) {
      if (!(error instanceof S3Error && error.code === "XMinioAdminNoSuchGroup")) throw error;
    }
  }));
  return out;
}

function toUser(accessKey: string, info: iam.UserInfo, groups: Map<string, { policies: string[] }>): User {
  const memberOf = info.memberOf ?? [];
  const policy = policyNames(info.policyName);
  return {
    accessKey,
    status: info.status === "disabled" ? "disabled" : "enabled",
    memberOf,
    policy,
    hasPolicy: policy.length > 0 || memberOf.some((g) => (groups.get(g)?.policies.length ?? 0) > 0),
  };
}

/** All users sorted by access key, optionally one page of them. */
export async function listUsers(client: S3Client, page: { offset?: number; limit?: number } = {}): Promise<User[]> {
  const users = await iam.listUsers(client) ?? {};
  const groups = await groupPolicies(client, Object.values(users).flatMap((u) => u.memberOf ?? []));
  const all = Object.entries(users).map(([name, info]) => toUser(name, info, groups)).sort((a, b) => a.accessKey.localeCompare(b.accessKey));
  const offset = page.offset ?? 0;
  return all.slice(offset, page.limit ? offset + page.limit : undefined);
}

export async function getUser(client: S3Client, name: string): Promise<User> {
  const info = await iam.getUserInfo(client, name);
  return toUser(name, info, await groupPolicies(client, info.memberOf ?? []));
}

async function userExists(client: S3Client, name: string): Promise<boolean> {
  try {
    await iam.getUserInfo(client, name);
    return true;
  } catch (error) {
    if (error instanceof S3Error && error.code === "XMinioAdminNoSuchUser") return false;
    throw error;
  }
}

/**
 * Creates a user with its groups and policies as one unit: if adding it to a group or attaching its
 * policies fails, the user is removed again and the error names the step, so nothing half-made remains.
 */
export async function addUser(client: S3Client, input: AddUserInput): Promise<User> {
  if (await userExists(client, input.accessKey)) throw new ApiError(409, "user already exists", { detail: `A user named ${input.accessKey} already exists.` });
  await iam.addUser(client, input.accessKey, input.secretKey);
  let step = "";
  try {
    for (const group of input.groups) {
      step = `adding the user to group ${group}`;
      await iam.updateGroupMembers(client, { group, members: [input.accessKey], isRemove: false });
    }
    if (input.policies.length) {
      step = `attaching the policies ${input.policies.join(", ")}`;
      await iam.setPolicy(client, input.policies, input.accessKey, false);
    }
  } catch (error) {
    await iam.removeUser(client, input.accessKey).catch(() => {});
    const cause = error instanceof Error ? error.message : String(error);
    const status = error instanceof S3Error && error.status < 500 ? (error.status === 404 ? 400 : error.status) : 502;
    throw new ApiError(status, `the user was not created: ${step} failed`, { detail: cause });
  }
  return await getUser(client, input.accessKey);
}

/** Status, group membership (added and removed to match) and, when sent, the policy list. */
export async function updateUser(client: S3Client, name: string, input: UpdateUserInput): Promise<User> {
  const current = await iam.getUserInfo(client, name);
  if (current.status !== input.status) await iam.setUserStatus(client, name, input.status);
  const before = new Set(current.memberOf ?? []);
  const after = new Set(input.groups);
  for (const group of after) if (!before.has(group)) await iam.updateGroupMembers(client, { group, members: [name], isRemove: false });
  for (const group of before) if (!after.has(group)) await iam.updateGroupMembers(client, { group, members: [name], isRemove: true });
  if (input.policies) {
    const same = [...input.policies].sort().join(",") === policyNames(current.policyName).sort().join(",");
    if (!same) await iam.setPolicy(client, input.policies, name, false);
  }
  return await getUser(client, name);
}

export async function removeUser(client: S3Client, signedInAs: string, name: string): Promise<void> {
  if (name === signedInAs) throw ApiError.forbidden("logged in user cannot be deleted by itself");
  await iam.removeUser(client, name);
}

/** Adds every user to every group (spec 1 Add Users to Group). */
export async function addUsersToGroups(client: S3Client, input: BulkUsersGroupsInput): Promise<void> {
  for (const group of input.groups) await iam.updateGroupMembers(client, { group, members: input.users, isRemove: false });
}

/** Sets the policy list of a user or group; `names` is the comma-joined path segment. */
export async function setPolicy(client: S3Client, names: string, input: SetPolicyInput): Promise<void> {
  await iam.setPolicy(client, policyNames(names), input.entityName, input.entityType === "group");
}

/** Splits "arn:aws:s3:::bucket/key", "bucket/key" or "*" into the evaluator's bucket and key. */
function parseResource(resource: string): { bucket: string; key: string } {
  const path = resource.replace(/^arn:aws:s3:::/, "");
  if (path === "" || path === "*") return { bucket: "", key: "" };
  const slash = path.indexOf("/");
  return slash < 0 ? { bucket: path, key: "" } : { bucket: path.slice(0, slash), key: path.slice(slash + 1) };
}

/**
 * "Can this user do ACTION on RESOURCE?": evaluates the user's own policies and those of its enabled
 * groups with the same evaluator the embedded server enforces, naming the deciding statement.
 */
export async function checkUserAccess(client: S3Client, name: string, action: string, resource: string): Promise<AccessCheck> {
  const info = await iam.getUserInfo(client, name);
  const groups = await groupPolicies(client, info.memberOf ?? []);
  const names = new Set(policyNames(info.policyName));
  for (const group of groups.values()) if (group.enabled) group.policies.forEach((p) => names.add(p));
  const policies: NamedPolicy[] = await Promise.all([...names].map(async (policyName) => ({
    name: policyName,
    policy: normalizePolicy(JSON.parse(await iam.infoCannedPolicy(client, policyName))),
  })));
  const decision = evaluate(policies, { action, ...parseResource(resource), conditions: { "aws:username": [name] } });
  const disabled = info.status === "disabled";
  return {
    allowed: decision.allowed && !disabled,
    policy: decision.policy,
    statementIndex: decision.statementIndex,
    sid: decision.sid,
    effect: decision.effect,
    reason: disabled ? `The user is disabled, so every request is refused. Its policies alone would ${decision.allowed ? "allow" : "deny"} it: ${decision.reason}` : decision.reason,
    evaluated: [...names],
  };
}
