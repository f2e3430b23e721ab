/**
 * A bucket's Lifecycle (spec 2): 'Add Lifecycle Rule' (expiry or transition by days or a date sent at
 * 23:59:59Z, noncurrent versions, a tier as storage class, tags, expired delete marker) and a table of ID,
 * Prefix, Status, Expiration, Transition, Storage Class with an Enabled/Disabled edit.
 */
import { useState } from "react";
import type { LifecycleRuleView } from "../server/lib/contract/buckets.ts";
import { bucketsApi } from "./lib/api/buckets.ts";
import { formatDate } from "./lib/format.ts";
import { Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SelectField, Switch, TextField } from "./ui/fields.tsx";
import { TagEditor, tagsProblem, tagsToString } from "./ui/TagEditor.tsx";
import { ruleStatusText } from "./lib/bucket_texts.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

const ZERO_DATE = "0001-01-01T00:00:00Z";

/** 'N day(s)', a date, or empty for the zero date (spec 2 Lifecycle table). */
export function whenText(days: number, date: string): string {
  if (days > 0) return t("buckets.lifecycle.days", { count: String(days) });
  if (!date || date === ZERO_DATE) return "";
  return formatDate(date);
}

export interface BucketLifecycleProps {
  bucket: string;
  rules: LifecycleRuleView[];
  /** Tier names for the storage class picker. */
  tiers: string[];
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
}

type Kind = "expiry" | "transition";

function AddRuleDialog(
  { bucket, tiers, onClose, onSaved }: {
    bucket: string;
    tiers: string[];
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [kind, setKind] = useState<Kind>("expiry");
  const [useDate, setUseDate] = useState(false);
  // The switch reads "Default (7 Days)" (spec 2 §9): the field starts at what it promises.
  const [days, setDays] = useState("7");
  const [date, setDate] = useState("");
  const [storageClass, setStorageClass] = useState(tiers[0] ?? "");
  const [noncurrentDays, setNoncurrentDays] = useState("0");
  const [prefix, setPrefix] = useState("");
  const [tags, setTags] = useState([{ key: "", value: "" }]);
  const [deleteMarker, setDeleteMarker] = useState(false);
  const action = useDialogAction();
  const whenValid = useDate ? /^\d{4}-\d{2}-\d{2}$/.test(date) : Number(days) >= 1;
  const valid = whenValid && (kind === "expiry" || storageClass !== "") && !tagsProblem(tags);
  function save() {
    const at = useDate ? `${date}T23:59:59Z` : "";
    const n = useDate ? 0 : Number(days);
    const rule = kind === "expiry"
      ? { expiry_date: at, expiry_days: n, noncurrentversion_expiration_days: Number(noncurrentDays) || 0 }
      : {
        transition_date: at,
        transition_days: n,
        storage_class: storageClass,
        noncurrentversion_transition_days: Number(noncurrentDays) || 0,
        noncurrentversion_transition_storage_class: Number(noncurrentDays) > 0 ? storageClass : "",
      };
    action.run(
      async () => (await bucketsApi.addLifecycle(bucket, {
        ...rule,
        prefix: prefix.trim(),
        tags: tagsToString(tags),
        expired_object_delete_marker: deleteMarker,
      }),
        onSaved()),
    );
  }
  return (
    <Dialog
      title={t("buckets.lifecycle.add")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: !valid || action.busy,
        onClick: save,
      }}
    >
      <SelectField
        label={t("buckets.lifecycle.kind")}
        value={kind}
        options={[
          { value: "expiry", label: t("buckets.lifecycle.expiry") },
          { value: "transition", label: t("buckets.lifecycle.transition") },
        ]}
        onChange={setKind}
      />
      <Switch
        label={useDate ? t("buckets.lifecycle.specificDate") : t("buckets.lifecycle.defaultDays")}
        checked={useDate}
        onChange={setUseDate}
      />
      {useDate
        ? (
          <TextField
            label={kind === "expiry"
              ? t("buckets.lifecycle.expiryDate")
              : t("buckets.lifecycle.transitionDate")}
            type="date"
            value={date}
            onChange={setDate}
          />
        )
        : (
          <TextField
            label={kind === "expiry"
              ? t("buckets.lifecycle.expiryDays")
              : t("buckets.lifecycle.transitionDays")}
            type="number"
            value={days}
            onChange={setDays}
            error={Number(days) >= 1 ? undefined : t("buckets.lifecycle.atLeastOneDay")}
          />
        )}
      <TextField
        label={kind === "expiry"
          ? t("buckets.lifecycle.noncurrentExpiration")
          : t("buckets.lifecycle.noncurrentTransition")}
        type="number"
        value={noncurrentDays}
        onChange={setNoncurrentDays}
      />
      {kind === "transition"
        ? tiers.length
          ? (
            <SelectField
              label={t("buckets.lifecycle.storageClass")}
              value={storageClass}
              options={tiers.map((t) => ({ value: t, label: t }))}
              onChange={setStorageClass}
            />
          )
          : (
            <p className="text-sm text-error mb-3">
              {t("buckets.lifecycle.needsTier")}
            </p>
          )
        : null}
      <TextField label={t("buckets.events.prefix")} value={prefix} onChange={setPrefix} />
      <TagEditor tags={tags} onChange={setTags} />
      {kind === "expiry"
        ? (
          <Switch
            label={t("buckets.lifecycle.expireDeleteMarker")}
            checked={deleteMarker}
            onChange={setDeleteMarker}
          />
        )
        : null}
    </Dialog>
  );
}

