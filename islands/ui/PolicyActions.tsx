/**
 * A statement's actions in the policy builder: the chosen ones as chips, a search over every action the policy
 * engine knows (grouped: S3 buckets and objects, admin, KMS), wildcard patterns such as `s3:Get*`, and whether
 * the statement names these actions or every action except them (NotAction).
 */
import { t } from "../lib/i18n/t.ts";
import { useId, useState } from "react";
import { expandActions, isActionPattern, searchActions } from "../lib/policy/catalog.ts";
import { Chips } from "./Chips.tsx";

/** The action picker's texts, looked up when shown (in the language in force). */
const TEXT = {
  get legend() {
    return t("iam.actions.legend");
  },
  get mode() {
    return t("iam.actions.mode");
  },
  get these() {
    return t("iam.actions.these");
  },
  get except() {
    return t("iam.actions.except");
  },
  get chosen() {
    return t("iam.actions.chosen");
  },
  get none() {
    return t("iam.actions.none");
  },
  get search() {
    return t("iam.actions.search");
  },
  get searchHint() {
    return t("iam.actions.searchHint");
  },
  get browse() {
    return t("iam.actions.browse");
  },
  addPattern: (pattern: string, count: number) => t("iam.actions.addPattern", { pattern, count }),
  get nothing() {
    return t("iam.actions.nothing");
  },
};

export type ActionField = "Action" | "NotAction";

export function PolicyActions(
  { field, actions, onChange }: {
    field: ActionField;
    actions: string[];
    onChange: (field: ActionField, actions: string[]) => void;
  },
) {
  const [query, setQuery] = useState("");
  const trimmed = query.trim();
  const toggle = (action: string) =>
    onChange(field, actions.includes(action) ? actions.filter((a) => a !== action) : [...actions, action]);
  const groups = (
    <ActionGroups
      groups={searchActions(trimmed)}
      chosen={actions}
      onToggle={toggle}
    />
  );
  const pattern = isActionPattern(trimmed) && !actions.includes(trimmed) ? trimmed : null;
  return (
    <fieldset className="mb-3">
      <legend className="text-sm font-bold mb-1">{TEXT.legend}</legend>
      <label className="flex items-center gap-2 text-sm mb-2">
        {TEXT.mode}
        <select
          className="select select-sm border-base-300 w-auto"
          value={field}
          onChange={(e) => onChange(e.target.value as ActionField, actions)}
        >
          <option value="Action">{TEXT.these}</option>
          <option value="NotAction">{TEXT.except}</option>
        </select>
      </label>
      <Chips
        label={TEXT.chosen}
        items={actions}
        onRemove={(i) => onChange(field, actions.filter((_, j) => j !== i))}
      />
      {actions.length === 0 ? <p className="text-sm text-base-content/70 mb-2">{TEXT.none}</p> : null}
      <input
        type="search"
        className="input input-sm border-base-300 w-full"
        placeholder={TEXT.searchHint}
        aria-label={TEXT.search}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter") return;
          // Enter adds a typed pattern, or the one action the search leaves; it never submits the dialog.
          e.preventDefault();
          const only = searchActions(trimmed).flatMap((g) => g.actions);
          if (pattern) onChange(field, [...actions, pattern]);
          else if (only.length === 1 && !actions.includes(only[0])) onChange(field, [...actions, only[0]]);
          else return;
          setQuery("");
        }}
      />
      {pattern
        ? (
          <button
            type="button"
            className="btn btn-xs mt-1"
            onClick={() => (onChange(field, [...actions, pattern]), setQuery(""))}
          >
            {TEXT.addPattern(pattern, expandActions([pattern]).length)}
          </button>
        )
        : null}
      {trimmed ? groups : (
        <details className="mt-1">
          <summary className="cursor-pointer text-sm">{TEXT.browse}</summary>
          {groups}
        </details>
      )}
    </fieldset>
  );
}

function ActionGroups(
  { groups, chosen, onToggle }: {
    groups: ReturnType<typeof searchActions>;
    chosen: string[];
    onToggle: (action: string) => void;
  },
) {
  const id = useId();
  if (groups.length === 0) {
    return <p className="text-sm text-base-content/70 mt-1" data-testid="empty-message">{TEXT.nothing}</p>;
  }
  return (
    <div className="max-h-56 overflow-y-auto border border-base-300 rounded mt-1 px-2 pb-2">
      {groups.map((group, i) => (
        <div key={group.label} role="group" aria-labelledby={`${id}-${i}`}>
          <div
            id={`${id}-${i}`}
            className="sticky top-0 bg-base-100 text-xs font-bold uppercase tracking-wide pt-2 pb-1"
          >
            {group.label}
          </div>
          <div className="grid grid-cols-[repeat(auto-fill,minmax(17rem,1fr))] gap-x-3">
            {group.actions.map((action) => (
              <label key={action} className="flex items-center gap-2 py-0.5 text-sm cursor-pointer min-w-0">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={chosen.includes(action)}
                  onChange={() =>
                    onToggle(action)}
                />
                <span className="font-mono wrap-anywhere">{action}</span>
              </label>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
