/** /groups (spec 1 Groups): 'Search Groups', 'Create Group', a one-column table; view (edit), description, delete. */
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";
import { useState } from "react";
import type { Group } from "../server/lib/contract/groups.ts";
import { GroupDialog, GroupInfoDialog } from "./dialogs/GroupDialogs.tsx";
import { SetPoliciesDialog } from "./dialogs/UserDialogs.tsx";
import { groupsApi } from "./lib/api/groups.ts";
import { useCommand } from "./lib/commands.ts";
import { reportError, useList } from "./lib/use_list.ts";
import { ConfirmDialog } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";

export interface GroupsListProps {
  groups: string[];
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
}

export default function GroupsList({ groups: initial, unavailable }: GroupsListProps) {
  const groups = useList(groupsApi.list, initial);
  const [filter, setFilter] = useState("");
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Group | null>(null);
  const [info, setInfo] = useState<Group | null>(null);
  const [policyOf, setPolicyOf] = useState<Group | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const open = (then: (g: Group) => void) => async (name: string) => {
    try {
      then(await groupsApi.get(name));
    } catch (error) {
      reportError(error);
    }
  };
  // The command palette jumps to a group: its Edit Group dialog, as the row's view action opens.
  useCommand("open-group", (name) => void open(setEditing)(name));
  const shown = groups.value.filter((g) => g.toLowerCase().includes(filter.toLowerCase()));
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("iam.groups.search")} value={filter} onChange={setFilter} />
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setCreating(true)}>
          {t("iam.groups.create")}
        </button>
      </div>
      <DataTable<string>
        entity={t("iam.entity.groups")}
        id="groups"
        rows={shown}
        rowId={(g) => g}
        columns={[{ id: "name", label: t("common.word.name"), value: (g) => g, sortable: true }]}
        initialSort={{ id: "name" }}
        emptyMessage={t("iam.empty.groups")}
        unavailable={unavailable}
        filtered={filter !== ""}
        actions={[
          { type: "view", label: t("iam.groups.actionEdit"), onSelect: open(setEditing) },
          { type: "description", onSelect: open(setInfo) },
          { type: "edit", label: t("iam.groups.actionSetPolicies"), onSelect: open(setPolicyOf) },
          { type: "delete", onSelect: setDeleting },
        ]}
      />
      {creating
        ? (
          <GroupDialog
            open
            onClose={() => setCreating(false)}
            onSaved={() => (setCreating(false), groups.reload())}
          />
        )
        : null}
      {editing
        ? (
          <GroupDialog
            open
            group={editing}
            onClose={() => setEditing(null)}
            onSaved={() => (setEditing(null), groups.reload())}
          />
        )
        : null}
      {policyOf
        ? (
          <SetPoliciesDialog
            open
            entity={policyOf.name}
            entityType="group"
            current={policyOf.policy.split(",").filter(Boolean)}
            onClose={() => setPolicyOf(null)}
            onSaved={() => (showSnackbar(t("iam.groups.policiesSet", { name: policyOf.name })),
              setPolicyOf(null))}
          />
        )
        : null}
      <GroupInfoDialog group={info} onClose={() => setInfo(null)} />
      <ConfirmDialog
        title={t("iam.groups.delete")}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await groupsApi.remove(deleting!);
          showSnackbar(t("iam.groups.deleted", { name: deleting! }));
          setDeleting(null);
          await groups.reload();
        }}
      >
        {tNode("iam.groups.deleteConfirm", { name: <b>{deleting}</b> })}
      </ConfirmDialog>
    </>
  );
}
