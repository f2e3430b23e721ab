/**
 * A bucket's Access Audit (Policies tab; Users tab only when /users is allowed) and Access Rules (anonymous
 * prefix rules readonly/writeonly/readwrite: add, edit, delete). One island, two screens.
 */
import { useState } from "react";
import { bucketsApi } from "./lib/api/buckets.ts";
import { useList } from "./lib/use_list.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SelectField, Tabs, TextField } from "./ui/fields.tsx";
import { showErrorBanner, showSnackbar } from "./ui/notify.ts";

type Level = "readonly" | "writeonly" | "readwrite";
type Rule = { prefix: string; access: Level };
const LEVELS = [{ value: "readonly", label: "readonly" }, { value: "writeonly", label: "writeonly" }, { value: "readwrite", label: "readwrite" }] as const;

export type BucketAccessProps =
  | { view: "audit"; bucket: string; policies: string[]; users: string[]; showUsers: boolean; base: string }
  | { view: "rules"; bucket: string; rules: Rule[] };

export default function BucketAccess(props: BucketAccessProps) {
  return props.view === "audit" ? <AccessAudit {...props} /> : <AccessRules {...props} />;
}

function AccessAudit({ policies, users, showUsers, base }: Extract<BucketAccessProps, { view: "audit" }>) {
  const [tab, setTab] = useState<"policies" | "users">("policies");
  return (
    <>
      <Tabs active={tab} onChange={setTab} tabs={[{ id: "policies", label: "Policies" }, ...(showUsers ? [{ id: "users" as const, label: "Users" }] : [])]} />
      {tab === "policies"
        ? (
          <DataTable<string> entity="policies" rows={policies} rowId={(p) => p} columns={[{ id: "name", label: "Name", value: (p) => p, sortable: true }]}
            actions={[{ type: "view", href: (p) => `${base}policies/${encodeURIComponent(p)}` }]} />
        )
        : (
          <DataTable<string> entity="users" rows={users} rowId={(u) => u} columns={[{ id: "accessKey", label: "Access Key", value: (u) => u, sortable: true }]}
            actions={[{ type: "view", href: (u) => `${base}users/${encodeURIComponent(u)}` }]} />
        )}
    </>
  );
}

function RuleDialog({ bucket, rule, onClose }: { bucket: string; rule?: Rule; onClose: (changed: boolean) => void }) {
  const [prefix, setPrefix] = useState(rule?.prefix ?? "");
  const [access, setAccess] = useState<Level>(rule?.access ?? "readonly");
  const action = useDialogAction();
  async function save() {
    // Spec 2 §8: failures show an error and close the dialog.
    try {
      await bucketsApi.setAccessRule(bucket, prefix.trim(), access);
      showSnackbar(rule ? "Access rule updated" : "Access rule added");
    } catch (error) {
      showErrorBanner(error instanceof Error ? error.message : String(error));
    }
    onClose(true);
  }
  return (
    <Dialog title={rule ? "Edit Access Rule" : "Add Access Rule"} open onClose={() => onClose(false)} message={action.message} onMessageDone={action.clear}
      actions={<button type="button" className="btn btn-primary" disabled={prefix.trim() === ""} onClick={save}>Save</button>}>
      <TextField label="Prefix" value={prefix} onChange={setPrefix} readOnly={!!rule} />
      <SelectField label="Access" value={access} options={LEVELS} onChange={setAccess} />
    </Dialog>
  );
}

function AccessRules({ bucket, rules: initial }: Extract<BucketAccessProps, { view: "rules" }>) {
  const rules = useList(() => bucketsApi.accessRules(bucket), initial);
  const [dialog, setDialog] = useState<{ rule?: Rule } | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  return (
    <>
      <div className="flex justify-end mb-4">
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setDialog({})}>Add Access Rule</button>
      </div>
      <DataTable<Rule>
        entity="access rules"
        rows={rules.value}
        rowId={(r) => r.prefix}
        columns={[{ id: "prefix", label: "Prefix", value: (r) => r.prefix, sortable: true }, { id: "access", label: "Access", value: (r) => r.access }]}
        actions={[{ type: "view", label: "edit", onSelect: (rule) => setDialog({ rule }) }, { type: "delete", onSelect: setDeleting }]}
      />
      {dialog ? <RuleDialog bucket={bucket} rule={dialog.rule} onClose={(changed) => (setDialog(null), changed && rules.reload())} /> : null}
      <ConfirmDialog title="Delete Access Rule" open={deleting !== null} onClose={() => setDeleting(null)}
        onConfirm={async () => {
          try {
            await bucketsApi.deleteAccessRule(bucket, deleting!.prefix);
          } catch (error) {
            showErrorBanner(error instanceof Error ? error.message : String(error));
          }
          setDeleting(null);
          await rules.reload();
        }}>
        Are you sure you want to delete the access rule for <b>{deleting?.prefix}</b>?
      </ConfirmDialog>
    </>
  );
}
