/**
 * Create New Tenant (spec 3 §2.3): Name Tenant, then in advanced mode Configure, Pod Affinity, Identity
 * Provider, Security and Encryption, then Tenant Size and Preview. Next only when the page is valid; Create
 * shows progress and is disabled while it runs; the credentials are shown once, and closing goes back to the
 * tenants list.
 */
import { useState } from "react";
import type { CreateTenantResponse } from "../server/lib/contract/operator.ts";
import { operatorApi } from "./lib/api/operator.ts";
import { Configure } from "./tenant_wizard/Configure.tsx";
import { Encryption } from "./tenant_wizard/Encryption.tsx";
import { IdentityProvider } from "./tenant_wizard/IdentityProvider.tsx";
import { NameTenant } from "./tenant_wizard/NameTenant.tsx";
import { PodAffinity } from "./tenant_wizard/PodAffinity.tsx";
import { Preview } from "./tenant_wizard/Preview.tsx";
import { Security } from "./tenant_wizard/Security.tsx";
import { buildPayload } from "./tenant_wizard/payload.ts";
import {
  affinityErrors,
  computeSize,
  configureErrors,
  encryptionErrors,
  idpErrors,
  nameValid,
  securityValid,
  type SizeFacts,
} from "./tenant_wizard/rules.ts";
import { initialState, type WizardState } from "./tenant_wizard/state.ts";
import { TenantSize } from "./tenant_wizard/TenantSize.tsx";
import { Dialog, type DialogMessage, errorMessage, MessageBar } from "./ui/Dialog.tsx";
import { Wizard, type WizardStep } from "./ui/Wizard.tsx";
import { t } from "./lib/i18n/t.ts";

export interface TenantWizardProps {
  base: string;
}

export default function TenantWizard({ base }: TenantWizardProps) {
  const [state, setState] = useState<WizardState>(initialState);
  const [facts, setFacts] = useState<SizeFacts>({
    maxMemory: null,
    memoryLookupError: "",
    parityChoices: [],
    parityError: "",
  });
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<DialogMessage | null>(null);
  const [created, setCreated] = useState<CreateTenantResponse | null>(null);
  const patch = <K extends keyof WizardState>(section: K, value: Partial<WizardState[K]>) =>
    setState((s) => ({
      ...s,
      [section]: typeof value === "object" && value !== null && !Array.isArray(value)
        ? { ...(s[section] as object), ...value }
        : value,
    }));
  const page = { state, patch };
  const size = computeSize(state, facts);
  const empty = (errors: Record<string, string>) => Object.keys(errors).length === 0;

  async function create() {
    setCreating(true);
    setFailure(null);
    try {
      setCreated(await operatorApi.createTenant(buildPayload(state, size)));
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setCreating(false);
    }
  }

  const steps: (WizardStep & { advancedOnly?: boolean })[] = [
    { title: t("wizard.steps.nameTenant"), content: <NameTenant {...page} />, isValid: nameValid(state) },
    {
      title: t("wizard.steps.configure"),
      content: <Configure {...page} />,
      isValid: empty(configureErrors(state)),
      advancedOnly: true,
    },
    {
      title: t("wizard.steps.podAffinity"),
      content: <PodAffinity {...page} />,
      isValid: empty(affinityErrors(state)),
      advancedOnly: true,
    },
    {
      title: t("wizard.steps.identityProvider"),
      content: <IdentityProvider {...page} />,
      isValid: empty(idpErrors(state)),
      advancedOnly: true,
    },
    {
      title: t("wizard.steps.security"),
      content: <Security {...page} />,
      isValid: securityValid(state),
      advancedOnly: true,
    },
    {
      title: t("wizard.steps.encryption"),
      content: <Encryption {...page} />,
      isValid: empty(encryptionErrors(state)),
      advancedOnly: true,
    },
    {
      title: t("wizard.steps.tenantSize"),
      content: <TenantSize {...page} facts={facts} setFacts={setFacts} />,
      isValid: size.valid,
    },
    {
      title: t("wizard.steps.preview"),
      content: <Preview state={state} size={size} />,
      isValid: size.valid && !creating,
      finishLabel: t("common.action.create"),
    },
  ];
  const shown = steps.filter((s) => state.advanced || !s.advancedOnly);
  const credentials = created?.console ?? [];
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <MessageBar message={failure} onDone={() => setFailure(null)} />
        {creating
          ? <progress className="progress progress-primary w-full" aria-label={t("wizard.create.progress")} />
          : null}
        <div className="overflow-x-auto">
          <Wizard
            steps={shown}
            onFinish={create}
            busy={creating}
            onCancel={() => location.assign(`${base}tenants`)}
          />
        </div>
      </div>
      <Dialog
        title={t("wizard.created.title")}
        open={created !== null}
        onClose={() => location.assign(`${base}tenants`)}
        actions={
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => location.assign(`${base}tenants`)}
          >
            {t("common.action.done")}
          </button>
        }
      >
        {created?.externalIDP
          ? <p>{t("wizard.created.externalIdp")}</p>
          : (
            <div data-testid="tenant-credentials">
              <p className="mb-3">{t("wizard.created.writeDown")}</p>
              {credentials.map((c) => (
                <dl
                  key={c.access_key}
                  className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 mb-3 font-mono text-sm"
                >
                  <dt className="font-sans font-bold">{t("wizard.word.accessKey")}</dt>
                  <dd className="break-all select-all">{c.access_key}</dd>
                  <dt className="font-sans font-bold">{t("wizard.word.secretKey")}</dt>
                  <dd className="break-all select-all">{c.secret_key}</dd>
                </dl>
              ))}
            </div>
          )}
      </Dialog>
    </div>
  );
}
