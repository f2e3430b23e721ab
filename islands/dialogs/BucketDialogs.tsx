/**
 * Create Bucket (spec 2 §4-§5: defaults, switch dependencies, 1000 ms name debounce, distributed-only quota
 * and retention, the non-erasure notice) and Delete Bucket (only an empty bucket; the server's refusal shown).
 */
import { useEffect, useState } from "react";
import { bucketsApi } from "../lib/api/buckets.ts";
import type { QuotaType } from "../../server/lib/contract/buckets.ts";
import type { SizeUnit } from "../lib/format.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { NumberWithUnit, SelectField, Switch, TextField } from "../ui/fields.tsx";
import { QuotaFields, quotaFromForm } from "./BucketSettingsDialogs.tsx";
import { showSnackbar } from "../lib/notify.ts";
import { bucketNameMessage, retentionModes, retentionUnits } from "../lib/bucket_texts.ts";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";

/** The features a plain server lacks, as routes/buckets.tsx names them, by their switch's label. */
const featureLabel = (feature: string) =>
  feature === "Versioning"
    ? t("buckets.create.versioning")
    : feature === "Object Locking"
    ? t("buckets.create.objectLocking")
    : feature;

/** A server other than MinIO: what it lacks is not offered (server/console/session/capabilities.ts). */
export const plainServerNotice = (lacks: string[]) =>
  lacks.length
    ? t("buckets.create.plainServerLacks", {
      features: lacks.map(featureLabel).join(t("buckets.create.or")),
    })
    : t("buckets.create.plainServer");

/** The create-bucket form's state and its switch rules, kept pure so they are easy to test. */
export interface BucketForm {
  name: string;
  versioning: boolean;
  locking: boolean;
  quota: boolean;
  quotaType: QuotaType;
  quotaSize: string;
  quotaUnit: SizeUnit;
  retention: boolean;
  retentionMode: "compliance" | "governance";
  retentionUnit: "days" | "years";
  retentionValidity: string;
}

export const EMPTY_BUCKET_FORM: BucketForm = {
  name: "",
  versioning: false,
  locking: false,
  quota: false,
  quotaType: "hard",
  quotaSize: "1",
  quotaUnit: "TiB",
  retention: false,
  retentionMode: "compliance",
  retentionUnit: "days",
  retentionValidity: "1",
};

/**
 * Applies one change and the rules that follow from it (spec 2 §4): versioning off → retention off; retention
 * on → locking on; and locking on → versioning on, because S3 object locking needs a versioned bucket (the
 * form shows it rather than the server doing it silently).
 */
export function changeBucketForm(form: BucketForm, change: Partial<BucketForm>): BucketForm {
  const next = { ...form, ...change };
  if (change.versioning === false) next.retention = false;
  if (next.retention) next.locking = true;
  if (next.locking) next.versioning = true;
  return next;
}

/** Why the name cannot be used yet, or "" (blank counts, without a message). */
const problemOfName = (name: string) => (name.trim() ? bucketNameMessage(name.trim()) ?? "" : "");

export function bucketFormValid(form: BucketForm, distributed: boolean): boolean {
  if (form.name.trim() === "" || problemOfName(form.name)) return false;
  if (distributed && form.quota && quotaFromForm(form.quotaSize, form.quotaUnit).problem) return false;
  if (distributed && form.retention && !(Number(form.retentionValidity) >= 1)) return false;
  return true;
}

