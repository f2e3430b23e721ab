/** Small form parts shared by every dialog and page: labelled inputs, switches, searchable check lists. */
import { type ReactNode, useState } from "react";
import { t } from "../lib/i18n/t.ts";

export function TextField(
  { label, value, onChange, type = "text", readOnly, placeholder, error, autoComplete, name, disabled, min }:
    {
      label: string;
      value: string;
      onChange?: (value: string) => void;
      type?: string;
      readOnly?: boolean;
      placeholder?: string;
      error?: string;
      autoComplete?: string;
      name?: string;
      disabled?: boolean;
      /** Lower bound of a number field. */
      min?: string;
    },
) {
  return (
    <label className="form-control w-full mb-3 block">
      <span className="label-text block mb-1 text-sm font-bold">{label}</span>
      <input
        className={`input w-full border-base-300 ${error ? "input-error" : ""}`}
        type={type}
        value={value}
        name={name}
        readOnly={readOnly}
        disabled={disabled}
        min={min}
        placeholder={placeholder}
        autoComplete={autoComplete ?? "off"}
        aria-label={label}
        onChange={(e) => onChange?.(e.target.value)}
      />
      {error ? <span className="text-error text-sm mt-1 block" role="alert">{error}</span> : null}
    </label>
  );
}

export function Switch({ label, checked, onChange, description, disabled }: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  description?: ReactNode;
  /** Locked by another setting (the description says why). */
  disabled?: boolean;
}) {
  return (
    <label className="flex items-center gap-3 mb-3 cursor-pointer">
      <input
        type="checkbox"
        className="toggle toggle-primary"
        checked={checked}
        disabled={disabled}
        aria-label={label}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        <span className="font-bold text-sm">{label}</span>
        {description ? <span className="block text-xs text-base-content/70">{description}</span> : null}
      </span>
    </label>
  );
}

export function SearchBox(
  { placeholder, value, onChange }: { placeholder: string; value: string; onChange: (value: string) => void },
) {
  return (
    <input
      type="search"
      className="input input-sm border-base-300 w-64"
      placeholder={placeholder}
      aria-label={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      // A filter never submits the dialog it sits in.
      onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
    />
  );
}

/** A searchable list of names with checkboxes (group, policy and member pickers). */
export function CheckList({ label, options, selected, onChange, emptyText }: {
  label: string;
  /** Null while the options load. */
  options: string[] | null;
  selected: string[];
  onChange: (selected: string[]) => void;
  emptyText: string;
}) {
  const [filter, setFilter] = useState("");
  const shown = (options ?? []).filter((o) => o.toLowerCase().includes(filter.toLowerCase()));
  const toggle = (name: string) =>
    onChange(selected.includes(name) ? selected.filter((s) => s !== name) : [...selected, name]);
  return (
    <fieldset className="mb-3">
      <legend className="text-sm font-bold mb-1">{label}</legend>
      {(options?.length ?? 0) > 8
        ? (
          <SearchBox
            placeholder={t("common.field.filterLabel", { label })}
            value={filter}
            onChange={setFilter}
          />
        )
        : null}
      <div className="max-h-48 overflow-y-auto border border-base-300 rounded mt-1 p-2">
        {shown.length === 0
          ? (
            <p className="text-sm text-base-content/60" role="status">
              {options ? emptyText : t("common.word.loading")}
            </p>
          )
          : null}
        {shown.map((name) => (
          <label key={name} className="flex items-center gap-2 py-0.5 cursor-pointer text-sm">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={selected.includes(name)}
              aria-label={name}
              onChange={() =>
                toggle(name)}
            />
            <span className="break-all">{name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Tabs as buttons; the active tab is marked for screen readers. */
export function Tabs<T extends string>({ tabs, active, onChange, vertical, label }: {
  tabs: { id: T; label: string; disabled?: boolean }[];
  active: T;
  onChange: (id: T) => void;
  vertical?: boolean;
  label?: string;
}) {
  return (
    <div
      role="tablist"
      aria-label={label}
      className={`tabs ${vertical ? "tabs-box lg:flex-col lg:items-stretch lg:w-48" : "tabs-border"} mb-4`}
    >
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={tab.id === active}
          disabled={tab.disabled}
          className={`tab ${tab.id === active ? "tab-active" : ""}`}
          onClick={() => onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

export function SelectField<T extends string>({ label, value, options, onChange, disabled }: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  disabled?: boolean;
}) {
  return (
    <label className="form-control w-full mb-3 block">
      <span className="label-text block mb-1 text-sm font-bold">{label}</span>
      <select
        className="select w-full border-base-300"
        aria-label={label}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </label>
  );
}

/** A number with a unit picker side by side (quota size, bandwidth, retention validity). */
export function NumberWithUnit<U extends string>(
  { label, value, onChange, unit, units, onUnitChange, min = 0, step, error }: {
    label: string;
    value: string;
    onChange: (value: string) => void;
    unit: U;
    units: readonly { value: U; label: string }[];
    onUnitChange: (unit: U) => void;
    min?: number;
    /** "any" allows fractions (1.5 KiB). */
    step?: number | "any";
    error?: string;
  },
) {
  return (
    <div className="mb-3">
      <span className="block mb-1 text-sm font-bold">{label}</span>
      <div className="join w-full">
        <input
          type="number"
          min={min}
          step={step}
          className={`input join-item flex-1 border-base-300 ${error ? "input-error" : ""}`}
          aria-label={label}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
        <select
          className="select join-item w-32 border-base-300"
          aria-label={t("common.field.unit", { label })}
          value={unit}
          onChange={(e) => onUnitChange(e.target.value as U)}
        >
          {units.map((u) => <option key={u.value} value={u.value}>{u.label}</option>)}
        </select>
      </div>
      {error ? <span className="text-error text-sm mt-1 block" role="alert">{error}</span> : null}
    </div>
  );
}
