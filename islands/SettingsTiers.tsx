/**
 * Settings › Tiers (spec 2): a filter, Refresh, 'Add Tier', and the table Tier Name, Type, Endpoint, Bucket,
 * Prefix, Region whose edit action opens 'Update Credentials - {type} / {name}'. Adding picks a type (MinIO,
 * GCS, S3, Azure) with 'Back To Tiers', then fills '{provider} - Add Tier Configuration' with 'Back To Tier
 * Type Selection'. A failed tiers read is ignored (spec 2 §8).
 */
import { useState } from "react";
import type { TierView } from "../server/lib/contract/settings.ts";
import type { TierKind } from "../server/lib/contract/settings.ts";
import { settingsApi } from "./lib/api/settings.ts";
import { AddTierForm, TIER_KINDS, TierCredentialsDialog } from "./settings/TierForms.tsx";
import { BackButton, Slide } from "./settings/Slides.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";

export interface SettingsTiersProps {
  tiers: TierView[];
}

type TierFields = { name: string; endpoint: string; bucket: string; prefix: string; region: string };
const fieldsOf = (tier: TierView) =>
  (tier[tier.type] ?? { name: "", endpoint: "", bucket: "", prefix: "", region: "" }) as TierFields;

export default function SettingsTiers({ tiers: initial }: SettingsTiersProps) {
  const [tiers, setTiers] = useState(initial);
  const [filter, setFilter] = useState("");
  const [editing, setEditing] = useState<TierView | null>(null);
  const [step, setStep] = useState<{ index: 0 | 1 | 2; from: number; kind?: TierKind }>({
    index: 0,
    from: 0,
  });
  const go = (index: 0 | 1 | 2, kind?: TierKind) => setStep({ index, from: step.index, kind });
  const reload = async () => setTiers(await settingsApi.tiers().catch(() => tiers));

  if (step.index === 1) {
    return (
      <Slide index={1} from={step.from}>
        <BackButton label={t("settings.tiers.back")} onClick={() => go(0)} />
        <h2 className="text-xl font-bold mb-4">{t("settings.tiers.selectType")}</h2>
        <div className="grid grid-cols-2 md:grid-cols-4 gap-3">
          {TIER_KINDS.map(({ kind, label }) => (
            <button
              key={kind}
              type="button"
              className="btn h-20 bg-base-100 border-base-300 text-base"
              onClick={() => go(2, kind)}
            >
              {label}
            </button>
          ))}
        </div>
      </Slide>
    );
  }
  if (step.index === 2 && step.kind) {
    const kind = step.kind;
    return (
      <Slide index={2} from={step.from}>
        <BackButton label={t("settings.tiers.backToTypes")} onClick={() => go(1)} />
        <AddTierForm
          kind={kind}
          label={TIER_KINDS.find((k) => k.kind === kind)!.label}
          onSaved={async () => {
            showSnackbar(t("settings.tiers.created"));
            go(0);
            await reload();
          }}
        />
      </Slide>
    );
  }
  const shown = tiers.filter((tier) => fieldsOf(tier).name.toLowerCase().includes(filter.toLowerCase()));
  return (
    <Slide index={0} from={step.from}>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("common.action.filter")} value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          <button type="button" className="btn btn-sm" onClick={reload}>{t("common.action.refresh")}</button>
          <button type="button" className="btn btn-sm btn-primary" onClick={() => go(1)}>
            {t("settings.tiers.add")}
          </button>
        </div>
      </div>
      <DataTable<TierView>
        entity={t("settings.tiers.entity")}
        id="tiers"
        emptyMessage={filter !== "" ? t("settings.tiers.noMatch") : t("settings.tiers.empty")}
        rows={shown}
        rowId={(tier) => `${tier.type}/${fieldsOf(tier).name}`}
        columns={[
          {
            id: "name",
            label: t("settings.tiers.name"),
            value: (tier) => fieldsOf(tier).name,
            sortable: true,
          },
          { id: "type", label: t("common.word.type"), value: (tier) => tier.type },
          { id: "endpoint", label: t("settings.tiers.endpoint"), value: (tier) => fieldsOf(tier).endpoint },
          { id: "bucket", label: t("settings.tiers.bucket"), value: (tier) => fieldsOf(tier).bucket },
          { id: "prefix", label: t("settings.tiers.prefix"), value: (tier) => fieldsOf(tier).prefix },
          { id: "region", label: t("settings.tiers.region"), value: (tier) => fieldsOf(tier).region },
        ]}
        initialSort={{ id: "name" }}
        actions={[{ type: "edit", label: t("settings.action.edit"), onSelect: setEditing }]}
      />
      {editing
        ? (
          <TierCredentialsDialog
            tier={editing}
            onClose={() => setEditing(null)}
            onSaved={() => {
              showSnackbar(t("settings.tiers.credentialsUpdated"));
              setEditing(null);
            }}
          />
        )
        : null}
    </Slide>
  );
}
