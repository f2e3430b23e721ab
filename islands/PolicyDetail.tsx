/**
 * /policies/{name} (spec 1 Policy detail): side tabs Summary (statements: Effect, Actions, Resources), Users
 * (searchable, view), Groups (searchable) and JSON (the visual builder beside the JSON editor, with Clear and
 * Save; Save disabled while saving or empty), and Deck's Access Check of the policy as edited, which a
 * statement's "What does this allow?" opens; header actions Delete and Refresh (reloads users, groups and the
 * policy).
 */
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";
import { useState } from "react";
import type { PolicyDetailView } from "../server/lib/contract/policies.ts";
import { policiesApi } from "./lib/api/policies.ts";
import { capitalize } from "./lib/messages.ts";
import { reportError, useView } from "./lib/use_list.ts";
import { ConfirmDialog } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox, Tabs } from "./ui/fields.tsx";
import { jsonProblems } from "./ui/JsonEditor.tsx";
import { PolicyAccessCheck } from "./ui/PolicyAccessCheck.tsx";
import { PolicyEditor } from "./ui/PolicyEditor.tsx";
import { showSnackbar } from "./lib/notify.ts";

export interface PolicyDetailProps {
  /** The policy and who holds it, as the page read it; Refresh reads the same view again. */
  initial: PolicyDetailView;
  /** The Users tab's view action links to /users/{name} only when the session may see /users. */
  canViewUsers: boolean;
  base: string;
}

interface StatementView {
  effect: string;
  actions: string[];
  resources: string[];
}

const asList = (
  v: unknown,
): string[] => (Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)]);

/** The statements of a policy document for the Summary tab; unreadable text gives none. */
export function statementsOf(text: string): StatementView[] {
  try {
    const doc = JSON.parse(text) as { Statement?: unknown };
    const list = Array.isArray(doc.Statement) ? doc.Statement : doc.Statement ? [doc.Statement] : [];
    return list.map((s: Record<string, unknown>) => ({
      effect: String(s.Effect ?? ""),
      actions: asList(s.Action ?? s.NotAction),
      resources: asList(s.Resource ?? s.NotResource),
    }));
  } catch {
    return [];
  }
}

type Tab = "summary" | "users" | "groups" | "json" | "access";

