/**
 * The Summary's settings dialogs (spec 2): Change Access Policy, Enable Bucket Encryption, Edit Versioning
 * (with the warning when disabling), Enable Bucket Quota (value in the largest exact unit), Set Retention
 * Configuration (validity at least 1).
 */
import { useState } from "react";
import {
  type BucketQuotaInfo,
  type BucketRetention,
  type EncryptionType,
  quotaProblem,
  type QuotaType,
} from "../../server/lib/contract/buckets.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import { largestExactUnit, SIZE_UNITS, type SizeUnit, toBytes } from "../lib/format.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { NumberWithUnit, SelectField, Switch } from "../ui/fields.tsx";

interface SettingDialogProps {
  bucket: string;
  onClose: () => void;
  onSaved: () => void;
}

export function AccessPolicyDialog(
  { bucket, current, onClose, onSaved }: SettingDialogProps & { current: string },
) {
  const [access, setAccess] = useState<"PRIVATE" | "PUBLIC">(current === "PUBLIC" ? "PUBLIC" : "PRIVATE");
  const action = useDialogAction();
  return (
    <Dialog
      title="Change Access Policy"
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: action.busy,
        onClick: () => action.run(async () => (await bucketsApi.setAccess(bucket, access), onSaved())),
      }}
    >
      {current === "CUSTOM"
        ? <p className="text-sm mb-3">The bucket has a custom policy; choosing a preset replaces it.</p>
        : null}
      <SelectField
        label="Access Policy"
        value={access}
        options={[{ value: "PRIVATE", label: "Private" }, { value: "PUBLIC", label: "Public" }]}
        onChange={setAccess}
      />
    </Dialog>
  );
}

export function EncryptionDialog(
  { bucket, current, kmsKey, onClose, onSaved }: SettingDialogProps & {
    current: EncryptionType;
    kmsKey: string;
  },
) {
  const [type, setType] = useState<EncryptionType>(current);
  const [key, setKey] = useState(kmsKey);
  const action = useDialogAction();
  const save = () =>
    action.run(async () => {
      if (type === "disabled") await bucketsApi.disableEncryption(bucket);
      else await bucketsApi.enableEncryption(bucket, type, key.trim());
      onSaved();
    });
  return (
    <Dialog
      title="Enable Bucket Encryption"
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: (type === "sse-kms" && !key.trim()) || action.busy,
        onClick: save,
      }}
    >
      <SelectField
        label="Encryption Type"
        value={type}
        options={[{ value: "disabled", label: "Disabled" }, { value: "sse-s3", label: "SSE-S3" }, {
          value: "sse-kms",
          label: "SSE-KMS",
        }]}
        onChange={setType}
      />
      {type === "sse-kms"
        ? (
          <label className="block mb-3">
            <span className="block mb-1 text-sm font-bold">KMS Key ID</span>
            <input
              className="input w-full border-base-300"
              aria-label="KMS Key ID"
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
          </label>
        )
        : null}
    </Dialog>
  );
}

