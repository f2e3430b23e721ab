/**
 * /users/{name} (spec 1 User detail): breadcrumb, 'Status: Enabled/Disabled' with an Enable/Disable toggle
 * sent at once, Delete User (navigates to /users/ and closes the dialog before the call returns), Change
 * Password; tabs Groups, Service Accounts (create only with hasPolicy), Policies; and Deck's effective
 * access check naming the statement that decides.
 */
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";
import { useState } from "react";
import type { ServiceAccountCredentials } from "../server/lib/contract/account.ts";
import type { AccessCheck, User, UserDetailView } from "../server/lib/contract/users.ts";
import { ChangeUserPasswordDialog } from "./dialogs/PasswordDialogs.tsx";
import { CreateServiceAccountDialog, NewCredentialsDialog } from "./dialogs/ServiceAccountDialogs.tsx";
import { ServiceAccountsTable } from "./dialogs/ServiceAccountsTable.tsx";
import { SetGroupsDialog, SetPoliciesDialog } from "./dialogs/UserDialogs.tsx";
import { usersApi } from "./lib/api/users.ts";
import { capitalize } from "./lib/messages.ts";
import { reportError, useView } from "./lib/use_list.ts";
import { ConfirmDialog } from "./ui/Dialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { Tabs, TextField } from "./ui/fields.tsx";

export interface UserDetailProps {
  /** The user, its service accounts and the names its dialogs offer, as the page read them. */
  initial: UserDetailView;
  signedInAs: string;
  base: string;
}

type Tab = "groups" | "serviceAccounts" | "policies" | "access";

export default function UserDetail(props: UserDetailProps) {
  const { view, setView, reload } = useView(
    () => usersApi.detail(props.initial.user.accessKey),
    props.initial,
  );
  const user = view.user;
  const setUser = (next: User) => setView((v) => ({ ...v, user: next }));
  const [tab, setTab] = useState<Tab>("groups");
  const [dialog, setDialog] = useState<
    "delete" | "password" | "groups" | "policies" | "serviceAccount" | null
  >(null);
  const [created, setCreated] = useState<ServiceAccountCredentials | null>(null);
  const [toggling, setToggling] = useState(false);
  const name = user.accessKey;
  const enabled = user.status === "enabled";

  async function toggleStatus() {
    // Flip at once (spec 1 §4), and back if the server refuses.
    const next = enabled ? "disabled" : "enabled";
    setUser({ ...user, status: next });
    setToggling(true);
    try {
      setUser(await usersApi.update(name, { status: next, groups: user.memberOf }));
    } catch (error) {
      setUser({ ...user });
      reportError(error);
    } finally {
      setToggling(false);
    }
  }

  function deleteUser() {
    // Navigate and close before the call returns (spec 1 §4); errors are reported where the user lands.
    setDialog(null);
    usersApi.remove(name).then(() => location.assign(`${props.base}users/`), reportError);
    return Promise.resolve();
  }

  return (
    <>
      <nav className="breadcrumbs text-sm mb-2" aria-label={t("iam.word.breadcrumb")}>
        <ul>
          <li>
            <a href={`${props.base}users`}>{t("iam.word.users")}</a>
          </li>
          <li className="break-all" translate="no">{name}</li>
        </ul>
      </nav>
      <div className="card bg-base-100 shadow-sm mb-4">
        <div className="card-body p-4 flex-row flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="text-xl font-bold break-all" translate="no">{name}</h2>
            <div data-testid="user-status">
              {t("iam.user.status", {
                status: enabled ? t("common.word.enabled") : t("common.word.disabled"),
              })}
            </div>
          </div>
          <div className="flex gap-2">
            <button type="button" className="btn btn-sm" disabled={toggling} onClick={toggleStatus}>
              {enabled ? t("iam.user.disable") : t("iam.user.enable")}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setDialog("password")}>
              {t("iam.password.change")}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-error btn-outline"
              disabled={name === props.signedInAs}
              onClick={() => setDialog("delete")}
            >
              {t("iam.users.delete")}
            </button>
          </div>
        </div>
      </div>
      <Tabs<Tab>
        active={tab}
        onChange={setTab}
        tabs={[
          { id: "groups", label: t("iam.word.groups") },
          { id: "serviceAccounts", label: t("iam.word.serviceAccounts") },
          { id: "policies", label: t("iam.word.policies") },
          { id: "access", label: t("iam.word.accessCheck") },
        ]}
      />
      {tab === "groups"
        ? (
          <>
            <div className="flex justify-end mb-3">
              <button type="button" className="btn btn-sm btn-primary" onClick={() => setDialog("groups")}>
                {t("iam.user.addToGroups")}
              </button>
            </div>
            <DataTable<string>
              entity={t("iam.entity.groups")}
              id="groups"
              rows={user.memberOf}
              rowId={(g) => g}
              columns={[{ id: "name", label: t("common.word.name"), value: (g) => g, sortable: true }]}
              emptyMessage={t("iam.empty.groups")}
            />
          </>
        )
        : null}
      {tab === "serviceAccounts"
        ? (
          <>
            <div className="flex justify-end mb-3">
              <button
                type="button"
                className="btn btn-sm btn-primary"
                disabled={!user.hasPolicy}
                title={user.hasPolicy ? undefined : t("iam.user.needsPolicy")}
                onClick={() => setDialog("serviceAccount")}
              >
                {t("iam.serviceAccount.create")}
              </button>
            </div>
            <ServiceAccountsTable
              keys={view.serviceAccounts}
              unavailable={view.unavailable.serviceAccounts && capitalize(view.unavailable.serviceAccounts)}
              onDeleted={reload}
            />
          </>
        )
        : null}
      {tab === "policies"
        ? (
          <>
            <div className="flex justify-end mb-3">
              <button type="button" className="btn btn-sm btn-primary" onClick={() => setDialog("policies")}>
                {t("iam.word.assignPolicies")}
              </button>
            </div>
            <DataTable<string>
              entity={t("iam.entity.policies")}
              id="policies"
              rows={user.policy}
              rowId={(p) => p}
              columns={[{ id: "name", label: t("common.word.name"), value: (p) => p, sortable: true }]}
              emptyMessage={t("iam.empty.policies")}
              actions={[{ type: "view", href: (p) => `${props.base}policies/${encodeURIComponent(p)}` }]}
            />
          </>
        )
        : null}
      {tab === "access" ? <AccessCheckPanel user={name} /> : null}

      <ConfirmDialog
        title={t("iam.users.delete")}
        open={dialog === "delete"}
        onClose={() => setDialog(null)}
        onConfirm={deleteUser}
      >
        {tNode("iam.users.deleteConfirm", { name: <b>{name}</b> })}
      </ConfirmDialog>
      {dialog === "password"
        ? <ChangeUserPasswordDialog open user={name} onClose={() => setDialog(null)} />
        : null}
      {dialog === "groups"
        ? (
          <SetGroupsDialog
            open
            user={user}
            groups={view.groups}
            onClose={() => setDialog(null)}
            onSaved={(u) => (setUser(u), setDialog(null))}
          />
        )
        : null}
      {dialog === "policies"
        ? (
          <SetPoliciesDialog
            open
            entity={name}
            entityType="user"
            current={user.policy}
            policies={view.policies}
            onClose={() => setDialog(null)}
            onSaved={() => (setDialog(null), reload())}
          />
        )
        : null}
      {dialog === "serviceAccount"
        ? (
          <CreateServiceAccountDialog
            open
            user={name}
            onClose={() => setDialog(null)}
            onCreated={(c) => (setDialog(null), setCreated(c), reload())}
          />
        )
        : null}
      <NewCredentialsDialog credentials={created} onClose={() => setCreated(null)} />
    </>
  );
}