export function CreateBucketDialog(
  { open, distributed, plainServer, onClose, onCreated }: {
    open: boolean;
    distributed: boolean;
    /** Set on a server other than MinIO: the features it lacks, by their switch's label. */
    plainServer?: { lacks: string[] };
    onClose: () => void;
    onCreated: () => void;
  },
) {
  const [form, setForm] = useState(EMPTY_BUCKET_FORM);
  const [nameProblem, setNameProblem] = useState("");
  const action = useDialogAction();
  const set = (change: Partial<BucketForm>) => setForm((f) => changeBucketForm(f, change));

  // The name's message shows once typing pauses for a second (spec 2 §9 debounce); Save waits for a valid name
  // at once, so an invalid name never reaches the server (which would repeat the message in the message bar).
  useEffect(() => {
    const timer = setTimeout(() => setNameProblem(problemOfName(form.name)), 1000);
    return () => clearTimeout(timer);
  }, [form.name]);

  function create() {
    action.run(async () => {
      await bucketsApi.create({
        name: form.name.trim(),
        versioning: form.versioning,
        locking: form.locking,
        ...(distributed && form.quota
          ? {
            quota: {
              enabled: true,
              quota_type: form.quotaType,
              amount: quotaFromForm(form.quotaSize, form.quotaUnit).bytes,
            },
          }
          : {}),
        ...(distributed && form.retention
          ? {
            retention: {
              mode: form.retentionMode,
              unit: form.retentionUnit,
              validity: Number(form.retentionValidity),
            },
          }
          : {}),
      });
      showSnackbar(t("buckets.create.created", { bucket: form.name.trim() }));
      setForm(EMPTY_BUCKET_FORM);
      onCreated();
    });
  }

  return (
    <Dialog
      title={t("buckets.create.title")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
      actions={
        <>
          <button
            type="button"
            className="btn"
            onClick={() => setForm(EMPTY_BUCKET_FORM)}
            disabled={action.busy}
          >
            {t("common.action.clear")}
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!bucketFormValid(form, distributed) || action.busy}
            onClick={create}
          >
            {t("common.action.save")}
          </button>
        </>
      }
    >
      <fieldset disabled={action.busy}>
        <TextField
          label={t("buckets.create.name")}
          value={form.name}
          onChange={(name) => set({ name })}
          error={nameProblem || undefined}
        />
        {distributed ? null : (
          <div role="note" className="alert alert-info text-sm mb-3">
            {plainServer ? plainServerNotice(plainServer.lacks) : t("buckets.create.nonErasure")}
          </div>
        )}
        {plainServer?.lacks.includes("Versioning") ? null : (
          <Switch
            label={t("buckets.create.versioning")}
            checked={form.versioning}
            disabled={form.locking}
            onChange={(versioning) => set({ versioning })}
            description={form.locking ? t("buckets.create.lockingNeedsVersioning") : undefined}
          />
        )}
        {plainServer?.lacks.includes("Object Locking")
          ? null
          : (
            <label className="flex items-center gap-3 mb-3 cursor-pointer">
              <input
                type="checkbox"
                className="toggle toggle-primary"
                aria-label={t("buckets.create.objectLocking")}
                checked={form.locking}
                disabled={form.retention}
                onChange={(e) => set({ locking: e.target.checked })}
              />
              <span className="font-bold text-sm">{t("buckets.create.objectLocking")}</span>
            </label>
          )}
        {distributed
          ? (
            <>
              <Switch
                label={t("buckets.create.quota")}
                checked={form.quota}
                onChange={(quota) => set({ quota })}
              />
              {form.quota
                ? (
                  <QuotaFields
                    amount={form.quotaSize}
                    unit={form.quotaUnit}
                    type={form.quotaType}
                    onChange={(c) =>
                      set({
                        quotaSize: c.amount ?? form.quotaSize,
                        quotaUnit: c.unit ?? form.quotaUnit,
                        quotaType: c.type ?? form.quotaType,
                      })}
                  />
                )
                : null}
              {form.versioning
                ? (
                  <Switch
                    label={t("buckets.create.retention")}
                    checked={form.retention}
                    onChange={(retention) => set({ retention })}
                  />
                )
                : null}
              {form.retention
                ? (
                  <>
                    <SelectField
                      label={t("buckets.retention.mode")}
                      value={form.retentionMode}
                      options={retentionModes()}
                      onChange={(retentionMode) => set({ retentionMode })}
                    />
                    <NumberWithUnit
                      label={t("buckets.retention.validity")}
                      value={form.retentionValidity}
                      min={1}
                      onChange={(retentionValidity) => set({ retentionValidity })}
                      unit={form.retentionUnit}
                      units={retentionUnits()}
                      onUnitChange={(retentionUnit) => set({ retentionUnit })}
                      error={Number(form.retentionValidity) >= 1
                        ? undefined
                        : t("buckets.retention.validityTooSmall")}
                    />
                  </>
                )
                : null}
            </>
          )
          : null}
      </fieldset>
    </Dialog>
  );
}

export function DeleteBucketDialog(
  { bucket, onClose, onDeleted }: { bucket: string | null; onClose: () => void; onDeleted: () => void },
) {
  return (
    <ConfirmDialog
      title={t("buckets.delete.title")}
      open={bucket !== null}
      onClose={onClose}
      onConfirm={async () => {
        await bucketsApi.remove(bucket!);
        showSnackbar(t("buckets.delete.deleted", { bucket: bucket! }));
        onDeleted();
      }}
    >
      {tNode("buckets.delete.confirm", { bucket: <b translate="no">{bucket}</b> })}
    </ConfirmDialog>
  );
}
