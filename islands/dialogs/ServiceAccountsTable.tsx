/** Service accounts (access keys) with a delete action: shared by /account and the user page's tab. */
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
        entity="service accounts"
        rows={keys}
        rowId={(k) => k}
        columns={[{ id: "accessKey", label: "Service Account", value: (k) => k, sortable: true }]}
        initialSort={{ id: "accessKey" }}
        unavailable={unavailable}
        filtered={filtered}
        actions={[{ type: "delete", onSelect: setDeleting }]}
      />
      <ConfirmDialog
        title="Delete Service Account"
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await accountApi.deleteServiceAccount(deleting!);
          showSnackbar(`Service account ${deleting} deleted`);
          setDeleting(null);
          onDeleted();
        }}
      >
        Are you sure you want to delete service account{" "}
        <b>{deleting}</b>? Applications using it lose access at once.
      </ConfirmDialog>
    </>
  );
}
