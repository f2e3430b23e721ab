/**
 * Create Bucket (spec 2 §4-§5: defaults, switch dependencies, 1000 ms name debounce, distributed-only quota
 * and retention, the non-erasure notice) and Delete Bucket (only an empty bucket; the server's refusal shown).
 */
import { useEffect, useState } from "react";
import { bucketNameProblem } from "../../server/lib/contract/bucket_names.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import type { QuotaType } from "../../server/lib/contract/buckets.ts";
import type { SizeUnit } from "../lib/format.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { NumberWithUnit, SelectField, Switch, TextField } from "../ui/fields.tsx";
import { QuotaFields, quotaFromForm } from "./BucketSettingsDialogs.tsx";
import { showSnackbar } from "../lib/notify.ts";

export const NON_ERASURE_NOTICE =
  "Some these features are disabled as server is running in non-erasure coded mode.";
/** A server other than MinIO: what it lacks is not offered (server/console/session/capabilities.ts). */
export const plainServerNotice = (lacks: string[]) =>
  `This server is not MinIO: quota and retention need MinIO${
    lacks.length ? `, and it does not support ${lacks.join(" or ")}` : ""
  }.`;
export const LOCKING_NEEDS_VERSIONING =
  "Object locking needs versioning, so it stays on while locking is on.";
const RETENTION_MODES = [{ value: "compliance", label: "Compliance" }, {
  value: "governance",
  label: "Governance",
}] as const;
const RETENTION_UNITS = [{ value: "days", label: "Days" }, { value: "years", label: "Years" }] as const;

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
const problemOfName = (name: string) => (name.trim() ? bucketNameProblem(name.trim()) ?? "" : "");

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
      showSnackbar(`Bucket ${form.name.trim()} created`);
      setForm(EMPTY_BUCKET_FORM);
      onCreated();
    });
  }

  return (
    <Dialog
      title="Create Bucket"
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
            Clear
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!bucketFormValid(form, distributed) || action.busy}
            onClick={create}
          >
            Save
          </button>
        </>
      }
    >
      <fieldset disabled={action.busy}>
        <TextField
          label="Bucket Name"
          value={form.name}
          onChange={(name) => set({ name })}
          error={nameProblem || undefined}
        />
        {distributed ? null : (
          <div role="note" className="alert alert-info text-sm mb-3">
            {plainServer ? plainServerNotice(plainServer.lacks) : NON_ERASURE_NOTICE}
          </div>
        )}
        {plainServer?.lacks.includes("Versioning") ? null : (
          <Switch
            label="Versioning"
            checked={form.versioning}
            disabled={form.locking}
            onChange={(versioning) => set({ versioning })}
            description={form.locking ? LOCKING_NEEDS_VERSIONING : undefined}
          />
        )}
        {plainServer?.lacks.includes("Object Locking")
          ? null
          : (
            <label className="flex items-center gap-3 mb-3 cursor-pointer">
              <input
                type="checkbox"
                className="toggle toggle-primary"
                aria-label="Object Locking"
                checked={form.locking}
                disabled={form.retention}
                onChange={(e) => set({ locking: e.target.checked })}
              />
              <span className="font-bold text-sm">Object Locking</span>
            </label>
          )}
        {distributed
          ? (
            <>
              <Switch label="Quota" checked={form.quota} onChange={(quota) => set({ quota })} />
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
                    label="Retention"
                    checked={form.retention}
                    onChange={(retention) => set({ retention })}
                  />
                )
                : null}
              {form.retention
                ? (
                  <>
                    <SelectField
                      label="Retention Mode"
                      value={form.retentionMode}
                      options={RETENTION_MODES}
                      onChange={(retentionMode) => set({ retentionMode })}
                    />
                    <NumberWithUnit
                      label="Retention Validity"
                      value={form.retentionValidity}
                      min={1}
                      onChange={(retentionValidity) => set({ retentionValidity })}
                      unit={form.retentionUnit}
                      units={RETENTION_UNITS}
                      onUnitChange={(retentionUnit) => set({ retentionUnit })}
                      error={Number(form.retentionValidity) >= 1
                        ? undefined
                        : "The validity must be at least 1"}
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
      title="Delete Bucket"
      open={bucket !== null}
      onClose={onClose}
      onConfirm={async () => {
        await bucketsApi.remove(bucket!);
        showSnackbar(`Bucket ${bucket} deleted`);
        onDeleted();
      }}
    >
      Are you sure you want to delete bucket <b>{bucket}</b>? A bucket can only be deleted if it is empty.
    </ConfirmDialog>
  );
}
