/**
 * Create Bucket (spec 2 §4-§5: defaults, switch dependencies, 1000 ms name debounce, distributed-only quota
 * and retention, the non-erasure notice) and Delete Bucket (only an empty bucket; the server's refusal shown).
 */
import { useEffect, useState } from "react";
import { bucketNameProblem } from "../../server/contract/bucket_names.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import { SIZE_UNITS, type SizeUnit, toBytes } from "../lib/format.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { NumberWithUnit, SelectField, Switch, TextField } from "../ui/fields.tsx";
import { showSnackbar } from "../ui/notify.ts";

export const NON_ERASURE_NOTICE = "Some these features are disabled as server is running in non-erasure coded mode.";
const QUOTA_UNITS = SIZE_UNITS.filter((u) => u !== "B").map((u) => ({ value: u, label: u }));
const RETENTION_MODES = [{ value: "compliance", label: "Compliance" }, { value: "governance", label: "Governance" }] as const;
const RETENTION_UNITS = [{ value: "days", label: "Days" }, { value: "years", label: "Years" }] as const;

/** The create-bucket form's state and its switch rules, kept pure so they are easy to test. */
export interface BucketForm {
  name: string;
  versioning: boolean;
  locking: boolean;
  quota: boolean;
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
  quotaSize: "1",
  quotaUnit: "TiB",
  retention: false,
  retentionMode: "compliance",
  retentionUnit: "days",
  retentionValidity: "1",
};

/** Applies one change and the rules that follow from it (versioning off → retention off; retention on → locking on). */
export function changeBucketForm(form: BucketForm, change: Partial<BucketForm>): BucketForm {
  const next = { ...form, ...change };
  if (change.versioning === false) next.retention = false;
  if (change.retention === true) {
    next.locking = true;
    next.versioning = true;
  }
  if (next.retention) next.locking = true;
  return next;
}

export function bucketFormValid(form: BucketForm, distributed: boolean): boolean {
  if (form.name.trim() === "") return false;
  if (distributed && form.quota && (form.quotaSize.trim() === "" || Number(form.quotaSize) <= 0)) return false;
  if (distributed && form.retention && !(Number(form.retentionValidity) >= 1)) return false;
  return true;
}

export function CreateBucketDialog({ open, distributed, onClose, onCreated }: { open: boolean; distributed: boolean; onClose: () => void; onCreated: () => void }) {
  const [form, setForm] = useState(EMPTY_BUCKET_FORM);
  const [nameProblem, setNameProblem] = useState("");
  const action = useDialogAction();
  const set = (change: Partial<BucketForm>) => setForm((f) => changeBucketForm(f, change));

  // The name is checked once typing pauses for a second (spec 2 §9 debounce).
  useEffect(() => {
    const timer = setTimeout(() => setNameProblem(form.name.trim() ? bucketNameProblem(form.name.trim()) ?? "" : ""), 1000);
    return () => clearTimeout(timer);
  }, [form.name]);

  function create() {
    action.run(async () => {
      await bucketsApi.create({
        name: form.name.trim(),
        versioning: form.versioning,
        locking: form.locking,
        ...(distributed && form.quota ? { quota: { enabled: true, quota_type: "hard" as const, amount: toBytes(Number(form.quotaSize), form.quotaUnit) } } : {}),
        ...(distributed && form.retention ? { retention: { mode: form.retentionMode, unit: form.retentionUnit, validity: Number(form.retentionValidity) } } : {}),
      });
      showSnackbar(`Bucket ${form.name.trim()} created`);
      setForm(EMPTY_BUCKET_FORM);
      onCreated();
    });
  }

  return (
    <Dialog title="Create Bucket" open={open} onClose={onClose} message={action.message} onMessageDone={action.clear} wide
      actions={
        <>
          <button type="button" className="btn" onClick={() => setForm(EMPTY_BUCKET_FORM)} disabled={action.busy}>Clear</button>
          <button type="button" className="btn btn-primary" disabled={!bucketFormValid(form, distributed) || action.busy} onClick={create}>Save</button>
        </>
      }>
      <fieldset disabled={action.busy}>
        <TextField label="Bucket Name" value={form.name} onChange={(name) => set({ name })} error={nameProblem || undefined} />
        {distributed ? null : <div role="note" className="alert alert-info text-sm mb-3">{NON_ERASURE_NOTICE}</div>}
        <Switch label="Versioning" checked={form.versioning} onChange={(versioning) => set({ versioning })} />
        <label className="flex items-center gap-3 mb-3 cursor-pointer">
          <input type="checkbox" className="toggle toggle-primary" aria-label="Object Locking" checked={form.locking} disabled={form.retention} onChange={(e) => set({ locking: e.target.checked })} />
          <span className="font-bold text-sm">Object Locking</span>
        </label>
        {distributed
          ? (
            <>
              <Switch label="Quota" checked={form.quota} onChange={(quota) => set({ quota })} />
              {form.quota
                ? (
                  <NumberWithUnit label="Quota" value={form.quotaSize} min={1} onChange={(quotaSize) => set({ quotaSize })} unit={form.quotaUnit} units={QUOTA_UNITS} onUnitChange={(quotaUnit) => set({ quotaUnit })}
                    error={form.quotaSize.trim() === "" || Number(form.quotaSize) <= 0 ? "The quota must be greater than zero" : undefined} />
                )
                : null}
              {form.versioning
                ? <Switch label="Retention" checked={form.retention} onChange={(retention) => set({ retention })} />
                : null}
              {form.retention
                ? (
                  <>
                    <SelectField label="Retention Mode" value={form.retentionMode} options={RETENTION_MODES} onChange={(retentionMode) => set({ retentionMode })} />
                    <NumberWithUnit label="Retention Validity" value={form.retentionValidity} min={1} onChange={(retentionValidity) => set({ retentionValidity })} unit={form.retentionUnit} units={RETENTION_UNITS}
                      onUnitChange={(retentionUnit) => set({ retentionUnit })} error={Number(form.retentionValidity) >= 1 ? undefined : "The validity must be at least 1"} />
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

export function DeleteBucketDialog({ bucket, onClose, onDeleted }: { bucket: string | null; onClose: () => void; onDeleted: () => void }) {
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
