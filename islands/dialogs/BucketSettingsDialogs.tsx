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
  type QuotaType,
} from "../../server/lib/contract/buckets.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import { largestExactUnit, SIZE_UNITS, type SizeUnit, toBytes } from "../lib/format.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { NumberWithUnit, SelectField, Switch } from "../ui/fields.tsx";
import { quotaMessage, retentionModes, retentionUnits } from "../lib/bucket_texts.ts";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";

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
      title={t("buckets.accessPolicy.title")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: action.busy,
        onClick: () => action.run(async () => (await bucketsApi.setAccess(bucket, access), onSaved())),
      }}
    >
      {current === "CUSTOM" ? <p className="text-sm mb-3">{t("buckets.accessPolicy.custom")}</p> : null}
      <SelectField
        label={t("buckets.accessPolicy.label")}
        value={access}
        options={[
          { value: "PRIVATE", label: t("buckets.accessLevel.private") },
          { value: "PUBLIC", label: t("buckets.accessLevel.public") },
        ]}
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
      title={t("buckets.encryption.title")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: (type === "sse-kms" && !key.trim()) || action.busy,
        onClick: save,
      }}
    >
      <SelectField
        label={t("buckets.encryption.type")}
        value={type}
        options={[{ value: "disabled", label: t("common.word.disabled") }, {
          value: "sse-s3",
          label: "SSE-S3",
        }, {
          value: "sse-kms",
          label: "SSE-KMS",
        }]}
        onChange={setType}
      />
      {type === "sse-kms"
        ? (
          <label className="block mb-3">
            <span className="block mb-1 text-sm font-bold">{t("buckets.encryption.kmsKey")}</span>
            <input
              className="input w-full border-base-300"
              aria-label={t("buckets.encryption.kmsKey")}
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
      title={t("buckets.versioning.title")}
      open
      onClose={onClose}
      confirmLabel={enabled ? t("buckets.versioning.disable") : t("buckets.versioning.enable")}
      onConfirm={async () => (await bucketsApi.setVersioning(bucket, !enabled), onSaved())}
    >
      <p>
        {tNode("buckets.versioning.confirm", {
          action: <b>{enabled ? t("buckets.versioning.disableWord") : t("buckets.versioning.enableWord")}</b>,
        })}
      </p>
      {enabled ? <p className="mt-2 text-warning">{t("buckets.versioning.warning")}</p> : null}
    </ConfirmDialog>
  );
}

const QUOTA_UNITS = SIZE_UNITS.map((u) => ({ value: u, label: u }));
const quotaTypeOptions = () =>
  [{ value: "hard", label: t("buckets.quota.hard") }, {
    value: "fifo",
    label: t("buckets.quota.fifo"),
  }] as const;

/** A quota as typed (amount and unit) in bytes, with what is wrong with it (or null). */
export function quotaFromForm(amount: string, unit: SizeUnit): { bytes: number; problem: string | null } {
  const value = Number(amount);
  const bytes = amount.trim() === "" || !Number.isFinite(value) ? 0 : toBytes(value, unit);
  return { bytes, problem: quotaMessage(bytes) };
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
        label={t("buckets.quota.type")}
        value={type}
        options={quotaTypeOptions()}
        onChange={(next) => onChange({ type: next })}
      />
      <NumberWithUnit
        label={t("buckets.create.quota")}
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
      title={t("buckets.quota.title")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: invalid || action.busy,
        onClick: () =>
          action.run(
            async () => (await bucketsApi.setQuota(bucket, enabled, enabled ? bytes : 0, form.type),
              onSaved()),
          ),
      }}
    >
      <Switch label={t("buckets.create.quota")} checked={enabled} onChange={setEnabled} />
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
      title={t("buckets.retentionDialog.title")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
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
        label={t("buckets.retention.mode")}
        value={mode}
        options={retentionModes()}
        onChange={setMode}
      />
      <NumberWithUnit
        label={t("buckets.retention.validity")}
        value={validity}
        min={1}
        onChange={setValidity}
        unit={unit}
        units={retentionUnits()}
        onUnitChange={setUnit}
        error={valid ? undefined : t("buckets.retention.validityTooSmall")}
      />
    </Dialog>
  );
}
