/**
 * The parts every Settings form is built from (spec 2 §3, §5): field types, the checks fields share, and the
 * one validation both the browser (as the user types) and the console server (before anything reaches the
 * storage) run, so the rules cannot drift apart. The forms themselves are in settings_forms.ts and
 * settings_targets.ts.
 */

export type FieldType =
  | "string"
  | "password"
  | "number"
  | "on|off"
  | "csv"
  | "duration"
  | "comment"
  | "select"
  | "radio";

/**
 * One field of a form. Its texts are message keys of the settings catalogue (islands/lib/i18n/<locale>/
 * settings.ts), looked up where they are shown, in the language of the page or request; the contract itself
 * holds no language. The config key (`name`) is never translated.
 */
export interface FieldDef {
  name: string;
  /** Message key of the label. */
  label: string;
  type: FieldType;
  required?: boolean;
  /** Message key of the help text shown under the field. */
  tooltip?: string;
  /** Message key of the placeholder; a `{label}` in its text stands for the field's label. */
  placeholder?: string;
  /** A placeholder that is an example value (an address, a DN): shown as it is, in every language. */
  example?: string;
  /** Value a new form starts with (spec 2 §9). */
  default?: string;
  /** The choices; `label` is a message key, and a choice without one shows its value (an AMQP keyword). */
  options?: { value: string; label?: string }[];
  /** Extra rule; returns the message key of the problem, or "" when the value is fine. */
  check?: (value: string) => string;
}

/** Message keys of the problems the checks report (shown by the form, sent by the console server). */
export const EMPTY_FIELD = "settings.validation.empty";

/** The placeholder of a plain text or secret field: "Enter {label}". */
export const ENTER_LABEL = "settings.field.enterLabel";

/** What a secret looks like in a GET answer; sent back unchanged, the stored value is kept. */
export const SECRET_MASK = "********";

export const comment: FieldDef = {
  name: "comment",
  label: "settings.field.comment.label",
  type: "comment",
  tooltip: "settings.field.comment.help",
  placeholder: "settings.field.comment.placeholder",
};

const isUrl = (value: string, schemes = ["http:", "https:"]) => {
  try {
    return schemes.includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
/** A URL of one of the schemes (http and https by default); `message` names the schemes for the user. */
export const urlCheck = (schemes?: string[], message = "settings.validation.url") =>
(
  value: string,
) => (isUrl(value, schemes) ? "" : message);
export const hostPortCheck = (
  value: string,
) => (/^\[?[A-Za-z0-9._:-]+\]?:\d{1,5}$/.test(value) ? "" : "settings.validation.hostPort");
export const durationCheck = (
  value: string,
) => (/^\d+(ms|s|m|h|d)?$/.test(value) ? "" : "settings.validation.duration");
export const absolutePath = (
  value: string,
) => (value.startsWith("/") ? "" : "settings.validation.absolutePath");

// ---- Validation (spec 2 §5) ----

/** CSV fields ignore empty entries and are joined with commas (spec 2 §5). */
export const normaliseCsv = (value: string) =>
  value.split(",").map((v) => v.trim()).filter(Boolean).join(",");

/** Checks one field: the message key of its problem, "" when fine. */
export function fieldError(field: FieldDef, raw: string): string {
  const value = field.type === "csv" ? normaliseCsv(raw) : field.type === "comment" ? raw : raw.trim();
  if (value === "") return field.required ? EMPTY_FIELD : "";
  if (value === SECRET_MASK && field.type === "password") return "";
  if (field.type === "number" && !/^\d+$/.test(value)) return "settings.validation.wholeNumber";
  if (field.type === "on|off" && value !== "on" && value !== "off") return "settings.validation.onOff";
  if (
    (field.type === "select" || field.type === "radio") && field.options &&
    !field.options.some((o) => o.value === value)
  ) return "settings.validation.option";
  return field.check?.(value) ?? "";
}

/**
 * Validates a whole form: returns the key-values to save (empty values dropped, CSV normalised) or the
 * message key of every bad field. A form with any bad field is refused whole.
 */
export function validateFields(
  fields: FieldDef[],
  values: Record<string, string>,
): { keyValues: { key: string; value: string }[]; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const keyValues: { key: string; value: string }[] = [];
  for (const field of fields) {
    const raw = values[field.name] ?? "";
    const error = fieldError(field, raw);
    if (error) {
      errors[field.name] = error;
      continue;
    }
    const value = field.type === "csv"
      ? normaliseCsv(raw)
      : field.type === "comment"
      ? raw.trim()
      : raw.trim();
    if (value !== "") keyValues.push({ key: field.name, value });
  }
  return { keyValues, errors };
}

// ---- Postgres and MySQL connection fields (spec 2 §4: separate fields or a manual string) ----

export interface DbFields {
  host: string;
  port: string;
  dbname: string;
  user: string;
  password: string;
  sslmode: string;
}

export const POSTGRES_SSL_MODES = ["", "require", "disable", "verify-ca", "verify-full"];

/** `host=… dbname=… user=… password=… port=… sslmode=…`, empty parts left out. */
export function postgresConnectionString(f: DbFields): string {
  return (["host", "dbname", "user", "password", "port", "sslmode"] as const).filter((k) => f[k].trim()).map((
    k,
  ) => `${k}=${f[k].trim()}`).join(" ");
}

export function parsePostgresConnectionString(text: string): DbFields {
  const out: DbFields = { host: "", port: "", dbname: "", user: "", password: "", sslmode: "" };
  for (const m of text.matchAll(/(\w+)=(\S*)/g)) if (m[1] in out) out[m[1] as keyof DbFields] = m[2];
  return out;
}

/** Go's MySQL DSN: `user:password@tcp(host:port)/dbname`. */
export function mysqlDsn(f: DbFields): string {
  const credentials = f.user ? `${f.user}${f.password ? `:${f.password}` : ""}@` : "";
  return `${credentials}tcp(${f.host}${f.port ? `:${f.port}` : ""})/${f.dbname}`;
}

export function parseMysqlDsn(text: string): DbFields {
  const m = /^(?:([^:@]*)(?::(.*))?@)?(?:tcp)?\(([^)]*)\)\/([^?]*)/.exec(text);
  const [host = "", port = ""] = (m?.[3] ?? "").split(/:(?=\d+$)/);
  return { user: m?.[1] ?? "", password: m?.[2] ?? "", host, port, dbname: m?.[4] ?? "", sslmode: "" };
}
