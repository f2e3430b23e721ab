/**
 * Name Tenant page (spec 3 §2.3): name, namespace, storage class and the Advanced mode switch. 500 ms after
 * the namespace changes it checks for existing tenants (one per namespace), then loads the namespace's
 * storage quota into the class list; when that fails, an icon offers to create the namespace.
 */
import { useEffect, useRef, useState } from "react";
import { isNamespaceName, storageClassesFromQuota } from "../../server/lib/contract/operator_rules.ts";
import { operatorApi } from "../lib/api/operator.ts";
import { ApiClientError } from "../lib/request.ts";
import { ConfirmDialog } from "../ui/Dialog.tsx";
import { SelectField, Switch, TextField } from "../ui/fields.tsx";
import { nameErrors } from "./rules.ts";
import type { WizardState } from "./state.ts";

export interface PageProps {
  state: WizardState;
  patch: <K extends keyof WizardState>(section: K, value: Partial<WizardState[K]>) => void;
}

export function NameTenant({ state, patch }: PageProps) {
  const namespace = state.name.namespace;
  const [creating, setCreating] = useState(false);
  const [recheck, setRecheck] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const ticket = ++latest.current;
    if (!namespace) {
      return patch("namespaceCheck", { status: "idle", error: "", classes: [], canCreateNamespace: false });
    }
    if (!isNamespaceName(namespace)) {
      return patch("namespaceCheck", {
        status: "error",
        error: "Please enter a valid namespace",
        classes: [],
        canCreateNamespace: false,
      });
    }
    patch("namespaceCheck", { status: "checking", error: "", canCreateNamespace: false });
    const timer = setTimeout(async () => {
      const stale = () => ticket !== latest.current;
      try {
        const existing = await operatorApi.namespaceTenants(namespace);
        if (stale()) return;
        if ((existing.tenants ?? []).length > 0) {
          return patch("namespaceCheck", {
            status: "error",
            error: "You can only create one tenant per namespace",
            classes: [],
          });
        }
      } catch (error) {
        if (stale()) return;
        const detail = error instanceof ApiClientError ? error.detail || error.message : String(error);
        return patch("namespaceCheck", {
          status: "error",
          error: `Error validating if namespace already has tenants: ${detail}`,
          classes: [],
        });
      }
      try {
        const quota = await operatorApi.quota(namespace);
        if (stale()) return;
        const classes = storageClassesFromQuota(quota.elements ?? []);
        patch("namespaceCheck", { status: "ok", error: "", classes, canCreateNamespace: false });
        patch("name", { storageClass: classes[0]?.name ?? "" });
      } catch (error) {
        if (stale()) return;
        // Spec 3 §8: a quota failure is only logged; the namespace may simply not exist yet.
        console.warn("storage quota unavailable", error);
        patch("namespaceCheck", { status: "idle", error: "", classes: [], canCreateNamespace: true });
      }
    }, 500);
    return () => clearTimeout(timer);
  }, [namespace, recheck]);

  const errors = nameErrors(state);
  const check = state.namespaceCheck;
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">Name Tenant</h2>
      <p className="text-sm text-base-content/70 mb-4">How would you like to name this new tenant?</p>
      <Switch
        label="Advanced Mode"
        checked={state.advanced}
        onChange={(advanced) => patch("advanced", advanced as never)}
        description="Configure images, affinity, identity, security and encryption"
      />
      <TextField
        label="Name"
        value={state.name.tenantName}
        onChange={(tenantName) => patch("name", { tenantName })}
        error={errors.tenantName}
      />
      <div className="flex items-start gap-2">
        <div className="flex-1">
          <TextField
            label="Namespace"
            value={namespace}
            onChange={(ns) => patch("name", { namespace: ns.trim(), storageClass: "" })}
            error={errors.namespace}
          />
        </div>
        {check.canCreateNamespace
          ? (
            <button
              type="button"
              className="btn btn-sm btn-outline mt-7"
              onClick={() => setCreating(true)}
              aria-label="Create namespace"
              title="Create namespace"
            >
              + Namespace
            </button>
          )
          : null}
        {check.status === "checking"
          ? (
            <span
              role="status"
              className="loading loading-spinner loading-sm mt-9"
              aria-label="Checking namespace"
            />
          )
          : null}
      </div>
      <SelectField
        label="Storage Class"
        value={state.name.storageClass}
        options={check.classes.length
          ? check.classes.map((c) => ({ value: c.name, label: c.name }))
          : [{ value: "", label: "Select a namespace first" }]}
        onChange={(storageClass) => patch("name", { storageClass })}
        disabled={check.classes.length === 0}
      />
      <ConfirmDialog
        title="Create namespace"
        open={creating}
        confirmLabel="Create"
        onClose={() => setCreating(false)}
        onConfirm={async () => {
          await operatorApi.createNamespace(namespace);
          setCreating(false);
          setRecheck((n) => n + 1);
        }}
      >
        Are you sure you want to create namespace <b>{namespace}</b>?
      </ConfirmDialog>
    </div>
  );
}
