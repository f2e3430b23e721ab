/**
 * A bucket's Access Audit (Policies tab; Users tab only when /users is allowed) and Access Rules (anonymous
 * prefix rules readonly/writeonly/readwrite: add, edit, delete). One island, two screens.
 */
import { useState } from "react";
import { accessRuleExists } from "../server/lib/contract/buckets.ts";
import { bucketsApi } from "./lib/api/buckets.ts";
import { ApiClientError } from "./lib/request.ts";
import { useList } from "./lib/use_list.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SelectField, Tabs, TextField } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";

type Level = "readonly" | "writeonly" | "readwrite";
type Rule = { prefix: string; access: Level };
const LEVELS = [{ value: "readonly", label: "readonly" }, { value: "writeonly", label: "writeonly" }, {
  value: "readwrite",
  label: "readwrite",
}] as const;

export type BucketAccessProps =
  | {
    view: "audit";
    bucket: string;
    policies: string[];
    users: string[];
    unavailable?: { policies?: string; users?: string };
    showUsers: boolean;
    base: string;
  }
  | { view: "rules"; bucket: string; rules: Rule[]; unavailable?: string };

export default function BucketAccess(props: BucketAccessProps) {
  return props.view === "audit" ? <AccessAudit {...props} /> : <AccessRules {...props} />;
}

function AccessAudit(
  { policies, users, unavailable, showUsers, base }: Extract<BucketAccessProps, { view: "audit" }>,
) {
  const [tab, setTab] = useState<"policies" | "users">("policies");
  return (
    <>
      <Tabs
        active={tab}
        onChange={setTab}
        tabs={[
          { id: "policies", label: "Policies" },
          ...(showUsers ? [{ id: "users" as const, label: "Users" }] : []),
        ]}
      />
      {tab === "policies"
        ? (
          <DataTable<string>
            entity="policies"
            rows={policies}
            rowId={(p) => p}
            columns={[{ id: "name", label: "Name", value: (p) => p, sortable: true }]}
            unavailable={unavailable?.policies}
            actions={[{
              type: "view",
              href: (p) => `${base}policies/${encodeURIComponent(p)}`,
            }]}
          />
        )
        : (
          <DataTable<string>
            entity="users"
            rows={users}
            rowId={(u) => u}
            columns={[{ id: "accessKey", label: "Access Key", value: (u) => u, sortable: true }]}
            unavailable={unavailable?.users}
            actions={[{
              type: "view",
              href: (u) => `${base}users/${encodeURIComponent(u)}`,
            }]}
          />
        )}
    </>
  );
}

/** Spec 2 §8: access-rule failures show an error (an error snackbar) and close the dialog. */
function reportRuleError(error: unknown): void {
  if (error instanceof ApiClientError) showSnackbar(error.message, "error", error.detail);
  else showSnackbar(error instanceof Error ? error.message : String(error), "error");
}

function RuleDialog(
  { bucket, rule, existing, onClose }: {
    bucket: string;
    rule?: Rule;
    existing: Rule[];
    onClose: (changed: boolean) => void;
  },
) {
  const [prefix, setPrefix] = useState(rule?.prefix ?? "");
  const [access, setAccess] = useState<Level>(rule?.access ?? "readonly");
  const action = useDialogAction();
  // Adding never overwrites: a prefix with a rule is refused here, and by the server if it appeared meanwhile.
  const taken = rule ? undefined : existing.find((r) => r.prefix === prefix.trim());
  async function save() {
    try {
      await bucketsApi.setAccessRule(bucket, prefix.trim(), access, !!rule);
      showSnackbar(rule ? "Access rule updated" : "Access rule added");
    } catch (error) {
      reportRuleError(error);
    }
    onClose(true);
  }
  return (
    <Dialog
      title={rule ? "Edit Access Rule" : "Add Access Rule"}
      open
      onClose={() => onClose(false)}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{ label: "Save", submit: true, disabled: prefix.trim() === "" || !!taken, onClick: save }}
    >
      <TextField
        label="Prefix"
        value={prefix}
        onChange={setPrefix}
        readOnly={!!rule}
        error={taken ? accessRuleExists(taken.prefix, taken.access) : undefined}
      />
      <SelectField label="Access" value={access} options={LEVELS} onChange={setAccess} />
    </Dialog>
  );
}

function AccessRules({ bucket, rules: initial, unavailable }: Extract<BucketAccessProps, { view: "rules" }>) {
  const rules = useList(() => bucketsApi.accessRules(bucket), initial);
  const [dialog, setDialog] = useState<{ rule?: Rule } | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  return (
    <>
      <div className="flex justify-end mb-4">
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setDialog({})}>
          Add Access Rule
        </button>
      </div>
      <DataTable<Rule>
        entity="access rules"
        rows={rules.value}
        rowId={(r) => r.prefix}
        columns={[{ id: "prefix", label: "Prefix", value: (r) => r.prefix, sortable: true }, {
          id: "access",
          label: "Access",
          value: (r) => r.access,
        }]}
        unavailable={unavailable}
        actions={[{ type: "view", label: "edit", onSelect: (rule) => setDialog({ rule }) }, {
          type: "delete",
          onSelect: setDeleting,
        }]}
      />
      {dialog
        ? (
          <RuleDialog
            bucket={bucket}
            rule={dialog.rule}
            existing={rules.value}
            onClose={(changed) => (setDialog(null), changed && rules.reload())}
          />
        )
        : null}
      <ConfirmDialog
        title="Delete Access Rule"
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          try {
            await bucketsApi.deleteAccessRule(bucket, deleting!.prefix);
            showSnackbar("Access rule deleted");
          } catch (error) {
            reportRuleError(error);
          }
          setDeleting(null);
          await rules.reload();
        }}
      >
        Are you sure you want to delete the access rule for <b>{deleting?.prefix}</b>?
      </ConfirmDialog>
    </>
  );
}
