/**
 * Key/value tags (spec 2 §5): a pair counts only when both key and value are filled; a new row can be added
 * only when the last row is filled.
 */
import { tagKeysProblem } from "../../server/lib/contract/buckets.ts";
import { t } from "../lib/i18n/t.ts";

export type TagPair = { key: string; value: string };

const complete = (tags: TagPair[]) => tags.filter((t) => t.key.trim() && t.value.trim());

/** "k1=v1&k2=v2" of the complete pairs. */
export const tagsToString = (tags: TagPair[]) =>
  complete(tags).map((t) => `${encodeURIComponent(t.key.trim())}=${encodeURIComponent(t.value.trim())}`).join(
    "&",
  );

/** Why the tags cannot be saved (a key used twice), or null; dialogs keep Save disabled while it is set. */
export const tagsProblem = (tags: TagPair[]) => tagKeysProblem(complete(tags).map((t) => t.key.trim()));

export function TagEditor({ tags, onChange }: { tags: TagPair[]; onChange: (tags: TagPair[]) => void }) {
  const last = tags[tags.length - 1];
  const problem = tagsProblem(tags);
  const set = (i: number, change: Partial<TagPair>) =>
    onChange(tags.map((t, j) => (j === i ? { ...t, ...change } : t)));
  return (
    <fieldset className="mb-3">
      <legend className="text-sm font-bold mb-1">{t("common.tags.legend")}</legend>
      {tags.map((tag, i) => (
        <div key={i} className="flex gap-2 mb-1">
          <input
            className="input input-sm border-base-300 flex-1"
            placeholder={t("common.tags.keyPlaceholder")}
            aria-label={t("common.tags.keyLabel", { index: String(i + 1) })}
            value={tag.key}
            onChange={(e) => set(i, { key: e.target.value })}
          />
          <input
            className="input input-sm border-base-300 flex-1"
            placeholder={t("common.tags.valuePlaceholder")}
            aria-label={t("common.tags.valueLabel", { index: String(i + 1) })}
            value={tag.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
        </div>
      ))}
      {problem ? <span className="text-error text-sm block mb-1" role="alert">{problem}</span> : null}
      <button
        type="button"
        className="btn btn-xs"
        disabled={!last || !last.key.trim() || !last.value.trim()}
        onClick={() => onChange([...tags, { key: "", value: "" }])}
      >
        {t("common.tags.add")}
      </button>
    </fieldset>
  );
}
