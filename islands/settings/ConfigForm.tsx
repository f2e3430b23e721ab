/**
 * A Settings form over a list of field definitions: values start from the stored ones (or the spec's
 * defaults), each field is checked as the user leaves it and all of them on Save, with the same rules the
 * console server applies again (server/lib/contract/settings_forms.ts). Postgres and MySQL forms build their
 * connection string from separate fields or take it typed by hand (spec 2 §4).
 */
import { type ReactNode, useState } from "react";
import {
  type DbFields,
  type FieldDef,
  fieldError,
  mysqlDsn,
  parseMysqlDsn,
  parsePostgresConnectionString,
  POSTGRES_SSL_MODES,
  postgresConnectionString,
  validateFields,
} from "../../server/lib/contract/settings_fields.ts";
import type { KeyValue } from "../lib/api/settings.ts";
import { t } from "../lib/i18n/t.ts";
import { MessageBar, useDialogAction } from "../ui/Dialog.tsx";
import { FormField } from "./FormField.tsx";
import { contractText, withLabel } from "./texts.ts";

export interface ConfigFormProps {
  fields: FieldDef[];
  /** Stored values (secrets arrive masked). */
  initial?: Record<string, string>;
  /** "postgres" or "mysql": the connection field is built from separate fields unless typed by hand. */
  connection?: "postgres" | "mysql";
  submitLabel?: string;
  onSubmit: (keyValues: KeyValue[]) => Promise<void>;
  /** Buttons shown left of Save (Back). */
  actions?: ReactNode;
}

const CONNECTION_FIELD = { postgres: "connection_string", mysql: "dsn_string" } as const;

function DbConnection(
  { kind, value, error, onChange }: {
    kind: "postgres" | "mysql";
    value: string;
    error?: string;
    onChange: (v: string) => void;
  },
) {
  const parse = kind === "postgres" ? parsePostgresConnectionString : parseMysqlDsn;
  const build = kind === "postgres" ? postgresConnectionString : mysqlDsn;
  const [manual, setManual] = useState(false);
  const [parts, setParts] = useState<DbFields>(() => ({
    ...parse(value),
    ...(kind === "postgres" && !value ? { port: "5432" } : {}),
    ...(kind === "mysql" && !value ? { port: "3306" } : {}),
  }));
  const set = (name: keyof DbFields, v: string) => {
    const next = { ...parts, [name]: v };
    setParts(next);
    onChange(build(next));
  };
  const label = kind === "postgres"
    ? t("settings.target.postgres.connectionString.label")
    : t("settings.target.mysql.dsnString.label");
  const enter = withLabel("settings.field.enterLabel", label);
  const partLabel = {
    host: t("settings.form.host"),
    dbname: t("settings.form.dbName"),
    user: t("settings.form.user"),
    password: t("settings.form.password"),
    port: t("settings.form.port"),
  };
  return (
    <div className="mb-3">
      <label className="flex items-center gap-3 cursor-pointer mb-3">
        <input
          type="checkbox"
          className="toggle toggle-primary"
          checked={manual}
          aria-label={enter}
          onChange={(e) => {
            // Leaving manual mode reads the typed string back into the fields (spec 2 §4).
            if (!e.target.checked) setParts(parse(value));
            setManual(e.target.checked);
          }}
        />
        <span className="font-bold text-sm">{enter}</span>
      </label>
      {manual
        ? (
          <label className="block">
            <span className="block mb-1 text-sm font-bold">{label} *</span>
            <input
              className={`input w-full border-base-300 ${error ? "input-error" : ""}`}
              aria-label={label}
              value={value}
              autoComplete="off"
              onChange={(e) => onChange(e.target.value)}
            />
          </label>
        )
        : (
          <div className="grid grid-cols-1 md:grid-cols-2 gap-x-4">
            {(["host", "dbname", "user", "password", "port"] as const).map((name) => (
              <label key={name} className="block mb-2">
                <span className="block mb-1 text-sm font-bold">{partLabel[name]}</span>
                <input
                  className="input w-full border-base-300"
                  type={name === "password" ? "password" : name === "port" ? "number" : "text"}
                  autoComplete={name === "password" ? "new-password" : "off"}
                  aria-label={partLabel[name]}
                  value={parts[name]}
                  onChange={(e) =>
                    set(name, e.target.value)}
                />
              </label>
            ))}
            {kind === "postgres"
              ? (
                <label className="block mb-2">
                  <span className="block mb-1 text-sm font-bold">{t("settings.form.sslMode")}</span>
                  <select
                    className="select w-full border-base-300"
                    aria-label={t("settings.form.sslMode")}
                    value={parts.sslmode}
                    onChange={(e) => set("sslmode", e.target.value)}
                  >
                    {POSTGRES_SSL_MODES.map((m) => (
                      <option key={m} value={m}>{m || t("settings.target.notSet")}</option>
                    ))}
                  </select>
                </label>
              )
              : null}
          </div>
        )}
      {error
        ? <span className="text-error text-sm mt-1 block" role="alert">{contractText(error)}</span>
        : null}
    </div>
  );
}

export function ConfigForm(
  { fields, initial = {}, connection, submitLabel, onSubmit, actions }: ConfigFormProps,
) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, initial[f.name] ?? f.default ?? ""]))
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const action = useDialogAction();
  const connectionField = connection ? CONNECTION_FIELD[connection] : undefined;
  const check = (field: FieldDef, value: string) =>
    setErrors((e) => ({ ...e, [field.name]: fieldError(field, value) }));
  const change = (field: FieldDef, value: string) => {
    setValues((v) => ({ ...v, [field.name]: value }));
    if (errors[field.name]) check(field, value);
  };
  async function submit() {
    const { keyValues, errors: found } = validateFields(fields, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    await action.run(async () => {
      try {
        await onSubmit(keyValues);
      } catch (error) {
        const fieldErrors = (error as { fields?: Record<string, string> }).fields;
        if (fieldErrors) setErrors(fieldErrors);
        throw error;
      }
    });
  }
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <MessageBar message={action.message} onDone={action.clear} />
      {fields.map((field) =>
        field.name === connectionField
          ? (
            <DbConnection
              key={field.name}
              kind={connection!}
              value={values[field.name]}
              error={errors[field.name]}
              onChange={(v) => change(field, v)}
            />
          )
          : (
            <FormField
              key={field.name}
              field={field}
              value={values[field.name]}
              error={errors[field.name]}
              onChange={(v) => change(field, v)}
              onBlur={() => check(field, values[field.name])}
            />
          )
      )}
      <div className="flex flex-wrap justify-end gap-2 mt-4">
        {actions}
        <button type="submit" className="btn btn-primary" disabled={action.busy}>
          {submitLabel ?? t("common.action.save")}
        </button>
      </div>
    </form>
  );
}
