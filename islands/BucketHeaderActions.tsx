/** The bucket detail header's Delete button and dialog; Refresh is an ordinary link that reloads the page. */
import { useState } from "react";
import { DeleteBucketDialog } from "./dialogs/BucketDialogs.tsx";
import { t } from "./lib/i18n/t.ts";

export interface BucketHeaderActionsProps {
  bucket: string;
  base: string;
}

export default function BucketHeaderActions({ bucket, base }: BucketHeaderActionsProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-sm btn-error btn-outline" onClick={() => setOpen(true)}>
        {t("common.action.delete")}
      </button>
      <DeleteBucketDialog
        bucket={open ? bucket : null}
        onClose={() => setOpen(false)}
        onDeleted={() => location.assign(`${base}buckets`)}
      />
    </>
  );
}
