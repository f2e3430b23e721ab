/**
 * A statement's conditions in the policy builder: one row per operator and key (the operators and keys the
 * policy engine supports offered, any key typed), with the values as chips.
 */
import { t } from "../lib/i18n/t.ts";
import { useId, useState } from "react";
import type { ConditionRow } from "../lib/policy/document.ts";
import { CONDITION_KEY_OPTIONS, operatorOptions } from "../lib/policy/catalog.ts";
import { Chips } from "./Chips.tsx";

/** The condition editor's texts, looked up when shown (in the language in force). */
const TEXT = {
  get legend() {
    return t("iam.conditions.legend");
  },
  get none() {
    return t("iam.conditions.none");
  },
  operator: (n: number) => t("iam.conditions.operator", { n: String(n) }),
  key: (n: number) => t("iam.conditions.key", { n: String(n) }),
  get keyHint() {
    return t("iam.conditions.keyHint");
  },
  values: (n: number) => t("iam.conditions.values", { n: String(n) }),
  value: (n: number) => t("iam.conditions.value", { n: String(n) }),
  get valueHint() {
    return t("iam.conditions.valueHint");
  },
  get addValue() {
    return t("iam.conditions.addValue");
  },
  remove: (n: number) => t("iam.conditions.remove", { n: String(n) }),
  get add() {
    return t("iam.conditions.add");
  },
};

export function PolicyConditions(
  { conditions, onChange }: { conditions: ConditionRow[]; onChange: (rows: ConditionRow[] | null) => void },
) {
  const id = useId();
  const set = (i: number, change: Partial<ConditionRow>) =>
    onChange(conditions.map((row, j) => (j === i ? { ...row, ...change } : row)));
  return (
    <fieldset className="mb-1">
      <legend className="text-sm font-bold mb-1">{TEXT.legend}</legend>
      {conditions.length === 0 ? <p className="text-sm text-base-content/70 mb-2">{TEXT.none}</p> : null}
      {conditions.map((row, i) => (
        <div key={i} className="border border-base-300 rounded p-2 mb-2">
          <div className="flex flex-wrap gap-2 mb-2">
            <select
              className="select select-sm border-base-300 w-auto"
              aria-label={TEXT.operator(i + 1)}
              value={row.operator}
              onChange={(e) => set(i, { operator: e.target.value })}
            >
              {operatorOptions(row.operator).map((op) => <option key={op} value={op}>{op}</option>)}
            </select>
            <input
              className="input input-sm border-base-300 flex-1 min-w-40 font-mono"
              list={`${id}-keys`}
              aria-label={TEXT.key(i + 1)}
              placeholder={TEXT.keyHint}
              value={row.key}
              onChange={(e) => set(i, { key: e.target.value })}
            />
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                const rest = conditions.filter((_, j) => j !== i);
                onChange(rest.length ? rest : null);
              }}
            >
              {TEXT.remove(i + 1)}
            </button>
          </div>
          <Chips
            label={TEXT.values(i + 1)}
            items={row.values}
            onRemove={(v) => set(i, { values: row.values.filter((_, j) => j !== v) })}
          />
          <ValueInput
            label={TEXT.value(i + 1)}
            onAdd={(value) => set(i, { values: [...row.values, value], single: false })}
          />
        </div>
      ))}
      <datalist id={`${id}-keys`}>
        {CONDITION_KEY_OPTIONS.map((key) => <option key={key} value={key} />)}
      </datalist>
      <button
        type="button"
        className="btn btn-xs"
        onClick={() =>
          onChange([...conditions, { operator: "StringEquals", key: "", values: [], single: false }])}
      >
        {TEXT.add}
      </button>
    </fieldset>
  );
}

function ValueInput({ label, onAdd }: { label: string; onAdd: (value: string) => void }) {
  const [value, setValue] = useState("");
  const add = () => {
    if (value === "") return;
    onAdd(value);
    setValue("");
  };
  return (
    <div className="flex gap-2">
      <input
        className="input input-sm border-base-300 flex-1 font-mono"
        aria-label={label}
        placeholder={TEXT.valueHint}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), add())}
      />
      <button type="button" className="btn btn-sm" disabled={value === ""} onClick={add}>
        {TEXT.addValue}
      </button>
    </div>
  );
}