export function VersioningDialog(
  { bucket, enabled, onClose, onSaved }: SettingDialogProps & { enabled: boolean },
) {
  return (
    <ConfirmDialog
      title="Edit Versioning"
      open
      onClose={onClose}
      confirmLabel={enabled ? "Disable" : "Enable"}
      onConfirm={async () => (await bucketsApi.setVersioning(bucket, !enabled), onSaved())}
    >
      <p>
        Are you sure you want to <b>{enabled ? "disable" : "enable"}</b> versioning for this bucket?
      </p>
      {enabled ? <p className="mt-2 text-warning">File versions won't be automatically deleted</p> : null}
    </ConfirmDialog>
  );
}

const QUOTA_UNITS = SIZE_UNITS.map((u) => ({ value: u, label: u }));
const QUOTA_TYPE_OPTIONS = [{ value: "hard", label: "Hard" }, { value: "fifo", label: "FIFO" }] as const;

/** A quota as typed (amount and unit) in bytes, with what is wrong with it (or null). */
export function quotaFromForm(amount: string, unit: SizeUnit): { bytes: number; problem: string | null } {
  const value = Number(amount);
  const bytes = amount.trim() === "" || !Number.isFinite(value) ? 0 : toBytes(value, unit);
  return { bytes, problem: quotaProblem(bytes) };
}

/** Quota type (Hard or FIFO, spec 2 §9) and size with its unit, shared by Create Bucket and the quota dialog. */
export interface QuotaForm {
  amount: string;
  unit: SizeUnit;
  type: QuotaType;
}

export function QuotaFields(
  { amount, unit, type, onChange }: QuotaForm & { onChange: (change: Partial<QuotaForm>) => void },
) {
  const { problem } = quotaFromForm(amount, unit);
  return (
    <>
      <SelectField
        label="Quota Type"
        value={type}
        options={QUOTA_TYPE_OPTIONS}
        onChange={(next) => onChange({ type: next })}
      />
      <NumberWithUnit
        label="Quota"
        value={amount}
        min={0}
        step="any"
        onChange={(next) => onChange({ amount: next })}
        unit={unit}
        units={QUOTA_UNITS}
        onUnitChange={(next) => onChange({ unit: next })}
        error={problem ?? undefined}
      />
    </>
  );
}

export function QuotaDialog(
  { bucket, quota, onClose, onSaved }: SettingDialogProps & { quota: BucketQuotaInfo },
) {
  // The stored bytes in the largest unit dividing them exactly, bytes included (spec 2 §4): 1536 B stays 1536 B.
  const initial = quota.quota > 0 ? largestExactUnit(quota.quota) : { amount: 1, unit: "TiB" as SizeUnit };
  const [enabled, setEnabled] = useState(quota.quota > 0);
  const [form, setForm] = useState({ amount: String(initial.amount), unit: initial.unit, type: quota.type });
  const action = useDialogAction();
  const { bytes, problem } = quotaFromForm(form.amount, form.unit);
  const invalid = enabled && problem !== null;
  return (
    <Dialog
      title="Enable Bucket Quota"
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: invalid || action.busy,
        onClick: () =>
          action.run(
            async () => (await bucketsApi.setQuota(bucket, enabled, enabled ? bytes : 0, form.type),
              onSaved()),
          ),
      }}
    >
      <Switch label="Quota" checked={enabled} onChange={setEnabled} />
      {enabled
        ? <QuotaFields {...form} onChange={(change) => setForm((f) => ({ ...f, ...change }))} />
        : null}
    </Dialog>
  );
}

export function RetentionDialog(
  { bucket, current, onClose, onSaved }: SettingDialogProps & { current: BucketRetention | null },
) {
  const [mode, setMode] = useState<BucketRetention["mode"]>(current?.mode ?? "compliance");
  const [unit, setUnit] = useState<BucketRetention["unit"]>(current?.unit ?? "days");
  const [validity, setValidity] = useState(String(current?.validity ?? 1));
  const action = useDialogAction();
  const valid = Number.isInteger(Number(validity)) && Number(validity) >= 1;
  return (
    <Dialog
      title="Set Retention Configuration"
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: !valid || action.busy,
        onClick: () =>
          action.run(
            async () => (await bucketsApi.setRetention(bucket, { mode, unit, validity: Number(validity) }),
              onSaved()),
          ),
      }}
    >
      <SelectField
        label="Retention Mode"
        value={mode}
        options={[{ value: "compliance", label: "Compliance" }, { value: "governance", label: "Governance" }]}
        onChange={setMode}
      />
      <NumberWithUnit
        label="Retention Validity"
        value={validity}
        min={1}
        onChange={setValidity}
        unit={unit}
        units={[{ value: "days", label: "Days" }, { value: "years", label: "Years" }]}
        onUnitChange={setUnit}
        error={valid ? undefined : "The validity must be at least 1"}
      />
    </Dialog>
  );
}
