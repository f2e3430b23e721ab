/**
 * The tier forms (spec 2 §3–§5): '{provider} - Add Tier Configuration' with the fields of its type (the name
 * forced to upper case and checked against the tier name rule, the endpoint preset per type), and the
 * 'Update Credentials - {type} / {name}' dialog. Both stay disabled until every required field is filled.
 */
import { useState } from "react";
import {
  type AddTierInput,
  TIER_DEFAULT_ENDPOINT,
  TIER_INFO_ERROR,
  TIER_NAME,
  TIER_NAME_MESSAGE,
  type TierKind,
  type TierView,
} from "../../server/lib/contract/settings.ts";
import { EMPTY_FIELD } from "../../server/lib/contract/settings_fields.ts";
import { settingsApi } from "../lib/api/settings.ts";
import { Dialog, MessageBar, useDialogAction } from "../ui/Dialog.tsx";
import { TextField } from "../ui/fields.tsx";
import { t } from "../lib/i18n/t.ts";
import { contractText } from "./texts.ts";

export const TIER_KINDS: { kind: TierKind; label: string }[] = [
  { kind: "minio", label: "MinIO" },
  { kind: "gcs", label: "GCS" },
  { kind: "s3", label: "S3" },
  { kind: "azure", label: "Azure" },
];

/** Reads an uploaded credentials file as base64 (the `creds` field). */
async function fileBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function CredsFile({ onChange, error }: { onChange: (base64: string) => void; error?: string }) {
  return (
    <label className="block mb-3">
      <span className="block mb-1 text-sm font-bold">{t("settings.tiers.credentials")} *</span>
      <input
        type="file"
        accept=".json,application/json"
        className="file-input w-full border-base-300"
        aria-label={t("settings.tiers.credentials")}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          onChange(file && file.name.toLowerCase().endsWith(".json") ? await fileBase64(file) : "");
        }}
      />
      {error
        ? <span className="text-error text-sm mt-1 block" role="alert">{contractText(error)}</span>
        : (
          <span className="text-xs text-base-content/70 mt-1 block">
            {t("settings.tiers.credentialsHelp")}
          </span>
        )}
    </label>
  );
}

