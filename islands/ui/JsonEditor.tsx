/**
 * The JSON editor (policy documents, service-account restrictions): a textarea over a syntax-highlighted copy
 * of its text, a line-number gutter that marks lines with problems, and the problems listed under it. In
 * policy mode the text is checked with the same validator the server runs before saving.
 */
import { type ReactNode, useMemo, useRef } from "react";
import { checkPolicy, type PolicyProblem } from "../../server/lib/policy/validate.ts";
import { problemText } from "../lib/policy/problems.ts";
import { t } from "../lib/i18n/t.ts";

const TOKEN = /("(?:\\.|[^"\\])*"\s*:?)|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])/g;
/** Ends the overlay like the textarea: a trailing newline there still takes a line. */
const NEWLINE = "\n";

/** Highlighted spans for JSON text; anything unrecognised is kept as plain text. */
export function highlightJson(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const cls = m[1]
      ? (m[1].trimEnd().endsWith(":") ? "text-primary" : "text-success")
      : m[2]
      ? "text-warning"
      : m[3]
      ? "text-secondary"
      : "text-base-content/70";
    out.push(<span key={m.index} className={cls}>{m[0]}</span>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Problems of a JSON text: syntax only, or the full policy grammar. */
export function jsonProblems(text: string, mode: "json" | "policy"): PolicyProblem[] {
  if (!text.trim()) return [];
  if (mode === "policy") return checkPolicy(text).problems;
  try {
    JSON.parse(text);
    return [];
  } catch (error) {
    return [{ message: error instanceof Error ? error.message : String(error), line: 1, column: 1 }];
  }
}

export interface JsonEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  mode?: "json" | "policy";
  rows?: number;
  readOnly?: boolean;
}

export function JsonEditor(
  { label, value, onChange, mode = "policy", rows = 16, readOnly }: JsonEditorProps,
) {
  const problems = useMemo(() => jsonProblems(value, mode), [value, mode]);
  const pre = useRef<HTMLPreElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lines = value.split("\n").length;
  const badLines = new Map<number, string>();
  for (const p of problems) if (!badLines.has(p.line)) badLines.set(p.line, problemText(p.message));
  const height = `${rows * 1.5}rem`;
  return (
    <div className="mb-3" data-testid="json-editor">
      <div className="text-sm font-bold mb-1">{label}</div>
      <div
        className="flex border border-base-300 rounded font-mono text-sm leading-6 bg-base-200/40"
        style={{ height }}
      >
        <div
          ref={gutter}
          className="overflow-hidden select-none text-right px-2 py-2 text-base-content/70 border-r border-base-300"
          aria-hidden="true"
        >
          {Array.from(
            { length: lines },
            (_, i) => (
              <div
                key={i}
                className={badLines.has(i + 1) ? "text-error font-bold" : undefined}
                title={badLines.get(i + 1)}
                data-error-line={badLines.has(i + 1) ? i + 1 : undefined}
              >
                {badLines.has(i + 1) ? "● " : ""}
                {i + 1}
              </div>
            ),
          )}
        </div>
        <div className="relative flex-1 overflow-hidden">
          <pre
            ref={pre}
            className="absolute inset-0 m-0 p-2 overflow-hidden whitespace-pre pointer-events-none"
            aria-hidden="true"
          >{highlightJson(value)}{NEWLINE}</pre>
          <textarea
            className="absolute inset-0 w-full h-full p-2 m-0 resize-none bg-transparent text-transparent caret-base-content whitespace-pre outline-none overflow-auto"
            spellCheck={false}
            wrap="off"
            aria-label={label}
            aria-invalid={problems.length > 0}
            readOnly={readOnly}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onScroll={(e) => {
              if (pre.current) {
                (pre.current.scrollTop = e.currentTarget.scrollTop),
                  (pre.current.scrollLeft = e.currentTarget.scrollLeft);
              }
              if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
            }}
          />
        </div>
      </div>
      {problems.length
        ? (
          <ul className="text-error text-sm mt-1" data-testid="json-problems">
            {problems.slice(0, 5).map((p, i) => (
              <li key={i}>
                {t("common.json.problem", {
                  line: String(p.line),
                  column: String(p.column),
                  message: problemText(p.message),
                })}
              </li>
            ))}
          </ul>
        )
        : null}
    </div>
  );
}
