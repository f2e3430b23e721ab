/**
 * /policies (spec 2 IAM Policies): 'Search Policies', 'Create Policy', table sorted by name; view, delete, and
 * description, which opens Info Policy (the policy's JSON, read-only) without leaving the list.
 */
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";
import { useState } from "react";
import type { PolicySummary } from "../server/lib/contract/policies.ts";
import { CreatePolicyDialog, PolicyInfoDialog } from "./dialogs/PolicyDialogs.tsx";
import { policiesApi } from "./lib/api/policies.ts";
import { reportError, useList } from "./lib/use_list.ts";
import { ConfirmDialog } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";

export interface PoliciesListProps {
  policies: string[];
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
  base: string;
}

export default function PoliciesList({ policies: initial, unavailable, base }: PoliciesListProps) {
  const policies = useList(async () => (await policiesApi.list()).map((p) => p.name), initial);
  const [filter, setFilter] = useState("");
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [info, setInfo] = useState<PolicySummary | null>(null);
  const showInfo = async (name: string) => {
    try {
      setInfo(await policiesApi.get(name));
    } catch (error) {
      reportError(error);
    }
  };
  const shown = policies.value.filter((p) => p.toLowerCase().includes(filter.toLowerCase()));
  const detail = (name: string) => `${base}policies/${encodeURIComponent(name)}`;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("iam.policies.search")} value={filter} onChange={setFilter} />
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setCreating(true)}>
          {t("iam.policies.create")}
        </button>
      </div>
      <DataTable<string>
        entity={t("iam.entity.policies")}
        id="policies"
        rows={shown}
        rowId={(p) => p}
        columns={[{ id: "name", label: t("common.word.name"), value: (p) => p, sortable: true }]}
        initialSort={{ id: "name" }}
        unavailable={unavailable}
        filtered={filter !== ""}
        actions={[{ type: "view", href: detail }, { type: "description", onSelect: showInfo }, {
          type: "delete",
          onSelect: setDeleting,
        }]}
      />
      {creating
        ? (
          <CreatePolicyDialog
            open
            existing={policies.value}
            onClose={() => setCreating(false)}
            onSaved={(name) => location.assign(detail(name))}
          />
        )
        : null}
      <PolicyInfoDialog policy={info} onClose={() => setInfo(null)} />
      <ConfirmDialog
        title={t("iam.policies.delete")}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await policiesApi.remove(deleting!);
          showSnackbar(t("iam.policies.deleted", { name: deleting! }));
          setDeleting(null);
          await policies.reload();
        }}
      >
        {tNode("iam.policies.deleteConfirm", { name: <b>{deleting}</b> })}
      </ConfirmDialog>
    </>
  );
}
