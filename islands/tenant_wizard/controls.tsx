/** Form parts the wizard pages share: radio choices and certificate/key file pickers with their type rules. */
import { useState } from "react";
import { CERT_EXTENSIONS, KEY_EXTENSIONS } from "../../server/lib/contract/operator_rules.ts";
import { t } from "../lib/i18n/t.ts";
import type { FileValue } from "./state.ts";

export function RadioGroup<T extends string>(
  { label, value, options, onChange }: {
    label: string;
    value: T;
    options: readonly { value: T; label: string }[];
    onChange: (value: T) => void;
  },
) {
  return (
    <fieldset className="mb-4">
      <legend className="text-sm font-bold mb-1">{label}</legend>
      <div className="flex flex-wrap gap-4">
        {options.map((o) => (
          <label key={o.value} className="flex items-center gap-2 cursor-pointer">
            <input
              type="radio"
              className="radio radio-sm radio-primary"
              name={label}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              aria-label={o.label}
            />
            <span className="text-sm">{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * A certificate (.cer, .crt, .cert, .pem) or key (.key, .pem) file, read as base64 in the browser (spec 3 §5);
 * a file of another type is refused with a message and not kept.
 */
export function FileField(
  { label, kind, value, onChange }: {
    label: string;
    kind: "cert" | "key";
    value: FileValue;
    onChange: (value: FileValue) => void;
  },
) {
  const [error, setError] = useState("");
  const allowed = kind === "cert" ? CERT_EXTENSIONS : KEY_EXTENSIONS;
  async function handleFile(file: File | undefined) {
    if (!file) return;
    if (!allowed.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      setError(t("wizard.file.onlyTypes", { extensions: allowed.join(", ") }));
      return;
    }
    setError("");
    onChange({ name: file.name, value: new Uint8Array(await file.arrayBuffer()).toBase64() });
  }
  return (
    <div className="mb-3">
      <span className="block mb-1 text-sm font-bold">{label}</span>
      <div className="flex items-center gap-2">
        <input
          type="file"
          className="file-input file-input-sm border-base-300 w-full max-w-xs"
          accept={allowed.join(",")}
          aria-label={label}
          onChange={(e) => handleFile(e.target.files?.[0])}
        />
        {value.name
          ? <span className="text-xs wrap-anywhere" data-testid="chosen-file">{value.name}</span>
          : null}
        {value.name
          ? (
            <button
              type="button"
              className="btn btn-ghost btn-xs"
              aria-label={t("wizard.file.clear", { label })}
              onClick={() => onChange({ name: "", value: "" })}
            >
              ✕
            </button>
          )
          : null}
      </div>
      {error ? <span className="text-error text-sm mt-1 block" role="alert">{error}</span> : null}
    </div>
  );
}

/** A titled block inside a page. */
export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mb-4">
      <h3 className="font-bold mb-2">{title}</h3>
      {children}
    </section>
  );
}