export function AddTierForm(
  { kind, label, onSaved }: { kind: TierKind; label: string; onSaved: () => void },
) {
  const [v, setV] = useState<Record<string, string>>({
    name: "",
    endpoint: TIER_DEFAULT_ENDPOINT[kind],
    bucket: "",
    prefix: "",
    region: "",
    accesskey: "",
    secretkey: "",
    creds: "",
    accountname: "",
    accountkey: "",
    storageclass: "",
  });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const action = useDialogAction();
  const required = [
    "name",
    "endpoint",
    "bucket",
    "prefix",
    "region",
    ...(kind === "gcs"
      ? ["creds"]
      : kind === "azure"
      ? ["accountname", "accountkey"]
      : ["accesskey", "secretkey"]),
  ];
  const errorOf = (name: string): string => {
    if (required.includes(name) && !v[name].trim()) return EMPTY_FIELD;
    if (name === "name" && !TIER_NAME.test(v.name)) return TIER_NAME_MESSAGE;
    return "";
  };
  const valid = required.every((name) => !errorOf(name));
  const shown = (name: string) => {
    const problem = touched[name] ? errorOf(name) : "";
    return problem ? contractText(problem) : undefined;
  };
  const field = (name: string, fieldLabel: string, type = "text") => (
    <div onBlur={() => setTouched((t) => ({ ...t, [name]: true }))}>
      <TextField
        label={`${fieldLabel}${required.includes(name) ? " *" : ""}`}
        type={type}
        value={v[name]}
        error={shown(name)}
        autoComplete={type === "password" ? "new-password" : "off"}
        onChange={(value) =>
          setV({ ...v, [name]: name === "name" ? value.toUpperCase() : value })}
      />
    </div>
  );
  async function save() {
    const type = kind === "minio" ? "s3" : kind; // MinIO tiers are sent as s3 (spec 2 §3)
    const common = {
      name: v.name,
      endpoint: v.endpoint,
      bucket: v.bucket,
      prefix: v.prefix,
      region: v.region,
    };
    const input: AddTierInput = type === "s3"
      ? {
        type,
        s3: { ...common, accesskey: v.accesskey, secretkey: v.secretkey, storageclass: v.storageclass },
      }
      : type === "gcs"
      ? { type, gcs: { ...common, creds: v.creds } }
      : { type, azure: { ...common, accountname: v.accountname, accountkey: v.accountkey } };
    await action.run(async () => {
      await settingsApi.addTier(input);
      onSaved();
    });
  }
  return (
    <div className="bg-base-100 rounded-box p-4 max-w-3xl">
      <h2 className="text-xl font-bold mb-4">{t("settings.tiers.addTitle", { provider: label })}</h2>
      <MessageBar message={action.message} onDone={action.clear} />
      {field("name", t("common.word.name"))}
      {field("endpoint", t("settings.tiers.endpoint"))}
      {kind === "gcs"
        ? (
          <CredsFile
            error={touched.creds ? errorOf("creds") || undefined : undefined}
            onChange={(creds) => (setV({ ...v, creds }), setTouched((t) => ({ ...t, creds: true })))}
          />
        )
        : kind === "azure"
        ? (
          <>
            {field("accountname", t("settings.tiers.accountName"))}
            {field("accountkey", t("settings.tiers.accountKey"), "password")}
          </>
        )
        : (
          <>
            {field("accesskey", t("settings.tiers.accessKey"))}
            {field("secretkey", t("settings.tiers.secretKey"), "password")}
          </>
        )}
      {field("bucket", t("settings.tiers.bucket"))}
      {field("prefix", t("settings.tiers.prefix"))}
      {field("region", t("settings.tiers.region"))}
      {kind === "s3" ? field("storageclass", t("settings.tiers.storageClass")) : null}
      <div className="flex justify-end mt-4">
        <button type="button" className="btn btn-primary" disabled={!valid || action.busy} onClick={save}>
          {t("common.action.save")}
        </button>
      </div>
    </div>
  );
}

/** 'Update Credentials - {type} / {name}' (spec 2 Tiers). */
export function TierCredentialsDialog(
  { tier, onClose, onSaved }: { tier: TierView; onClose: () => void; onSaved: () => void },
) {
  const name = (tier[tier.type] as { name?: string } | undefined)?.name ?? "";
  const [access, setAccess] = useState("");
  const [secret, setSecret] = useState("");
  const [creds, setCreds] = useState("");
  const action = useDialogAction();
  const isGcs = tier.type === "gcs";
  const valid = isGcs ? creds !== "" : access.trim() !== "" && secret.trim() !== "";
  const labels = tier.type === "azure"
    ? [t("settings.tiers.accountName"), t("settings.tiers.accountKey")]
    : [t("settings.tiers.accessKey"), t("settings.tiers.secretKey")];
  return (
    <Dialog
      title={t("settings.tiers.updateCredentials", { type: tier.type, name })}
      open
      onClose={onClose}
      message={name ? action.message : { message: contractText(TIER_INFO_ERROR), type: "error" }}
      onMessageDone={action.clear}
      primary={{
        label: t("common.action.save"),
        disabled: !name || !valid || action.busy,
        onClick: () =>
          action.run(
            async () => (await settingsApi.setTierCredentials(
              tier.type,
              name,
              isGcs ? { creds } : { access_key: access, secret_key: secret },
            ),
              onSaved()),
          ),
      }}
    >
      {isGcs ? <CredsFile onChange={setCreds} /> : (
        <>
          <TextField label={`${labels[0]} *`} value={access} onChange={setAccess} />
          <TextField
            label={`${labels[1]} *`}
            type="password"
            value={secret}
            autoComplete="new-password"
            onChange={setSecret}
          />
        </>
      )}
    </Dialog>
  );
}
