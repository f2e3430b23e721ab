/**
 * Tenant detail header actions (spec 3 §2.3b): Delete (typed name; 'Tenant Deleted', back to /tenants) and
 * Edit YAML (Save disabled when empty or saving; a refusal is shown inside the dialog).
 */
import { useEffect, useState } from "react";
import { operatorApi } from "./lib/api/operator.ts";
import { TypedDeleteDialog } from "./tenant/parts.tsx";
import { Dialog, useDialogAction } from "./ui/Dialog.tsx";

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
      title="Edit YAML"
      open
      wide
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: "Save",
        disabled: !yaml?.trim() || action.busy,
        onClick: () =>
          action.run(async () => (await operatorApi.putYaml(namespace, name, yaml!), location.reload())),
      }}
    >
      {yaml === null
        ? <span role="status" className="loading loading-spinner" aria-label="Loading" />
        : (
          <textarea
            className="textarea w-full font-mono text-xs h-[60vh] border-base-300"
            aria-label="Tenant YAML"
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
        Delete
      </button>
      <button type="button" className="btn btn-sm" onClick={() => setDialog("yaml")}>Edit YAML</button>
      {dialog === "yaml"
        ? <EditYamlDialog namespace={namespace} name={name} onClose={() => setDialog(null)} />
        : null}
      <TypedDeleteDialog
        title="Delete Tenant"
        name={name}
        open={dialog === "delete"}
        onClose={() => setDialog(null)}
        onDelete={async (typed) => {
          await operatorApi.deleteTenant(namespace, name, typed);
          location.assign(`${base}tenants?deleted=${encodeURIComponent(name)}`);
        }}
      >
        Are you sure you want to delete tenant <b>{name}</b>?
      </TypedDeleteDialog>
    </>
  );
}
