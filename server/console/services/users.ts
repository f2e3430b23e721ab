/**
 * Users (api-index §4): list, detail, create with groups and policies, update, delete, bulk group
 * membership, policy attachment, and Deck's effective access check. Every call goes to the storage
 * server's admin API with the session's credentials, so the storage server decides what is allowed.
 */
import { decisionReason } from "../../../islands/lib/policy/catalog.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import type {
  AccessCheck,
  AddUserInput,
  BulkUsersGroupsInput,
  SetPolicyInput,
  UpdateUserInput,
  User,
} from "../../lib/contract/users.ts";
import { ApiError } from "../http/errors.ts";
import * as iam from "../../lib/s3/admin/iam.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { ChangeSet } from "./change_set.ts";
import { evaluate, type NamedPolicy, normalizePolicy } from "../../lib/policy/mod.ts";
import { endSessions } from "./session_revocation.ts";

const policyNames = (joined: string | undefined) =>
  (joined ?? "").split(",").map((p) => p.trim()).filter(Boolean);

/** Group name → its policies, for the groups given (each described once). */
async function groupPolicies(
  client: S3Client,
  groups: Iterable<string>,
): Promise<Map<string, { policies: string[]; enabled: boolean }>> {
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

/**
 * All users sorted by access key, optionally one page of them. As the original console's list, this is one
 * admin call: `hasPolicy` counts the user's own policies here, while the user detail (getUser) also looks at
 * its groups' policies. Describing every group for the list made it one call per group, under load the
 * costliest page of the console.
 */
export async function listUsers(
  client: S3Client,
  page: { offset?: number; limit?: number } = {},
): Promise<User[]> {
  const users = await iam.listUsers(client) ?? {};
  const noGroups = new Map<string, { policies: string[] }>();
  const all = Object.entries(users).map(([name, info]) => toUser(name, info, noGroups)).sort((a, b) =>
    a.accessKey.localeCompare(b.accessKey)
  );
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

/** Refuses policy names the storage server does not know, before anything is changed. */
async function assertPoliciesExist(
  client: S3Client,
  names: string[],
  outcome: "created" | "changed",
): Promise<void> {
  if (names.length === 0) return;
  const known = await iam.listCannedPolicies(client);
  const missing = names.filter((name) => !(name in known));
  if (missing.length === 0) return;
  const list = missing.join(", ");
  throw new ApiError(400, t("iam.api.unknownPolicy", { list }), {
    detail: outcome === "created"
      ? t("iam.api.unknownPolicyNotCreated", { list })
      : t("iam.api.unknownPolicyNotChanged", { list }),
  });
}

/** Adds the user to a group; undoing removes it again, and removes the group too if this step created it. */
async function joinGroup(
  change: ChangeSet,
  client: S3Client,
  user: string,
  group: string,
  existingGroups: Set<string>,
): Promise<void> {
  await change.apply(
    t("iam.change.joiningGroup", { group }),
    () => iam.updateGroupMembers(client, { group, members: [user], isRemove: false }),
    async () => {
      await iam.updateGroupMembers(client, { group, members: [user], isRemove: true });
      if (!existingGroups.has(group)) {
        await iam.updateGroupMembers(client, { group, members: [], isRemove: true });
      }
    },
  );
}

/**
 * Creates a user with its groups and policies as one unit: everything is checked first (the name is free, the
 * policies exist), then applied; if a step still fails, what was applied is undone (the user, its memberships
 * and any group created for it) and the error names the step.
 */
export async function addUser(client: S3Client, input: AddUserInput): Promise<User> {
  const outcome = t("iam.change.userNotCreated");
  if (await userExists(client, input.accessKey)) {
    throw new ApiError(409, t("iam.api.userExists"), {
      detail: t("iam.api.userExistsDetail", { name: input.accessKey }),
    });
  }
  await assertPoliciesExist(client, input.policies, "created");
  const existingGroups = new Set(input.groups.length ? await iam.listGroups(client) : []);
  const change = new ChangeSet(outcome);
  await change.apply(
    t("iam.change.creatingUser"),
    () => iam.addUser(client, input.accessKey, input.secretKey),
    () => iam.removeUser(client, input.accessKey),
  );
  for (const group of new Set(input.groups)) {
    await joinGroup(change, client, input.accessKey, group, existingGroups);
  }
  if (input.policies.length) {
    await change.apply(
      t("iam.change.attachingPolicies", { policies: input.policies.join(", ") }),
      () => iam.setPolicy(client, input.policies, input.accessKey, false),
    );
  }
  return await getUser(client, input.accessKey);
}

/**
 * Status, group membership (added and removed to match) and, when sent, the policy list, as one unit: the
 * user and the policies are checked first; if a step fails, the earlier steps are undone.
 */
export async function updateUser(client: S3Client, name: string, input: UpdateUserInput): Promise<User> {
  const outcome = t("iam.change.userNotChanged");
  const current = await iam.getUserInfo(client, name);
  if (input.policies) await assertPoliciesExist(client, input.policies, "changed");
  const before = new Set(current.memberOf ?? []);
  const after = new Set(input.groups);
  const existingGroups = new Set([...after].some((g) => !before.has(g)) ? await iam.listGroups(client) : []);
  const change = new ChangeSet(outcome);
  if (current.status !== input.status) {
    await change.apply(
      t("iam.change.settingStatus", { status: input.status }),
      () => iam.setUserStatus(client, name, input.status),
      () => iam.setUserStatus(client, name, current.status),
    );
  }
  for (const group of after) {
    if (!before.has(group)) await joinGroup(change, client, name, group, existingGroups);
  }
  for (const group of before) {
    if (after.has(group)) continue;
    await change.apply(
      t("iam.change.leavingGroup", { group }),
      () => iam.updateGroupMembers(client, { group, members: [name], isRemove: true }),
      () => iam.updateGroupMembers(client, { group, members: [name], isRemove: false }),
    );
  }
  const currentPolicies = policyNames(current.policyName);
  if (input.policies && [...input.policies].sort().join(",") !== [...currentPolicies].sort().join(",")) {
    await change.apply(
      t("iam.change.attachingPolicies", {
        policies: input.policies.join(", ") || t("iam.change.noPolicies"),
      }),
      () => iam.setPolicy(client, input.policies!, name, false),
    );
  }
  // Only once the whole change stands (ending sessions cannot be undone): a disabled user's sessions end now.
  if (current.status !== input.status && input.status === "disabled") {
    await endSessions(client, { user: name, fullRevoke: true });
  }
  return await getUser(client, name);
}

export async function removeUser(client: S3Client, signedInAs: string, name: string): Promise<void> {
  if (name === signedInAs) throw ApiError.forbidden(t("iam.api.selfDelete"));
  await iam.removeUser(client, name);
  // Newer MinIO keeps a deleted user's STS credentials (denied, but alive for a same-named new user).
  await endSessions(client, { user: name, fullRevoke: true });
}

/** Adds every user to every group (spec 1 Add Users to Group). */
export async function addUsersToGroups(client: S3Client, input: BulkUsersGroupsInput): Promise<void> {
  for (const group of input.groups) {
    await iam.updateGroupMembers(client, { group, members: input.users, isRemove: false });
  }
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
export async function checkUserAccess(
  client: S3Client,
  name: string,
  action: string,
  resource: string,
): Promise<AccessCheck> {
  const info = await iam.getUserInfo(client, name);
  const groups = await groupPolicies(client, info.memberOf ?? []);
  const names = new Set(policyNames(info.policyName));
  for (const group of groups.values()) if (group.enabled) group.policies.forEach((p) => names.add(p));
  const policies: NamedPolicy[] = await Promise.all([...names].map(async (policyName) => ({
    name: policyName,
    policy: normalizePolicy(JSON.parse(await iam.infoCannedPolicy(client, policyName))),
  })));
  const decision = evaluate(policies, {
    action,
    ...parseResource(resource),
    conditions: { "aws:username": [name] },
  });
  const disabled = info.status === "disabled";
  return {
    allowed: decision.allowed && !disabled,
    policy: decision.policy,
    statementIndex: decision.statementIndex,
    sid: decision.sid,
    effect: decision.effect,
    reason: disabled
      ? t(decision.allowed ? "iam.user.disabledWouldAllow" : "iam.user.disabledWouldDeny", {
        reason: decisionReason(decision),
      })
      : decisionReason(decision),
    evaluated: [...names],
  };
}