export default function BucketLifecycle(
  { bucket, rules: initial, tiers, unavailable }: BucketLifecycleProps,
) {
  const [rules, setRules] = useState(initial);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<LifecycleRuleView | null>(null);
  const reload = async () => {
    try {
      setRules(await bucketsApi.lifecycle(bucket));
    } catch (error) {
      console.error("lifecycle list failed", error); // spec 2 §8: a list failure is only logged
    }
  };
  return (
    <>
      <div className="flex justify-end mb-4">
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setAdding(true)}>
          {t("buckets.lifecycle.add")}
        </button>
      </div>
      <DataTable<LifecycleRuleView>
        entity={t("buckets.entity.lifecycleRules")}
        id="lifecycle rules"
        rows={rules}
        rowId={(r) => r.id}
        emptyMessage={t("buckets.lifecycle.empty")}
        unavailable={unavailable}
        columns={[
          { id: "id", label: t("buckets.lifecycle.id"), value: (r) => r.id, breakAnywhere: true },
          { id: "prefix", label: t("buckets.events.prefix"), value: (r) => r.prefix },
          { id: "status", label: t("common.word.status"), value: (r) => ruleStatusText(r.status) },
          {
            id: "expiration",
            label: t("buckets.lifecycle.expiration"),
            value: (r) => whenText(r.expiration.days, r.expiration.date),
          },
          {
            id: "transition",
            label: t("buckets.lifecycle.transition"),
            value: (r) => whenText(r.transition.days, r.transition.date),
          },
          {
            id: "storage_class",
            label: t("buckets.lifecycle.storageClass"),
            value: (r) => r.transition.storage_class,
          },
        ]}
        actions={[{ type: "edit", onSelect: setEditing }]}
      />
      {adding
        ? (
          <AddRuleDialog
            bucket={bucket}
            tiers={tiers}
            onClose={() => setAdding(false)}
            onSaved={() => (setAdding(false), reload())}
          />
        )
        : null}
      {editing
        ? (
          <EditRuleDialog
            bucket={bucket}
            rule={editing}
            onClose={() => setEditing(null)}
            onSaved={() => (setEditing(null), reload())}
          />
        )
        : null}
    </>
  );
}

function EditRuleDialog(
  { bucket, rule, onClose, onSaved }: {
    bucket: string;
    rule: LifecycleRuleView;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [enabled, setEnabled] = useState(rule.status === "Enabled");
  const action = useDialogAction();
  return (
    <Dialog
      title={t("buckets.lifecycle.editTitle")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: action.busy,
        onClick: () =>
          action.run(async () => (await bucketsApi.updateLifecycle(bucket, rule.id, !enabled), onSaved())),
      }}
    >
      <p className="text-sm mb-3 break-all">
        {tNode("buckets.lifecycle.rule", { rule: <b translate="no">{rule.id}</b> })}
      </p>
      <Switch
        label={enabled ? t("common.word.enabled") : t("common.word.disabled")}
        checked={enabled}
        onChange={setEnabled}
      />
    </Dialog>
  );
}
