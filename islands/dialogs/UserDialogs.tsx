/**
 * User dialogs (spec 1): Create User / Edit User (groups, policies, enabled switch; access key read-only
 * when editing), Set Groups, Set Policies, and Add Users to Group with its confirmation listing groups and users.
 */
import { useState } from "react";
import type { User } from "../../server/lib/contract/users.ts";
import { usersApi } from "../lib/api/users.ts";
import { showSnackbar } from "../lib/notify.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { CheckList, Switch, TextField } from "../ui/fields.tsx";
import { passwordProblem } from "../../server/lib/contract/account.ts";

export const NO_GROUP_SELECTED = "You need to select at least one group to assign";

export function UserDialog({ open, user, groups, policies, onClose, onSaved }: {
  open: boolean;
  /** Edit this user; omitted → create. */
  user?: User;
  groups: string[];
  policies: string[];
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const editing = !!user;
  const [accessKey, setAccessKey] = useState(user?.accessKey ?? "");
  const [secretKey, setSecretKey] = useState("");
  const [selectedGroups, setGroups] = useState<string[]>(user?.memberOf ?? []);
  const [selectedPolicies, setPolicies] = useState<string[]>(user?.policy ?? []);
  const [enabled, setEnabled] = useState(user ? user.status === "enabled" : true);
  const action = useDialogAction();
  const ready = accessKey.trim() !== "" && (editing || secretKey.trim() !== "");
  function save() {
    // Spec 1 §5: the submit step checks the secret field in both modes, so editing also sets a new secret.
    const problem = passwordProblem(secretKey);
    if (problem) return action.setMessage({ message: problem, type: "error" });
    action.run(async () => {
      let saved: User;
      if (editing) {
        saved = await usersApi.update(user.accessKey, {
          status: enabled ? "enabled" : "disabled",
          groups: selectedGroups,
          policies: selectedPolicies,
        });
        await usersApi.changePassword(user.accessKey, secretKey);
      } else {
        saved = await usersApi.create({
          accessKey: accessKey.trim(),
          secretKey,
          groups: selectedGroups,
          policies: selectedPolicies,
        });
        if (!enabled) {
          saved = await usersApi.update(saved.accessKey, { status: "disabled", groups: saved.memberOf });
        }
      }
      showSnackbar(editing ? `User ${saved.accessKey} updated` : `User ${saved.accessKey} created`);
      onSaved(saved);
    });
  }
  return (
    <Dialog
      title={editing ? "Edit User" : "Create User"}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
      primary={{ label: "Save", submit: true, disabled: !ready || action.busy, onClick: save }}
    >
      <TextField label="Access Key" value={accessKey} onChange={setAccessKey} readOnly={editing} />
      <TextField
        label="Secret Key"
        type="password"
        value={secretKey}
        onChange={setSecretKey}
        autoComplete="new-password"
      />
      <div className="grid md:grid-cols-2 gap-4">
        <CheckList
          label="Assign Groups"
          options={groups}
          selected={selectedGroups}
          onChange={setGroups}
          emptyText="No Groups Available"
        />
        <CheckList
          label="Assign Policies"
          options={policies}
          selected={selectedPolicies}
          onChange={setPolicies}
          emptyText="No Policies Available"
        />
      </div>
      <Switch label={enabled ? "Enabled" : "Disabled"} checked={enabled} onChange={setEnabled} />
    </Dialog>
  );
}

export function SetGroupsDialog(
  { open, user, groups, onClose, onSaved }: {
    open: boolean;
    user: User;
    groups: string[];
    onClose: () => void;
    onSaved: (user: User) => void;
  },
) {
  const [selected, setSelected] = useState<string[]>(user.memberOf);
  const action = useDialogAction();
  return (
    <Dialog
      title="Set Groups"
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: action.busy,
        onClick: () =>
          action.run(async () =>
            onSaved(await usersApi.update(user.accessKey, { status: user.status, groups: selected }))
          ),
      }}
    >
      <CheckList
        label="Groups"
        options={groups}
        selected={selected}
        onChange={setSelected}
        emptyText="No Groups Available"
      />
    </Dialog>
  );
}

export function SetPoliciesDialog({ open, entity, entityType, current, policies, onClose, onSaved }: {
  open: boolean;
  entity: string;
  entityType: "user" | "group";
  current: string[];
  policies: string[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [selected, setSelected] = useState<string[]>(current);
  const action = useDialogAction();
  return (
    <Dialog
      title="Set Policies"
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: action.busy,
        onClick: () =>
          action.run(async () => (await usersApi.setPolicies(selected, entity, entityType), onSaved())),
      }}
    >
      <p className="text-sm mb-2">
        Selected {entityType}: <b>{entity}</b>
      </p>
      <CheckList
        label="Policies"
        options={policies}
        selected={selected}
        onChange={setSelected}
        emptyText="No Policies Available"
      />
    </Dialog>
  );
}

export function AddUsersToGroupDialog(
  { open, users, groups, onClose }: { open: boolean; users: string[]; groups: string[]; onClose: () => void },
) {
  const [selected, setSelected] = useState<string[]>([]);
  const [done, setDone] = useState(false);
  const action = useDialogAction();
  function save() {
    if (selected.length === 0) return action.setMessage({ message: NO_GROUP_SELECTED, type: "error" });
    action.run(async () => {
      await usersApi.addToGroups(users, selected);
      setDone(true);
    });
  }
  return (
    <Dialog
      title="Add Users to Group"
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={done
        ? { label: "Done", submit: true, onClick: onClose }
        : { label: "Save", submit: true, disabled: selected.length === 0 || action.busy, onClick: save }}
    >
      {done
        ? (
          <div data-testid="add-to-group-confirmation">
            <p className="mb-2">The following users were added to the selected groups.</p>
            <p className="font-bold text-sm">Groups</p>
            <ul className="list-disc ml-5 mb-2">{selected.map((g) => <li key={g}>{g}</li>)}</ul>
            <p className="font-bold text-sm">Users</p>
            <ul className="list-disc ml-5">{users.map((u) => <li key={u}>{u}</li>)}</ul>
          </div>
        )
        : (
          <CheckList
            label="Groups"
            options={groups}
            selected={selected}
            onChange={setSelected}
            emptyText="No Groups Available"
          />
        )}
    </Dialog>
  );
}
