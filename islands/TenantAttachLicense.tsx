/**
 * The tenant License tab's 'Attach License' button (spec 3 §2.3b): hands the subscription in force to this
 * tenant (POST /subscription/namespaces/{ns}/tenants/{t}/activate), then reloads the tab, which shows the
 * tenant's licence. A refusal is shown in the error banner; the button is disabled while the call runs.
 */
import { useState } from "react";
import { operatorApi } from "./lib/api/operator.ts";
import { ApiClientError } from "./lib/request.ts";
import { showErrorBanner } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";

export interface TenantAttachLicenseProps {
  namespace: string;
  name: string;
}

export default function TenantAttachLicense({ namespace, name }: TenantAttachLicenseProps) {
  const [busy, setBusy] = useState(false);
  const attach = async () => {
    setBusy(true);
    try {
      await operatorApi.attachLicense(namespace, name);
      location.reload();
    } catch (error) {
      if (error instanceof ApiClientError) showErrorBanner(error.message, error.detail);
      else showErrorBanner(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={attach}>
      {t("operator.license.attach")}
    </button>
  );
}