export default function PolicyDetail(props: PolicyDetailProps) {
  const { view, setView, reload } = useView(
    () => policiesApi.detail(props.initial.policy.name),
    props.initial,
  );
  const { policy, users, groups } = view;
  const [tab, setTab] = useState<Tab>("summary");
  const [text, setText] = useState(policy.policy);
  const [saving, setSaving] = useState(false);
  const [userFilter, setUserFilter] = useState("");
  const [groupFilter, setGroupFilter] = useState("");
  const [deleting, setDeleting] = useState(false);
  // The statement whose "What does this allow?" opened the Access Check.
  const [explained, setExplained] = useState<number | null>(null);
  const name = policy.name;

  async function refresh() {
    const next = await reload();
    if (next) setText(next.policy.policy);
  }

  async function save() {
    setSaving(true);
    try {
      const saved = await policiesApi.save(name, text);
      setView({ ...view, policy: saved });
      setText(saved.policy);
      showSnackbar(t("iam.policy.updated"));
    } catch (error) {
      reportError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <h2 className="text-xl font-bold break-all" data-testid="policy-name" translate="no">
          {name}
        </h2>
        <div className="flex gap-2">
          <button
            type="button"
            className="btn btn-sm btn-error btn-outline"
            onClick={() => setDeleting(true)}
          >
            {t("common.action.delete")}
          </button>
          <button type="button" className="btn btn-sm" onClick={refresh}>{t("common.action.refresh")}</button>
        </div>
      </div>
      <div className="flex flex-col lg:flex-row lg:gap-4">
        <Tabs<Tab>
          vertical
          active={tab}
          onChange={(next) => (setExplained(null), setTab(next))}
          tabs={[
            { id: "summary", label: t("iam.policy.summary") },
            { id: "users", label: t("iam.word.users") },
            { id: "groups", label: t("iam.word.groups") },
            { id: "json", label: "JSON" },
            { id: "access", label: t("iam.word.accessCheck") },
          ]}
        />
        <section className="flex-1 min-w-0" role="tabpanel">
          {tab === "summary"
            ? (
              <ul className="grid gap-3" data-testid="policy-summary">
                {statementsOf(policy.policy).map((s, i) => (
                  <li key={i} className="card bg-base-100 shadow-sm">
                    <div className="card-body p-4 text-sm gap-1">
                      <div>
                        <b>{t("iam.policy.effect")}</b>{" "}
                        <span className={s.effect === "Deny" ? "text-error" : "text-success"} translate="no">
                          {s.effect}
                        </span>
                      </div>
                      <div>
                        <b>{t("iam.policy.actions")}</b> <span translate="no">{s.actions.join(", ")}</span>
                      </div>
                      <div className="break-all">
                        <b>{t("iam.policy.resources")}</b>{" "}
                        <span translate="no">{s.resources.join(", ") || "-"}</span>
                      </div>
                    </div>
                  </li>
                ))}
              </ul>
            )
            : null}
          {tab === "users"
            ? (
              <>
                <div className="mb-3">
                  <SearchBox
                    placeholder={t("iam.users.search")}
                    value={userFilter}
                    onChange={setUserFilter}
                  />
                </div>
                <DataTable<string>
                  entity={t("iam.entity.users")}
                  id="users"
                  rows={users.filter((u) => u.toLowerCase().includes(userFilter.toLowerCase()))}
                  rowId={(u) => u}
                  columns={[{ id: "name", label: t("common.word.name"), value: (u) => u, sortable: true }]}
                  emptyMessage={t("iam.empty.users")}
                  unavailable={view.unavailable.users && capitalize(view.unavailable.users)}
                  filtered={userFilter !== ""}
                  actions={props.canViewUsers
                    ? [{ type: "view", href: (u) => `${props.base}users/${encodeURIComponent(u)}` }]
                    : []}
                />
              </>
            )
            : null}
          {tab === "groups"
            ? (
              <>
                <div className="mb-3">
                  <SearchBox
                    placeholder={t("iam.groups.search")}
                    value={groupFilter}
                    onChange={setGroupFilter}
                  />
                </div>
                <DataTable<string>
                  entity={t("iam.entity.groups")}
                  id="groups"
                  rows={groups.filter((g) => g.toLowerCase().includes(groupFilter.toLowerCase()))}
                  rowId={(g) => g}
                  columns={[{ id: "name", label: t("common.word.name"), value: (g) => g, sortable: true }]}
                  emptyMessage={t("iam.empty.groups")}
                  unavailable={view.unavailable.groups && capitalize(view.unavailable.groups)}
                  filtered={groupFilter !== ""}
                />
              </>
            )
            : null}
          {tab === "json"
            ? (
              <>
                <PolicyEditor
                  label={t("iam.policy.json")}
                  text={text}
                  onChange={setText}
                  onExplain={(index) => (setExplained(index), setTab("access"))}
                />
                <div className="flex justify-end gap-2">
                  <button type="button" className="btn btn-sm" onClick={() => setText("")}>
                    {t("common.action.clear")}
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-primary"
                    disabled={saving || text.trim() === "" || jsonProblems(text, "policy").length > 0}
                    onClick={save}
                  >
                    {t("common.action.save")}
                  </button>
                </div>
              </>
            )
            : null}
          {tab === "access"
            ? (
              <PolicyAccessCheck
                name={name}
                text={text}
                statement={explained}
                edited={text !== policy.policy}
              />
            )
            : null}
        </section>
      </div>
      <ConfirmDialog
        title={t("iam.policies.delete")}
        open={deleting}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await policiesApi.remove(name);
          location.assign(`${props.base}policies`);
        }}
      >
        {tNode("iam.policies.deleteConfirm", { name: <b>{name}</b> })}
      </ConfirmDialog>
    </>
  );
}
