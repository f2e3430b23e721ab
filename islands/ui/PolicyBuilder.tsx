/**
 * The visual policy builder: the statements of the policy text as rows to edit by choosing (effect, actions,
 * resources, conditions), over the same text the JSON editor edits. The builder reads the text on every change
 * and writes it back on every edit of its own, so either view shows the other's changes at once; parts it
 * cannot show are kept as written, and it names them. The same validator as the JSON editor's marks each
 * statement's problems.
 */
import { problemText } from "../lib/policy/problems.ts";
import { t } from "../lib/i18n/t.ts";
import { useEffect, useMemo, useState } from "react";
import { checkPolicy, problemsByStatement } from "../../server/lib/policy/validate.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import {
  hiddenParts,
  newStatement,
  parsePolicy,
  policyText,
  type PolicyView,
  type StatementView,
} from "../lib/policy/document.ts";
import { PolicyStatement } from "./PolicyStatement.tsx";

/** The builder's texts, looked up when shown (in the language in force). */
const TEXT = {
  problem: (line: number, message: string) =>
    t("iam.builder.problem", { line: String(line), message: problemText(message) }),
  get title() {
    return t("iam.builder.title");
  },
  cannot: (reason: string) => t("iam.builder.cannot", { reason }),
  get hidden() {
    return t("iam.builder.hidden");
  },
  hiddenPart: (field: string, reason: string) => t("iam.builder.hiddenPart", { field, reason }),
  get problems() {
    return t("iam.builder.problems");
  },
  get add() {
    return t("iam.builder.add");
  },
  get empty() {
    return t("iam.builder.empty");
  },
};

/** An empty policy as the builder starts one. */
const EMPTY = { Version: "2012-10-17", Statement: [] };

export interface PolicyBuilderProps {
  text: string;
  onChange: (text: string) => void;
  /** Opens the Access Check for a statement; without it the builder offers no "What does this allow?". */
  onExplain?: (index: number) => void;
}

export function PolicyBuilder({ text, onChange, onExplain }: PolicyBuilderProps) {
  // An empty editor (after Clear) is a policy with no statements yet, for the builder to start from.
  const source = text.trim() === "" ? JSON.stringify(EMPTY) : text;
  const parsed = useMemo(() => parsePolicy(source), [source]);
  const problems = useMemo(
    () => (text.trim() === "" ? null : problemsByStatement(source, checkPolicy(source).problems)),
    [source],
  );
  const buckets = useBucketNames();
  if (!parsed.ok) {
    return (
      <Frame>
        <p className="text-sm" role="status" data-testid="builder-cannot-show">
          {TEXT.cannot(parsed.reason)}
        </p>
      </Frame>
    );
  }
  const view = parsed.view;
  const write = (next: PolicyView) => onChange(policyText(next));
  const replace = (index: number, statement: StatementView | null) =>
    write({
      ...view,
      statements: statement
        ? view.statements.map((s, i) => (i === index ? statement : s))
        : view.statements.filter((_, i) => i !== index),
    });
  const hidden = hiddenParts(view);
  return (
    <Frame>
      {hidden.length
        ? (
          <div
            className="alert alert-warning text-sm flex-col items-start gap-1 mb-3"
            data-testid="builder-hidden"
          >
            <span>{TEXT.hidden}</span>
            <ul className="list-disc ml-5">
              {hidden.map((h) => <li key={h.field}>{TEXT.hiddenPart(h.field, h.reason)}</li>)}
            </ul>
          </div>
        )
        : null}
      {problems?.policy.length
        ? (
          <ul className="text-error text-sm mb-3" aria-label={TEXT.problems}>
            {problems.policy.map((p, i) => <li key={i}>{TEXT.problem(p.line, p.message)}</li>)}
          </ul>
        )
        : null}
      {view.statements.length === 0 ? <p className="text-sm mb-3">{TEXT.empty}</p> : null}
      <div className="grid gap-3 mb-3">
        {view.statements.map((statement, i) => (
          <PolicyStatement
            key={i}
            index={i}
            statement={statement}
            problems={problems?.statements[i] ?? []}
            buckets={buckets}
            onChange={(s) => replace(i, s)}
            onRemove={() => replace(i, null)}
            onExplain={onExplain ? () => onExplain(i) : undefined}
          />
        ))}
      </div>
      <button
        type="button"
        className="btn btn-sm"
        onClick={() =>
          write({
            ...view,
            version: view.version || EMPTY.Version,
            statements: [...view.statements, newStatement()],
          })}
      >
        {TEXT.add}
      </button>
    </Frame>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <section className="mb-3 min-w-0" aria-label={TEXT.title} data-testid="policy-builder">
      <h3 className="text-sm font-bold mb-1">{TEXT.title}</h3>
      <div className="border border-base-300 rounded p-3 bg-base-100">{children}</div>
    </section>
  );
}

/** The account's bucket names, read once, for the resource picker; none when they cannot be read. */
function useBucketNames(): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    bucketsApi.list().then((list) => live && setNames(list.map((b) => b.name)), () => {});
    return () => void (live = false);
  }, []);
  return names;
}
