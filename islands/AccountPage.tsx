/**
 * /account (spec 1 Account): the signed-in account's service accounts with search, Create service account,
 * delete, and a Change Password action shown only with the changePassword flag.
 */
import { t } from "./lib/i18n/t.ts";
import { useState } from "react";
import type { ServiceAccountCredentials } from "../server/lib/contract/account.ts";
import { ChangePasswordDialog } from "./dialogs/PasswordDialogs.tsx";
import { CreateServiceAccountDialog, NewCredentialsDialog } from "./dialogs/ServiceAccountDialogs.tsx";
import { accountApi } from "./lib/api/account.ts";
import { useList } from "./lib/use_list.ts";
import { ServiceAccountsTable } from "./dialogs/ServiceAccountsTable.tsx";
import { SearchBox } from "./ui/fields.tsx";

export interface AccountPageProps {
  serviceAccounts: string[];
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
  changePassword: boolean;
  /** Signed in through an external identity provider: new credentials are not shown. */
  idp: boolean;
}

export default function AccountPage({ serviceAccounts, unavailable, changePassword, idp }: AccountPageProps) {
  const list = useList(() => accountApi.listServiceAccounts(), serviceAccounts);
  const [filter, setFilter] = useState("");
  const [dialog, setDialog] = useState<"create" | "password" | null>(null);
  const [created, setCreated] = useState<ServiceAccountCredentials | null>(null);
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("iam.account.search")} value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          {changePassword
            ? (
              <button type="button" className="btn btn-sm" onClick={() => setDialog("password")}>
                {t("iam.password.change")}
              </button>
            )
            : null}
          <button type="button" className="btn btn-sm btn-primary" onClick={() => setDialog("create")}>
            {t("iam.serviceAccount.create")}
          </button>
        </div>
      </div>
      <ServiceAccountsTable
        keys={list.value.filter((k) => k.toLowerCase().includes(filter.toLowerCase()))}
        unavailable={unavailable}
        filtered={filter !== ""}
        onDeleted={list.reload}
      />
      {dialog === "create"
        ? (
          <CreateServiceAccountDialog
            open
            onClose={() => setDialog(null)}
            onCreated={(c) => (setDialog(null), setCreated(c), list.reload())}
          />
        )
        : null}
      {dialog === "password" ? <ChangePasswordDialog open onClose={() => setDialog(null)} /> : null}
      <NewCredentialsDialog credentials={created} idp={idp} onClose={() => setCreated(null)} />
    </>
  );
}
