/**
 * A bucket's Access Audit (Policies tab; Users tab only when /users is allowed) and Access Rules (anonymous
 * prefix rules readonly/writeonly/readwrite: add, edit, delete). One island, two screens.
 */
import { useState } from "react";
import { bucketsApi } from "./lib/api/buckets.ts";
import { ApiClientError } from "./lib/request.ts";
import { useList } from "./lib/use_list.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SelectField, Tabs, TextField } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { accessRuleExistsMessage } from "./lib/bucket_texts.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

type Level = "readonly" | "writeonly" | "readwrite";
type Rule = { prefix: string; access: Level };
// MinIO's names of the levels (as `mc anonymous` takes them): the same in every language.
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
          { id: "policies", label: t("buckets.access.policies") },
          ...(showUsers ? [{ id: "users" as const, label: t("buckets.access.users") }] : []),
        ]}
      />
      {tab === "policies"
        ? (
          <DataTable<string>
            entity={t("buckets.entity.policies")}
            id="policies"
            rows={policies}
            rowId={(p) => p}
            columns={[{ id: "name", label: t("common.word.name"), value: (p) => p, sortable: true }]}
            unavailable={unavailable?.policies}
            actions={[{
              type: "view",
              href: (p) => `${base}policies/${encodeURIComponent(p)}`,
            }]}
          />
        )
        : (
          <DataTable<string>
            entity={t("buckets.entity.users")}
            id="users"
            rows={users}
            rowId={(u) => u}
            columns={[{
              id: "accessKey",
              label: t("buckets.access.accessKey"),
              value: (u) => u,
              sortable: true,
            }]}
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
      showSnackbar(rule ? t("buckets.accessRules.updated") : t("buckets.accessRules.added"));
    } catch (error) {
      reportRuleError(error);
    }
    onClose(true);
  }
  return (
    <Dialog
      title={rule ? t("buckets.accessRules.editTitle") : t("buckets.accessRules.add")}
      open
      onClose={() => onClose(false)}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: prefix.trim() === "" || !!taken,
        onClick: save,
      }}
    >
      <TextField
        label={t("buckets.accessRules.prefix")}
        value={prefix}
        onChange={setPrefix}
        readOnly={!!rule}
        error={taken ? accessRuleExistsMessage(taken.prefix, taken.access) : undefined}
      />
      <SelectField
        label={t("buckets.accessRules.access")}
        value={access}
        options={LEVELS}
        onChange={setAccess}
      />
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
          {t("buckets.accessRules.add")}
        </button>
      </div>
      <DataTable<Rule>
        entity={t("buckets.entity.accessRules")}
        id="access rules"
        rows={rules.value}
        rowId={(r) => r.prefix}
        columns={[{
          id: "prefix",
          label: t("buckets.accessRules.prefix"),
          value: (r) => r.prefix,
          sortable: true,
        }, {
          id: "access",
          label: t("buckets.accessRules.access"),
          value: (r) => r.access,
        }]}
        unavailable={unavailable}
        actions={[{
          type: "view",
          label: t("buckets.accessRules.edit"),
          onSelect: (rule) => setDialog({ rule }),
        }, {
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
        title={t("buckets.accessRules.deleteTitle")}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          try {
            await bucketsApi.deleteAccessRule(bucket, deleting!.prefix);
            showSnackbar(t("buckets.accessRules.deleted"));
          } catch (error) {
            reportRuleError(error);
          }
          setDeleting(null);
          await rules.reload();
        }}
      >
        {tNode("buckets.accessRules.deleteConfirm", { prefix: <b translate="no">{deleting?.prefix}</b> })}
      </ConfirmDialog>
    </>
  );
}
