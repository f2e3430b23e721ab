/**
 * Name Tenant page (spec 3 §2.3): name, namespace, storage class and the Advanced mode switch. 500 ms after
 * the namespace changes it checks for existing tenants (one per namespace), then loads the namespace's
 * storage quota into the class list; when that fails, an icon offers to create the namespace.
 */
import { useEffect, useRef, useState } from "react";
import { isNamespaceName, storageClassesFromQuota } from "../../server/lib/contract/operator_rules.ts";
import { operatorApi } from "../lib/api/operator.ts";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";
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
        error: t("wizard.name.invalidNamespace"),
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
            error: t("wizard.name.oneTenantPerNamespace"),
            classes: [],
          });
        }
      } catch (error) {
        if (stale()) return;
        const detail = error instanceof ApiClientError ? error.detail || error.message : String(error);
        return patch("namespaceCheck", {
          status: "error",
          error: t("wizard.name.namespaceCheckFailed", { detail }),
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
      <h2 className="text-lg font-bold mb-1">{t("wizard.steps.nameTenant")}</h2>
      <p className="text-sm text-base-content/70 mb-4">{t("wizard.name.intro")}</p>
      <Switch
        label={t("wizard.name.advancedMode")}
        checked={state.advanced}
        onChange={(advanced) => patch("advanced", advanced as never)}
        description={t("wizard.name.advancedModeHelp")}
      />
      <TextField
        label={t("common.word.name")}
        value={state.name.tenantName}
        onChange={(tenantName) => patch("name", { tenantName })}
        error={errors.tenantName}
      />
      <div className="flex items-start gap-2">
        <div className="flex-1">
          <TextField
            label={t("wizard.word.namespace")}
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
              aria-label={t("wizard.name.createNamespace")}
              title={t("wizard.name.createNamespace")}
            >
              {t("wizard.name.addNamespace")}
            </button>
          )
          : null}
        {check.status === "checking"
          ? (
            <span
              role="status"
              className="loading loading-spinner loading-sm mt-9"
              aria-label={t("wizard.name.checkingNamespace")}
            />
          )
          : null}
      </div>
      <SelectField
        label={t("wizard.word.storageClass")}
        value={state.name.storageClass}
        options={check.classes.length
          ? check.classes.map((c) => ({ value: c.name, label: c.name }))
          : [{ value: "", label: t("wizard.name.selectNamespaceFirst") }]}
        onChange={(storageClass) => patch("name", { storageClass })}
        disabled={check.classes.length === 0}
      />
      <ConfirmDialog
        title={t("wizard.name.createNamespace")}
        open={creating}
        confirmLabel={t("common.action.create")}
        onClose={() => setCreating(false)}
        onConfirm={async () => {
          await operatorApi.createNamespace(namespace);
          setCreating(false);
          setRecheck((n) => n + 1);
        }}
      >
        {tNode("wizard.name.confirmCreateNamespace", { namespace: <b>{namespace}</b> })}
      </ConfirmDialog>
    </div>
  );
}
