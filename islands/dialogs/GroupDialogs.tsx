/** Create Group / Edit Group (members and status; name read-only when editing) and the group detail dialog. */
import { useState } from "react";
import type { Group } from "../../server/lib/contract/groups.ts";
import { groupsApi } from "../lib/api/groups.ts";
import { showSnackbar } from "../lib/notify.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { CheckList, Switch, TextField } from "../ui/fields.tsx";

export function GroupDialog(
  { open, group, users, onClose, onSaved }: {
    open: boolean;
    group?: Group;
    users: string[];
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const editing = !!group;
  const [name, setName] = useState(group?.name ?? "");
  const [members, setMembers] = useState<string[]>(group?.members ?? []);
  const [enabled, setEnabled] = useState(group ? group.status === "enabled" : true);
  const action = useDialogAction();
  function save() {
    action.run(async () => {
      if (editing) await groupsApi.update(group.name, members, enabled ? "enabled" : "disabled");
      else await groupsApi.create(name.trim(), members);
      showSnackbar(editing ? `Group ${group.name} updated` : `Group ${name.trim()} created`);
      onSaved();
    });
  }
  return (
    <Dialog
      title={editing ? "Edit Group" : "Create Group"}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{ label: "Save", submit: true, disabled: name.trim() === "" || action.busy, onClick: save }}
    >
      <TextField label="Group Name" value={name} onChange={setName} readOnly={editing} />
      {editing
        ? <Switch label={enabled ? "Enabled" : "Disabled"} checked={enabled} onChange={setEnabled} />
        : null}
      <CheckList
        label="Members"
        options={users}
        selected={members}
        onChange={setMembers}
        emptyText="No Users Available"
      />
    </Dialog>
  );
}

export function GroupInfoDialog({ group, onClose }: { group: Group | null; onClose: () => void }) {
  return (
    <Dialog title={group ? `Group: ${group.name}` : "Group"} open={group !== null} onClose={onClose}>
      {group
        ? (
          <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm" data-testid="group-info">
            <dt className="font-bold">Status</dt>
            <dd>{group.status === "enabled" ? "Enabled" : "Disabled"}</dd>
            <dt className="font-bold">Policies</dt>
            <dd>{group.policy || "None"}</dd>
            <dt className="font-bold">Members</dt>
            <dd>{group.members.length ? group.members.join(", ") : "No members"}</dd>
          </dl>
        )
        : null}
    </Dialog>
  );
}
