/**
 * /users (spec 1 Users): search, Create User, Add to Group (enabled with at least one ticked user), a table
 * sortable by access key with selectable rows, view, edit (the Edit User dialog, read fresh from the server)
 * and delete (disabled for the signed-in user).
 */
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";
import { useState } from "react";
import type { User } from "../server/lib/contract/users.ts";
import { AddUsersToGroupDialog, UserDialog } from "./dialogs/UserDialogs.tsx";
import { usersApi } from "./lib/api/users.ts";
import { useCommand } from "./lib/commands.ts";
import { reportError, useList } from "./lib/use_list.ts";
import { ConfirmDialog } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";

export interface UsersListProps {
  users: User[];
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
  signedInAs: string;
  /** The console's base path ("/" or the subpath), for ordinary links. */
  base: string;
}

export default function UsersList(
  { users: initial, unavailable, signedInAs, base }: UsersListProps,
) {
  const users = useList(usersApi.list, initial);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<"create" | "groups" | null>(null);
  useCommand("create-user", () => setDialog("create"));
  const [deleting, setDeleting] = useState<User | null>(null);
  const [editing, setEditing] = useState<User | null>(null);
  const edit = async (row: User) => {
    try {
      setEditing(await usersApi.get(row.accessKey));
    } catch (error) {
      reportError(error);
    }
  };
  const shown = users.value.filter((u) => u.accessKey.toLowerCase().includes(filter.toLowerCase()));
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("iam.users.search")} value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          <button
            type="button"
            className="btn btn-sm"
            disabled={selected.length === 0}
            onClick={() => setDialog("groups")}
          >
            {t("iam.users.addToGroup")}
          </button>
          <button type="button" className="btn btn-sm btn-primary" onClick={() => setDialog("create")}>
            {t("iam.users.create")}
          </button>
        </div>
      </div>
      <DataTable<User>
        entity={t("iam.entity.users")}
        id="users"
        rows={shown}
        rowId={(u) => u.accessKey}
        columns={[
          { id: "accessKey", label: t("iam.word.accessKey"), value: (u) => u.accessKey, sortable: true },
          {
            id: "status",
            label: t("common.word.status"),
            value: (u) => (u.status === "enabled" ? t("common.word.enabled") : t("common.word.disabled")),
          },
          { id: "memberOf", label: t("iam.word.groups"), value: (u) => u.memberOf.join(", ") },
          { id: "policy", label: t("iam.word.policies"), value: (u) => u.policy.join(", ") },
        ]}
        initialSort={{ id: "accessKey" }}
        columnPicker
        selection="checkbox"
        selected={selected}
        onSelectionChange={setSelected}
        emptyMessage={t("iam.empty.users")}
        unavailable={unavailable}
        filtered={filter !== ""}
        actions={[
          { type: "view", href: (u) => `${base}users/${encodeURIComponent(u.accessKey)}` },
          { type: "edit", onSelect: edit },
          { type: "delete", onSelect: setDeleting, disabled: (u) => u.accessKey === signedInAs },
        ]}
      />
      {dialog === "create"
        ? (
          <UserDialog
            open
            onClose={() => setDialog(null)}
            onSaved={() => (setDialog(null), users.reload())}
          />
        )
        : null}
      {editing
        ? (
          <UserDialog
            open
            user={editing}
            onClose={() => setEditing(null)}
            onSaved={() => (setEditing(null), users.reload())}
          />
        )
        : null}
      {dialog === "groups"
        ? (
          <AddUsersToGroupDialog
            open
            users={selected}
            onClose={() => (setDialog(null), setSelected([]), users.reload())}
          />
        )
        : null}
      <ConfirmDialog
        title={t("iam.users.delete")}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await usersApi.remove(deleting!.accessKey);
          showSnackbar(t("iam.users.deleted", { name: deleting!.accessKey }));
          setDeleting(null);
          setSelected((s) => s.filter((id) => id !== deleting!.accessKey));
          await users.reload();
        }}
      >
        {tNode("iam.users.deleteConfirm", { name: <b>{deleting?.accessKey}</b> })}
      </ConfirmDialog>
    </>
  );
}
