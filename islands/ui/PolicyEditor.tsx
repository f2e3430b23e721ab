/**
 * A policy edited two ways side by side: the visual builder and the JSON editor, over one text, so an edit in
 * either shows in the other at once. Side by side on wide screens, the builder above the JSON on narrow ones.
 */
import { PolicyBuilder } from "./PolicyBuilder.tsx";
import { JsonEditor } from "./JsonEditor.tsx";

export function PolicyEditor(
  { label, text, onChange, onExplain, rows = 20 }: {
    /** The JSON editor's label ("Write Policy", "Policy JSON"). */
    label: string;
    text: string;
    onChange: (text: string) => void;
    onExplain?: (index: number) => void;
    rows?: number;
  },
) {
  return (
    <div className="grid gap-4 xl:grid-cols-2 items-start">
      <PolicyBuilder text={text} onChange={onChange} onExplain={onExplain} />
      <div className="min-w-0 xl:sticky xl:top-0">
        <JsonEditor label={label} value={text} onChange={onChange} mode="policy" rows={rows} />
      </div>
    </div>
  );
}