/** "Can this user do ACTION on RESOURCE?" with the same evaluator the embedded server enforces. */
function AccessCheckPanel({ user }: { user: string }) {
  const [action, setAction] = useState("s3:GetObject");
  const [resource, setResource] = useState("arn:aws:s3:::");
  const [result, setResult] = useState<AccessCheck | null>(null);
  async function check(event: React.FormEvent) {
    event.preventDefault();
    try {
      setResult(await usersApi.checkAccess(user, action.trim(), resource.trim()));
    } catch (error) {
      reportError(error);
    }
  }
  return (
    <form className="card bg-base-100 shadow-sm" onSubmit={check}>
      <div className="card-body p-4">
        <p className="text-sm mb-2">
          {tNode("iam.user.accessIntro", { user: <b>{user}</b> })}
        </p>
        <div className="grid md:grid-cols-2 gap-3">
          <TextField
            label={t("iam.word.action")}
            value={action}
            onChange={setAction}
            placeholder="s3:GetObject"
          />
          <TextField
            label={t("iam.word.resource")}
            value={resource}
            onChange={setResource}
            placeholder="arn:aws:s3:::bucket/key"
          />
        </div>
        <div>
          <button
            type="submit"
            className="btn btn-sm btn-primary"
            disabled={!action.trim() || !resource.trim()}
          >
            {t("iam.word.check")}
          </button>
        </div>
        {result
          ? (
            <div
              role="status"
              data-testid="access-result"
              className={`alert ${
                result.allowed ? "alert-success" : "alert-error"
              } mt-3 flex-col items-start`}
            >
              <div className="font-bold">{result.allowed ? t("iam.word.allowed") : t("iam.word.denied")}</div>
              <div className="text-sm">{result.reason}</div>
              {result.policy
                ? (
                  <div className="text-sm">
                    {tNode(result.sid ? "iam.user.decidedBySid" : "iam.user.decidedBy", {
                      policy: <b>{result.policy}</b>,
                      statement: String((result.statementIndex ?? 0) + 1),
                      sid: result.sid ?? "",
                    })}
                  </div>
                )
                : null}
            </div>
          )
          : null}
      </div>
    </form>
  );
}
