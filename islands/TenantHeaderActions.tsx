/**
 * Tenant detail header actions (spec 3 §2.3b): Delete (typed name; 'Tenant Deleted', back to /tenants) and
 * Edit YAML (Save disabled when empty or saving; a refusal is shown inside the dialog).
 */
import { useEffect, useState } from "react";
import { operatorApi } from "./lib/api/operator.ts";
import { TypedDeleteDialog } from "./tenant/parts.tsx";
import { Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

export interface TenantHeaderActionsProps {
  namespace: string;
  name: string;
  base: string;
}

function EditYamlDialog(
  { namespace, name, onClose }: { namespace: string; name: string; onClose: () => void },
) {
  const [yaml, setYaml] = useState<string | null>(null);
  const action = useDialogAction();
  useEffect(() => {
    action.run(async () => setYaml(await operatorApi.yaml(namespace, name)));
  }, []);
  return (
    <Dialog
      title={t("operator.tenant.editYaml")}
      open
      wide
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: t("common.action.save"),
        disabled: !yaml?.trim() || action.busy,
        onClick: () =>
          action.run(async () => (await operatorApi.putYaml(namespace, name, yaml!), location.reload())),
      }}
    >
      {yaml === null
        ? <span role="status" className="loading loading-spinner" aria-label={t("operator.word.loading")} />
        : (
          <textarea
            className="textarea w-full font-mono text-xs h-[60vh] border-base-300"
            aria-label={t("operator.tenant.yamlLabel")}
            spellCheck={false}
            value={yaml}
            onChange={(e) => setYaml(e.target.value)}
          />
        )}
    </Dialog>
  );
}

export default function TenantHeaderActions({ namespace, name, base }: TenantHeaderActionsProps) {
  const [dialog, setDialog] = useState<"delete" | "yaml" | null>(null);
  return (
    <>
      <button type="button" className="btn btn-sm btn-error btn-outline" onClick={() => setDialog("delete")}>
        {t("common.action.delete")}
      </button>
      <button type="button" className="btn btn-sm" onClick={() => setDialog("yaml")}>
        {t("operator.tenant.editYaml")}
      </button>
      {dialog === "yaml"
        ? <EditYamlDialog namespace={namespace} name={name} onClose={() => setDialog(null)} />
        : null}
      <TypedDeleteDialog
        title={t("operator.tenants.deleteTitle")}
        name={name}
        open={dialog === "delete"}
        onClose={() => setDialog(null)}
        onDelete={async (typed) => {
          await operatorApi.deleteTenant(namespace, name, typed);
          location.assign(`${base}tenants?deleted=${encodeURIComponent(name)}`);
        }}
      >
        {tNode("operator.tenants.deleteConfirmShort", { name: <b>{name}</b> })}
      </TypedDeleteDialog>
    </>
  );
}
