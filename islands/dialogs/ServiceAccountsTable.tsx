/** Service accounts (access keys) with a delete action: shared by /account and the user page's tab. */
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";
import { useState } from "react";
import { accountApi } from "../lib/api/account.ts";
import { ConfirmDialog } from "../ui/Dialog.tsx";
import { DataTable } from "../ui/DataTable.tsx";
import { showSnackbar } from "../lib/notify.ts";

export function ServiceAccountsTable(
  { keys, unavailable, filtered, onDeleted }: {
    keys: string[];
    unavailable?: string;
    filtered?: boolean;
    onDeleted: () => void;
  },
) {
  const [deleting, setDeleting] = useState<string | null>(null);
  return (
    <>
      <DataTable<string>
        entity={t("iam.entity.serviceAccounts")}
        id="service accounts"
        rows={keys}
        rowId={(k) => k}
        columns={[{
          id: "accessKey",
          label: t("iam.serviceAccount.column"),
          value: (k) => k,
          sortable: true,
        }]}
        initialSort={{ id: "accessKey" }}
        unavailable={unavailable}
        filtered={filtered}
        actions={[{ type: "delete", onSelect: setDeleting }]}
      />
      <ConfirmDialog
        title={t("iam.serviceAccount.delete")}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await accountApi.deleteServiceAccount(deleting!);
          showSnackbar(t("iam.serviceAccount.deleted", { name: deleting! }));
          setDeleting(null);
          onDeleted();
        }}
      >
        {tNode("iam.serviceAccount.deleteConfirm", { name: <b>{deleting}</b> })}
      </ConfirmDialog>
    </>
  );
}
