/**
 * Settings › Configurations (spec 2): the eight configurations, each with an edit action that slides to its
 * form with 'Back To Configurations'. Saving sets the restart flag when the server says the change needs one
 * and returns to the list (spec 2 §4).
 */
import { useState } from "react";
import { type ConfigurationDef, CONFIGURATIONS } from "../server/lib/contract/settings_forms.ts";
import { settingsApi } from "./lib/api/settings.ts";
import { reportError } from "./lib/use_list.ts";
import { noteConfigSaved } from "./lib/restart.ts";
import { ConfigForm } from "./settings/ConfigForm.tsx";
import { BackButton, Slide } from "./settings/Slides.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";
import { contractText } from "./settings/texts.ts";

export interface SettingsConfigurationsProps {
  /** Each configuration's stored values as the page was rendered (secrets masked), so a form opens at once. */
  values: Record<string, Record<string, string>>;
}

export default function SettingsConfigurations({ values: rendered }: SettingsConfigurationsProps) {
  const [known, setKnown] = useState(rendered);
  const [editing, setEditing] = useState<{ def: ConfigurationDef; values: Record<string, string> } | null>(
    null,
  );
  const [from, setFrom] = useState(0);

  async function edit(def: ConfigurationDef) {
    try {
      const values = known[def.id] ??
        Object.fromEntries(
          (await settingsApi.config(def.id)).key_values.map(({ key, value }) => [key, value]),
        );
      setFrom(0);
      setEditing({ def, values });
    } catch (error) {
      reportError(error);
    }
  }
  const back = () => (setFrom(1), setEditing(null));

  if (editing) {
    return (
      <Slide index={1} from={from}>
        <BackButton label={t("settings.configurations.back")} onClick={back} />
        <h2 className="text-xl font-bold mb-4">{contractText(editing.def.label)}</h2>
        <div className="bg-base-100 rounded-box p-4 max-w-3xl">
          <ConfigForm
            key={editing.def.id}
            fields={editing.def.fields}
            initial={editing.values}
            onSubmit={async (keyValues) => {
              await settingsApi.setConfig(editing.def.id, keyValues);
              noteConfigSaved();
              // What the server stored now (merged, normalised, masked) is read again on the next edit.
              const { [editing.def.id]: _saved, ...rest } = known;
              setKnown(rest);
              showSnackbar(t("settings.configurations.saved", { name: contractText(editing.def.label) }));
              back();
            }}
          />
        </div>
      </Slide>
    );
  }
  return (
    <Slide index={0} from={from}>
      <DataTable<ConfigurationDef>
        entity={t("settings.configurations.entity")}
        id="configurations"
        rows={CONFIGURATIONS}
        rowId={(c) => c.id}
        columns={[{
          id: "label",
          label: t("settings.configurations.column"),
          value: (c) => contractText(c.label),
        }]}
        actions={[{ type: "edit", label: t("settings.action.edit"), onSelect: edit }]}
        height={CONFIGURATIONS.length * 40 + 48}
      />
    </Slide>
  );
}
