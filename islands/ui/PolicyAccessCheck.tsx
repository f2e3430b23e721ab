/**
 * The policy page's Access Check: "does this policy allow ACTION on RESOURCE?", answered by the policy engine's
 * own evaluator on the policy as edited (saved or not), naming the statement that decided. Opened from a
 * statement's "What does this allow?", it first says in words what that statement covers and checks its first
 * action on its first resource.
 */
import { t } from "../lib/i18n/t.ts";
import { type FormEvent, useEffect, useId, useState } from "react";
import { checkPolicy, type Decision, evaluate } from "../../server/lib/policy/validate.ts";
import { decisionReason, describeResource, expandActions, requestTarget } from "../lib/policy/catalog.ts";
import { parsePolicy, type StatementView } from "../lib/policy/document.ts";
import { TextField } from "./fields.tsx";

/** The Access Check's texts, looked up when shown (in the language in force). */
const TEXT = {
  get intro() {
    return t("iam.access.intro");
  },
  get unsaved() {
    return t("iam.access.unsaved");
  },
  get invalid() {
    return t("iam.access.invalid");
  },
  get problems() {
    return t("iam.access.problems");
  },
  get action() {
    return t("iam.word.action");
  },
  get resource() {
    return t("iam.word.resource");
  },
  get context() {
    return t("iam.access.context");
  },
  get contextHint() {
    return t("iam.access.contextHint");
  },
  get check() {
    return t("iam.word.check");
  },
  get allow() {
    return t("iam.word.allowed");
  },
  get deny() {
    return t("iam.word.denied");
  },
  decidedBy: (n: number, sid?: string) =>
    sid ? t("iam.access.decidedBySid", { n: String(n), sid }) : t("iam.access.decidedBy", { n: String(n) }),
  statementTitle: (n: number) => t("iam.access.statementTitle", { n: String(n) }),
  /** "It allows 3 actions:" / "It denies every action except:". */
  covers: (effect: StatementView["effect"], except: boolean, count: number) =>
    effect === "Deny"
      ? except ? t("iam.access.deniesExcept") : t("iam.access.deniesActions", { count })
      : except
      ? t("iam.access.allowsExcept")
      : t("iam.access.allowsActions", { count }),
  on: (resources: string) => t("iam.access.on", { resources }),
  get noResource() {
    return t("iam.access.noResource");
  },
  anythingBut: (what: string) => t("iam.access.anythingBut", { what }),
  when: (conditions: string) => t("iam.access.when", { conditions }),
  get always() {
    return t("iam.access.always");
  },
};

export interface PolicyAccessCheckProps {
  name: string;
  text: string;
  /** The statement whose "What does this allow?" opened the check. */
  statement: number | null;
  /** The text differs from the saved policy. */
  edited: boolean;
}

