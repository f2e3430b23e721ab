/**
 * User dialogs (spec 1): Create User / Edit User (groups, policies, enabled switch; access key read-only
 * when editing), Set Groups, Set Policies, and Add Users to Group with its confirmation listing groups and users.
 */
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";
import { useState } from "react";
import type { User } from "../../server/lib/contract/users.ts";
import { groupsApi } from "../lib/api/groups.ts";
import { policiesApi } from "../lib/api/policies.ts";
import { usersApi } from "../lib/api/users.ts";
import { useNames } from "../lib/use_list.ts";
import { showSnackbar } from "../lib/notify.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { CheckList, Switch, TextField } from "../ui/fields.tsx";
import { secretProblem } from "./PasswordDialogs.tsx";

export function UserDialog({ open, user, onClose, onSaved }: {
  open: boolean;
  /** Edit this user; omitted → create. */
  user?: User;
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const editing = !!user;
  const groups = useNames(groupsApi.list);
  const policies = useNames(policiesApi.names);
  const [accessKey, setAccessKey] = useState(user?.accessKey ?? "");
  const [secretKey, setSecretKey] = useState("");
  const [selectedGroups, setGroups] = useState<string[]>(user?.memberOf ?? []);
  const [selectedPolicies, setPolicies] = useState<string[]>(user?.policy ?? []);
  const [enabled, setEnabled] = useState(user ? user.status === "enabled" : true);
  const action = useDialogAction();
  const ready = accessKey.trim() !== "" && (editing || secretKey.trim() !== "");
  function save() {
    // Spec 1 §5: the submit step checks the secret field in both modes, so editing also sets a new secret.
    const problem = secretProblem(secretKey);
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
      showSnackbar(
        t(editing ? "iam.userDialog.updated" : "iam.userDialog.created", { name: saved.accessKey }),
      );
      onSaved(saved);
    });
  }
  return (
    <Dialog
      title={editing ? t("iam.userDialog.edit") : t("iam.users.create")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: !ready || action.busy,
        onClick: save,
      }}
    >
      <TextField
        label={t("iam.word.accessKey")}
        value={accessKey}
        onChange={setAccessKey}
        readOnly={editing}
      />
      <TextField
        label={t("iam.word.secretKey")}
        type="password"
        value={secretKey}
        onChange={setSecretKey}
        autoComplete="new-password"
      />
      <div className="grid md:grid-cols-2 gap-4">
        <CheckList
          label={t("iam.userDialog.assignGroups")}
          options={groups}
          selected={selectedGroups}
          onChange={setGroups}
          emptyText={t("iam.empty.groups")}
        />
        <CheckList
          label={t("iam.word.assignPolicies")}
          options={policies}
          selected={selectedPolicies}
          onChange={setPolicies}
          emptyText={t("iam.empty.policies")}
        />
      </div>
      <Switch
        label={enabled ? t("common.word.enabled") : t("common.word.disabled")}
        checked={enabled}
        onChange={setEnabled}
      />
    </Dialog>
  );
}

export function SetGroupsDialog(
  { open, user, groups: given, onClose, onSaved }: {
    open: boolean;
    user: User;
    /** The names to offer when the screen holds them already; read on opening otherwise. */
    groups?: string[];
    onClose: () => void;
    onSaved: (user: User) => void;
  },
) {
  const groups = useNames(groupsApi.list, given);
  const [selected, setSelected] = useState<string[]>(user.memberOf);
  const action = useDialogAction();
  return (
    <Dialog
      title={t("iam.userDialog.setGroups")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: action.busy,
        onClick: () =>
          action.run(async () =>
            onSaved(await usersApi.update(user.accessKey, { status: user.status, groups: selected }))
          ),
      }}
    >
      <CheckList
        label={t("iam.word.groups")}
        options={groups}
        selected={selected}
        onChange={setSelected}
        emptyText={t("iam.empty.groups")}
      />
    </Dialog>
  );
}

export function SetPoliciesDialog(
  { open, entity, entityType, current, policies: given, onClose, onSaved }: {
    open: boolean;
    entity: string;
    entityType: "user" | "group";
    current: string[];
    /** The names to offer when the screen holds them already; read on opening otherwise. */
    policies?: string[];
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const policies = useNames(policiesApi.names, given);
  const [selected, setSelected] = useState<string[]>(current);
  const action = useDialogAction();
  return (
    <Dialog
      title={t("iam.userDialog.setPolicies")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: action.busy,
        onClick: () =>
          action.run(async () => (await usersApi.setPolicies(selected, entity, entityType), onSaved())),
      }}
    >
      <p className="text-sm mb-2">
        {tNode(entityType === "user" ? "iam.userDialog.selectedUser" : "iam.userDialog.selectedGroup", {
          name: <b>{entity}</b>,
        })}
      </p>
      <CheckList
        label={t("iam.word.policies")}
        options={policies}
        selected={selected}
        onChange={setSelected}
        emptyText={t("iam.empty.policies")}
      />
    </Dialog>
  );
}

export function AddUsersToGroupDialog(
  { open, users, onClose }: { open: boolean; users: string[]; onClose: () => void },
) {
  const groups = useNames(groupsApi.list);
  const [selected, setSelected] = useState<string[]>([]);
  const [done, setDone] = useState(false);
  const action = useDialogAction();
  function save() {
    if (selected.length === 0) {
      return action.setMessage({ message: t("iam.userDialog.noGroupSelected"), type: "error" });
    }
    action.run(async () => {
      await usersApi.addToGroups(users, selected);
      setDone(true);
    });
  }
  return (
    <Dialog
      title={t("iam.userDialog.addUsersToGroup")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={done ? { label: t("common.action.done"), submit: true, onClick: onClose } : {
        label: t("common.action.save"),
        submit: true,
        disabled: selected.length === 0 || action.busy,
        onClick: save,
      }}
    >
      {done
        ? (
          <div data-testid="add-to-group-confirmation">
            <p className="mb-2">{t("iam.userDialog.added")}</p>
            <p className="font-bold text-sm">{t("iam.word.groups")}</p>
            <ul className="list-disc ml-5 mb-2">{selected.map((g) => <li key={g}>{g}</li>)}</ul>
            <p className="font-bold text-sm">{t("iam.word.users")}</p>
            <ul className="list-disc ml-5">{users.map((u) => <li key={u}>{u}</li>)}</ul>
          </div>
        )
        : (
          <CheckList
            label={t("iam.word.groups")}
            options={groups}
            selected={selected}
            onChange={setSelected}
            emptyText={t("iam.empty.groups")}
          />
        )}
    </Dialog>
  );
}
