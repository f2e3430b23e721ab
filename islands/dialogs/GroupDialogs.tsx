/** Create Group / Edit Group (members and status; name read-only when editing) and the group detail dialog. */
import { t } from "../lib/i18n/t.ts";
import { useState } from "react";
import type { Group } from "../../server/lib/contract/groups.ts";
import { groupsApi } from "../lib/api/groups.ts";
import { usersApi } from "../lib/api/users.ts";
import { useNames } from "../lib/use_list.ts";
import { showSnackbar } from "../lib/notify.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { CheckList, Switch, TextField } from "../ui/fields.tsx";

export function GroupDialog(
  { open, group, onClose, onSaved }: {
    open: boolean;
    group?: Group;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const editing = !!group;
  const users = useNames(usersApi.names);
  const [name, setName] = useState(group?.name ?? "");
  const [members, setMembers] = useState<string[]>(group?.members ?? []);
  const [enabled, setEnabled] = useState(group ? group.status === "enabled" : true);
  const action = useDialogAction();
  function save() {
    action.run(async () => {
      if (editing) await groupsApi.update(group.name, members, enabled ? "enabled" : "disabled");
      else await groupsApi.create(name.trim(), members);
      showSnackbar(
        editing
          ? t("iam.groupDialog.updated", { name: group.name })
          : t("iam.groupDialog.created", { name: name.trim() }),
      );
      onSaved();
    });
  }
  return (
    <Dialog
      title={editing ? t("iam.groupDialog.edit") : t("iam.groups.create")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: name.trim() === "" || action.busy,
        onClick: save,
      }}
    >
      <TextField label={t("iam.groupDialog.name")} value={name} onChange={setName} readOnly={editing} />
      {editing
        ? (
          <Switch
            label={enabled ? t("common.word.enabled") : t("common.word.disabled")}
            checked={enabled}
            onChange={setEnabled}
          />
        )
        : null}
      <CheckList
        label={t("iam.word.members")}
        options={users}
        selected={members}
        onChange={setMembers}
        emptyText={t("iam.empty.users")}
      />
    </Dialog>
  );
}

export function GroupInfoDialog({ group, onClose }: { group: Group | null; onClose: () => void }) {
  return (
    <Dialog
      title={group ? t("iam.groupDialog.info", { name: group.name }) : t("iam.groupDialog.group")}
      open={group !== null}
      onClose={onClose}
    >
      {group
        ? (
          <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm" data-testid="group-info">
            <dt className="font-bold">{t("common.word.status")}</dt>
            <dd>{group.status === "enabled" ? t("common.word.enabled") : t("common.word.disabled")}</dd>
            <dt className="font-bold">{t("iam.word.policies")}</dt>
            <dd>{group.policy || t("common.word.none")}</dd>
            <dt className="font-bold">{t("iam.word.members")}</dt>
            <dd>{group.members.length ? group.members.join(", ") : t("iam.groupDialog.noMembers")}</dd>
          </dl>
        )
        : null}
    </Dialog>
  );
}
