/** Groups (api-index §4): list, detail, create with members, update members and status, delete. */
import { t } from "../../../islands/lib/i18n/t.ts";
import type { AddGroupInput, Group, UpdateGroupInput } from "../../lib/contract/groups.ts";
import { ApiError } from "../http/errors.ts";
import * as iam from "../../lib/s3/admin/iam.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { ChangeSet } from "./change_set.ts";

export async function listGroups(
  client: S3Client,
  page: { offset?: number; limit?: number } = {},
): Promise<{ groups: string[]; total: number }> {
  const all = (await iam.listGroups(client)).sort((a, b) => a.localeCompare(b));
  const offset = page.offset ?? 0;
  return { groups: all.slice(offset, page.limit ? offset + page.limit : undefined), total: all.length };
}

export async function getGroup(client: S3Client, name: string): Promise<Group> {
  const desc = await iam.getGroupDescription(client, name);
  return {
    name: desc.name || name,
    status: desc.status === "disabled" ? "disabled" : "enabled",
    members: desc.members ?? [],
    policy: desc.policy ?? "",
  };
}

export async function addGroup(client: S3Client, input: AddGroupInput): Promise<void> {
  if ((await iam.listGroups(client)).includes(input.group)) {
    throw new ApiError(409, t("iam.api.groupExists"), {
      detail: t("iam.api.groupExistsDetail", { name: input.group }),
    });
  }
  await iam.updateGroupMembers(client, { group: input.group, members: input.members, isRemove: false });
}

/** Makes the members match the list (adding and removing) and sets the status, as one unit (see ChangeSet). */
export async function updateGroup(client: S3Client, name: string, input: UpdateGroupInput): Promise<Group> {
  const current = await getGroup(client, name);
  const before = new Set(current.members);
  const added = [...new Set(input.members)].filter((m) => !before.has(m));
  const removed = current.members.filter((m) => !input.members.includes(m));
  const change = new ChangeSet(t("iam.change.groupNotChanged"));
  const members = (members: string[], isRemove: boolean) => () =>
    iam.updateGroupMembers(client, { group: name, members, isRemove });
  if (added.length) {
    await change.apply(
      t("iam.change.addingMembers", { members: added.join(", ") }),
      members(added, false),
      members(added, true),
    );
  }
  if (removed.length) {
    await change.apply(
      t("iam.change.removingMembers", { members: removed.join(", ") }),
      members(removed, true),
      members(removed, false),
    );
  }
  if (current.status !== input.status) {
    await change.apply(
      t("iam.change.settingStatus", { status: input.status }),
      () => iam.setGroupStatus(client, name, input.status),
    );
  }
  return await getGroup(client, name);
}

/** Removes the members first: the storage server only deletes empty groups. */
export async function removeGroup(client: S3Client, name: string): Promise<void> {
  const current = await getGroup(client, name);
  if (current.members.length) {
    await iam.updateGroupMembers(client, { group: name, members: current.members, isRemove: true });
  }
  await iam.updateGroupMembers(client, { group: name, members: [], isRemove: true });
}
