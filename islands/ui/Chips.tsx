/** A short list of chosen values shown as chips, each with its own remove button (actions, resources, values). */
import { t } from "../lib/i18n/t.ts";

export function Chips(
  { label, items, onRemove, describe }: {
    /** Names the list for assistive technology. */
    label: string;
    items: (string | number | boolean)[];
    onRemove?: (index: number) => void;
    /** A line under a chip saying what it means ("every object in bucket photos"). */
    describe?: (item: string) => string;
  },
) {
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1 mb-2" aria-label={label}>
      {items.map((item, i) => (
        <li
          key={`${i}:${item}`}
          className="inline-flex items-start gap-1 rounded border border-base-300 bg-base-200/60 px-2 py-0.5 text-sm max-w-full"
        >
          <span className="min-w-0">
            <span className="font-mono wrap-anywhere">{String(item)}</span>
            {describe
              ? <span className="block text-xs text-base-content/70">{describe(String(item))}</span>
              : null}
          </span>
          {onRemove
            ? (
              <button
                type="button"
                className="btn btn-ghost btn-xs btn-square -mr-1"
                aria-label={t("common.chips.remove", { item: String(item) })}
                title={t("common.action.remove")}
                onClick={() => onRemove(i)}
              >
                ✕
              </button>
            )
            : null}
        </li>
      ))}
    </ul>
  );
}
