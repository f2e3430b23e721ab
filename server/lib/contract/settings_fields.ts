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

export interface FieldDef {
  name: string;
  label: string;
  type: FieldType;
  required?: boolean;
  tooltip?: string;
  placeholder?: string;
  /** Value a new form starts with (spec 2 §9). */
  default?: string;
  options?: { value: string; label: string }[];
  /** Extra rule; returns the message to show, or "" when the value is fine. */
  check?: (value: string) => string;
}

export const EMPTY_FIELD = "Field cannot be empty";

/** What a secret looks like in a GET answer; sent back unchanged, the stored value is kept. */
export const SECRET_MASK = "********";

export const comment: FieldDef = {
  name: "comment",
  label: "Comment",
  type: "comment",
  tooltip: "You can add a comment to this setting",
  placeholder: "Enter custom notes if any",
};

const isUrl = (value: string, schemes = ["http:", "https:"]) => {
  try {
    return schemes.includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
export const urlCheck = (schemes?: string[]) =>
(
  value: string,
) => (isUrl(value, schemes)
  ? ""
  : `Please enter a valid URL (${(schemes ?? ["http:", "https:"]).map((s) => s + "//").join(" or ")})`);
export const hostPortCheck = (
  value: string,
) => (/^\[?[A-Za-z0-9._:-]+\]?:\d{1,5}$/.test(value) ? "" : "Please enter an address as host:port");
export const durationCheck = (
  value: string,
) => (/^\d+(ms|s|m|h|d)?$/.test(value) ? "" : "Please enter a duration such as 30s, 5m, 1h or 2d");
export const absolutePath = (
  value: string,
) => (value.startsWith("/") ? "" : "Please enter an absolute path, e.g. /home/events");

// ---- Validation (spec 2 §5) ----

/** CSV fields ignore empty entries and are joined with commas (spec 2 §5). */
export const normaliseCsv = (value: string) =>
  value.split(",").map((v) => v.trim()).filter(Boolean).join(",");

/** Checks one field; "" when fine. */
export function fieldError(field: FieldDef, raw: string): string {
  const value = field.type === "csv" ? normaliseCsv(raw) : field.type === "comment" ? raw : raw.trim();
  if (value === "") return field.required ? EMPTY_FIELD : "";
  if (value === SECRET_MASK && field.type === "password") return "";
  if (field.type === "number" && !/^\d+$/.test(value)) return "Please enter a whole number";
  if (field.type === "on|off" && value !== "on" && value !== "off") return "Please choose on or off";
  if (
    (field.type === "select" || field.type === "radio") && field.options &&
    !field.options.some((o) => o.value === value)
  ) return "Please choose one of the options";
  return field.check?.(value) ?? "";
}

/**
 * Validates a whole form: returns the key-values to save (empty values dropped, CSV normalised) or the
 * message of every bad field. A form with any bad field is refused whole.
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
