/**
 * One statement in the policy builder: effect, optional statement ID, actions, resources and conditions, the
 * validator's problems in it, the parts of it the builder cannot show, and "What does this allow?", which
 * opens the Access Check for it.
 */
import { problemText } from "../lib/policy/problems.ts";
import { t } from "../lib/i18n/t.ts";
import type { PolicyProblem } from "../../server/lib/policy/validate.ts";
import type { RawStatement, StatementView } from "../lib/policy/document.ts";
import { PolicyActions } from "./PolicyActions.tsx";
import { PolicyConditions } from "./PolicyConditions.tsx";
import { PolicyResources } from "./PolicyResources.tsx";

/** A statement's texts, looked up when shown (in the language in force). */
const TEXT = {
  problem: (line: number, message: string) =>
    t("iam.builder.problem", { line: String(line), message: problemText(message) }),
  title: (n: number) => t("iam.statement.title", { n: String(n) }),
  get effect() {
    return t("iam.statement.effect");
  },
  get noEffect() {
    return t("iam.statement.noEffect");
  },
  get allow() {
    return t("iam.word.allow");
  },
  get deny() {
    return t("iam.word.deny");
  },
  get sid() {
    return t("iam.statement.sid");
  },
  get explain() {
    return t("iam.statement.explain");
  },
  remove: (n: number) => t("iam.statement.remove", { n: String(n) }),
  get kept() {
    return t("iam.statement.kept");
  },
  raw: (reason: string) => t("iam.statement.raw", { reason }),
};

export function PolicyStatement(
  { index, statement, problems, buckets, onChange, onRemove, onExplain }: {
    index: number;
    statement: StatementView | RawStatement;
    problems: PolicyProblem[];
    buckets: string[];
    onChange: (statement: StatementView) => void;
    onRemove: () => void;
    onExplain?: () => void;
  },
) {
  const n = index + 1;
  const header = (
    <StatementHeader
      n={n}
      onRemove={onRemove}
      onExplain={statement.kind === "statement" ? onExplain : undefined}
    />
  );
  const problemList = <ProblemList problems={problems} />;
  if (statement.kind === "raw") {
    return (
      <section className="border border-base-300 rounded p-3" aria-label={TEXT.title(n)}>
        {header}
        <p className="text-sm">{TEXT.raw(statement.hidden[0]?.reason ?? "")}</p>
        {problemList}
      </section>
    );
  }
  const set = (change: Partial<StatementView>) => onChange({ ...statement, ...change });
  const kept = Object.keys(statement.kept);
  return (
    <section className="border border-base-300 rounded p-3" aria-label={TEXT.title(n)}>
      {header}
      {problemList}
      <div className="flex flex-wrap gap-3 mb-3">
        <label className="text-sm">
          <span className="block mb-1 font-bold">{TEXT.effect}</span>
          {"Effect" in statement.kept
            ? <span className="font-mono" translate="no">{JSON.stringify(statement.kept.Effect)}</span>
            : (
              <select
                className="select select-sm border-base-300 w-auto"
                value={statement.effect ?? ""}
                onChange={(e) => set({ effect: e.target.value as "Allow" | "Deny" })}
              >
                {statement.effect === null ? <option value="" disabled>{TEXT.noEffect}</option> : null}
                <option value="Allow">{TEXT.allow}</option>
                <option value="Deny">{TEXT.deny}</option>
              </select>
            )}
        </label>
        {"Sid" in statement.kept ? null : (
          <label className="text-sm flex-1 min-w-40">
            <span className="block mb-1 font-bold">{TEXT.sid}</span>
            <input
              className="input input-sm border-base-300 w-full"
              value={statement.sid ?? ""}
              onChange={(e) => set({ sid: e.target.value === "" ? null : e.target.value })}
            />
          </label>
        )}
      </div>
      {kept.length
        ? (
          <p className="text-sm mb-2" data-testid="statement-kept">
            {TEXT.kept} {kept.join(", ")}
          </p>
        )
        : null}
      {"Action" in statement.kept || "NotAction" in statement.kept ? null : (
        <PolicyActions
          field={statement.actionField}
          actions={statement.actions ?? []}
          onChange={(actionField, actions) => set({ actionField, actions })}
        />
      )}
      {"Resource" in statement.kept || "NotResource" in statement.kept ? null : (
        <PolicyResources
          field={statement.resourceField}
          resources={statement.resources ?? []}
          buckets={buckets}
          onChange={(resourceField, resources) => set({ resourceField, resources })}
        />
      )}
      {"Condition" in statement.kept ? null : (
        <PolicyConditions
          conditions={statement.conditions ?? []}
          onChange={(conditions) => set({ conditions })}
        />
      )}
    </section>
  );
}

function StatementHeader(
  { n, onRemove, onExplain }: { n: number; onRemove: () => void; onExplain?: () => void },
) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 mb-2">
      <h3 className="font-bold">{TEXT.title(n)}</h3>
      <div className="flex flex-wrap gap-1">
        {onExplain
          ? <button type="button" className="btn btn-xs" onClick={onExplain}>{TEXT.explain}</button>
          : null}
        <button type="button" className="btn btn-xs btn-ghost text-error" onClick={onRemove}>
          {TEXT.remove(n)}
        </button>
      </div>
    </div>
  );
}

/** The validator's problems in this statement, with the JSON line each points at. */
function ProblemList({ problems }: { problems: PolicyProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="text-error text-sm mb-2" data-testid="statement-problems">
      {problems.map((p, i) => <li key={i}>{TEXT.problem(p.line, p.message)}</li>)}
    </ul>
  );
}
