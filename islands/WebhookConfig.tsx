/**
 * /webhook/logger and /webhook/audit (spec 2 "Webhook configuration view"): a filter, 'Add Webhook
 * Configuration' that opens the logger_webhook or audit_webhook form, and a Name table that stays empty as
 * in the original (the form writes the subsystem's default target, which is not listed here).
 */
import { useState } from "react";
import { configurationDef } from "../server/lib/contract/settings_forms.ts";
import { settingsApi } from "./lib/api/settings.ts";
import { noteConfigSaved } from "./lib/restart.ts";
import { ConfigForm } from "./settings/ConfigForm.tsx";
import { BackButton, Slide } from "./settings/Slides.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";
import { contractText } from "./settings/texts.ts";

export interface WebhookConfigProps {
  kind: "logger" | "audit";
  /** The subsystem's stored values (secrets masked): the form starts from them. */
  values: Record<string, string>;
}

export default function WebhookConfig({ kind, values: rendered }: WebhookConfigProps) {
  const [values, setValues] = useState(rendered);
  const def = configurationDef(`${kind}_webhook`)!;
  const [filter, setFilter] = useState("");
  const [step, setStep] = useState({ index: 0, from: 0 });
  const label = contractText(def.label);
  if (step.index === 1) {
    return (
      <Slide index={1} from={step.from}>
        <BackButton
          label={kind === "logger" ? t("settings.webhook.backLogger") : t("settings.webhook.backAudit")}
          onClick={() => setStep({ index: 0, from: 1 })}
        />
        <h2 className="text-xl font-bold mb-4">{label}</h2>
        <div className="bg-base-100 rounded-box p-4 max-w-3xl">
          <ConfigForm
            fields={def.fields}
            initial={values}
            onSubmit={async (keyValues) => {
              await settingsApi.setConfig(def.id, keyValues);
              noteConfigSaved();
              setValues(
                Object.fromEntries(
                  (await settingsApi.config(def.id)).key_values.map(({ key, value }) => [key, value]),
                ),
              );
              showSnackbar(t("settings.configurations.saved", { name: label }));
              setStep({ index: 0, from: 1 });
            }}
          />
        </div>
      </Slide>
    );
  }
  return (
    <Slide index={0} from={step.from}>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("common.action.filter")} value={filter} onChange={setFilter} />
        <button
          type="button"
          className="btn btn-sm btn-primary"
          onClick={() => setStep({ index: 1, from: 0 })}
        >
          {t("settings.webhook.add")}
        </button>
      </div>
      <DataTable<{ name: string }>
        entity={t("settings.webhook.entity")}
        id="webhook configurations"
        emptyMessage={filter !== "" ? t("settings.webhook.noMatch") : t("settings.webhook.empty")}
        rows={[]}
        rowId={(r) => r.name}
        columns={[{ id: "name", label: t("common.word.name"), value: (r) => r.name }]}
      />
    </Slide>
  );
}
