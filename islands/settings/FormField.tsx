/**
 * One Settings form field drawn by its type (spec 2 §3): text and secrets, numbers, on/off switches,
 * comma-separated lists as one input per entry, comments, selects and radio groups. The tooltip text is
 * shown under the field; the error, when there is one, replaces it. Texts are the definition's message keys,
 * shown in the page's language (texts.ts).
 */
import type { FieldDef } from "../../server/lib/contract/settings_fields.ts";
import { contractText, fieldHelp, fieldLabel, fieldPlaceholder, optionLabel } from "./texts.ts";

export interface FormFieldProps {
  field: FieldDef;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
}

const inputId = (name: string) => `settings-field-${name}`;

function Help({ field, error }: { field: FieldDef; error?: string }) {
  if (error) return <span className="text-error text-sm mt-1 block" role="alert">{contractText(error)}</span>;
  return field.tooltip
    ? <span className="text-xs text-base-content/70 mt-1 block">{fieldHelp(field)}</span>
    : null;
}

/** A list typed one entry per input; a new empty input appears once the last one is filled (spec 2 §5). */
function CsvInput({ field, value, error, onChange, onBlur }: FormFieldProps) {
  const label = fieldLabel(field);
  const entries = value ? value.split(",") : [];
  const rows = entries.length === 0 || entries[entries.length - 1].trim() !== "" ? [...entries, ""] : entries;
  const update = (index: number, text: string) => {
    const next = [...rows];
    next[index] = text.replace(/,/g, "");
    onChange(next.filter((entry, i) => entry !== "" || i < next.length - 1).join(","));
  };
  return (
    <fieldset className="mb-3">
      <legend className="text-sm font-bold mb-1">{label}{field.required ? " *" : ""}</legend>
      <div className="flex flex-col gap-1">
        {rows.map((entry, i) => (
          <input
            key={i}
            className={`input input-sm w-full border-base-300 ${error ? "input-error" : ""}`}
            value={entry}
            placeholder={fieldPlaceholder(field)}
            aria-label={`${label} ${i + 1}`}
            onChange={(e) => update(i, e.target.value)}
            onBlur={onBlur}
          />
        ))}
      </div>
      <Help field={field} error={error} />
    </fieldset>
  );
}

export function FormField(props: FormFieldProps) {
  const { field, value, error, onChange, onBlur } = props;
  const name = fieldLabel(field);
  const label = `${name}${field.required ? " *" : ""}`;
  switch (field.type) {
    case "csv":
      return <CsvInput {...props} />;
    case "on|off":
      return (
        <div className="mb-3">
          <label className="flex items-center gap-3 cursor-pointer">
            <input
              type="checkbox"
              className="toggle toggle-primary"
              checked={value === "on"}
              aria-label={name}
              onChange={(e) => onChange(e.target.checked ? "on" : "off")}
            />
            <span className="font-bold text-sm">{name}</span>
          </label>
          <Help field={field} error={error} />
        </div>
      );
    case "radio":
      return (
        <fieldset className="mb-3">
          <legend className="text-sm font-bold mb-1">{label}</legend>
          <div className="flex gap-4">
            {field.options!.map((o) => (
              <label key={o.value} className="flex items-center gap-2 text-sm cursor-pointer">
                <input
                  type="radio"
                  className="radio radio-sm radio-primary"
                  name={inputId(field.name)}
                  checked={value === o.value}
                  onChange={() =>
                    onChange(o.value)}
                />
                {optionLabel(o)}
              </label>
            ))}
          </div>
          <Help field={field} error={error} />
        </fieldset>
      );
    case "select":
      return (
        <label className="block mb-3">
          <span className="block mb-1 text-sm font-bold">{label}</span>
          <select
            className="select w-full border-base-300"
            aria-label={name}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          >
            {field.options!.map((o) => <option key={o.value} value={o.value}>{optionLabel(o)}</option>)}
          </select>
          <Help field={field} error={error} />
        </label>
      );
    case "comment":
      return (
        <label className="block mb-3">
          <span className="block mb-1 text-sm font-bold">{label}</span>
          <textarea
            className="textarea w-full border-base-300"
            rows={2}
            aria-label={name}
            value={value}
            placeholder={fieldPlaceholder(field)}
            onChange={(e) => onChange(e.target.value)}
            onBlur={onBlur}
          />
          <Help field={field} error={error} />
        </label>
      );
    default:
      return (
        <label className="block mb-3">
          <span className="block mb-1 text-sm font-bold">{label}</span>
          <input
            className={`input w-full border-base-300 ${error ? "input-error" : ""}`}
            type={field.type === "password" ? "password" : field.type === "number" ? "number" : "text"}
            min={field.type === "number" ? 0 : undefined}
            value={value}
            placeholder={fieldPlaceholder(field)}
            autoComplete={field.type === "password" ? "new-password" : "off"}
            aria-label={name}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChange(e.target.value)}
            onBlur={onBlur}
          />
          <Help field={field} error={error} />
        </label>
      );
  }
}