export function PolicyAccessCheck({ name, text, statement, edited }: PolicyAccessCheckProps) {
  const check = checkPolicy(text);
  const focus = statementAt(text, statement);
  const [action, setAction] = useState("s3:GetObject");
  const [resource, setResource] = useState("arn:aws:s3:::");
  const [context, setContext] = useState("");
  const [result, setResult] = useState<Decision | null>(null);
  const run = (a: string, r: string) => {
    if (!check.policy) return setResult(null);
    const { bucket, key } = requestTarget(r.trim());
    setResult(evaluate([{ name, policy: check.policy }], {
      action: a.trim(),
      bucket,
      key,
      conditions: requestValues(context),
    }));
  };
  // Opened from a statement: ask about its first action on its first resource straight away.
  useEffect(() => {
    if (!focus) return;
    const a = expandActions(focus.actions ?? [])[0] ?? focus.actions?.[0] ?? action;
    const r = focus.resources?.[0] ?? "arn:aws:s3:::*";
    setAction(a);
    setResource(r);
    run(a, r);
  }, [statement]);
  const submit = (e: FormEvent) => (e.preventDefault(), run(action, resource));
  return (
    <div className="grid gap-3">
      {focus && statement !== null ? <StatementSummary n={statement + 1} statement={focus} /> : null}
      <form className="card bg-base-100 shadow-sm" onSubmit={submit}>
        <div className="card-body p-4">
          <p className="text-sm">{TEXT.intro} {edited ? TEXT.unsaved : null}</p>
          {!check.policy ? <p className="text-error text-sm" role="alert">{TEXT.invalid}</p> : null}
          {check.policy && check.problems.length ? <p className="text-sm">{TEXT.problems}</p> : null}
          <div className="grid md:grid-cols-2 gap-x-3">
            <ActionField value={action} onChange={setAction} />
            <TextField label={TEXT.resource} value={resource} onChange={setResource} />
          </div>
          <label className="text-sm">
            <span className="block mb-1 font-bold">{TEXT.context}</span>
            <textarea
              className="textarea border-base-300 w-full font-mono"
              rows={2}
              placeholder={TEXT.contextHint}
              value={context}
              onChange={(e) => setContext(e.target.value)}
            />
          </label>
          <div>
            <button
              type="submit"
              className="btn btn-sm btn-primary"
              disabled={!check.policy || !action.trim() || !resource.trim()}
            >
              {TEXT.check}
            </button>
          </div>
          {result ? <Answer result={result} /> : null}
        </div>
      </form>
    </div>
  );
}

function ActionField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <label className="form-control w-full mb-3 block">
      <span className="label-text block mb-1 text-sm font-bold">{TEXT.action}</span>
      <input
        className="input w-full border-base-300"
        list={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={id}>{expandActions(["*"]).map((a) => <option key={a} value={a} />)}</datalist>
    </label>
  );
}

function Answer({ result }: { result: Decision }) {
  return (
    <div
      role="status"
      data-testid="access-result"
      className={`alert ${result.allowed ? "alert-success" : "alert-error"} mt-3 flex-col items-start`}
    >
      <div className="font-bold">{result.allowed ? TEXT.allow : TEXT.deny}</div>
      <div className="text-sm">{decisionReason(result)}</div>
      {result.statementIndex !== undefined
        ? <div className="text-sm">{TEXT.decidedBy(result.statementIndex + 1, result.sid)}</div>
        : null}
    </div>
  );
}

function StatementSummary({ n, statement }: { n: number; statement: StatementView }) {
  const patterns = statement.actions ?? [];
  const covered = expandActions(patterns);
  const except = statement.actionField === "NotAction";
  const notResource = statement.resourceField === "NotResource";
  return (
    <section
      className="card bg-base-100 shadow-sm"
      aria-label={TEXT.statementTitle(n)}
      data-testid="statement-summary"
    >
      <div className="card-body p-4 text-sm gap-2">
        <h3 className="font-bold">{TEXT.statementTitle(n)}</h3>
        <p>{TEXT.covers(statement.effect, except, covered.length)}</p>
        <ul className="flex flex-wrap gap-1 font-mono text-xs max-h-40 overflow-y-auto">
          {(except ? patterns : covered).map((a) => <li key={a} className="badge badge-outline">{a}</li>)}
        </ul>
        <p>
          {statement.resources
            ? TEXT.on(
              statement.resources.map((
                r,
              ) => (notResource ? TEXT.anythingBut(describeResource(r)) : describeResource(r)))
                .join("; "),
            )
            : TEXT.noResource}
        </p>
        <p>
          {statement.conditions?.length
            ? TEXT.when(
              statement.conditions.map((c) => `${c.key} ${c.operator} ${c.values.join(", ")}`).join("; "),
            )
            : TEXT.always}
        </p>
      </div>
    </section>
  );
}

function statementAt(text: string, index: number | null): StatementView | null {
  if (index === null) return null;
  const parsed = parsePolicy(text);
  const statement = parsed.ok ? parsed.view.statements[index] : undefined;
  return statement?.kind === "statement" ? statement : null;
}

/** "key=value" lines as the request's condition values; lines without "=" are skipped. */
function requestValues(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf("=");
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    (out[key] ??= []).push(line.slice(at + 1).trim());
  }
  return out;
}
