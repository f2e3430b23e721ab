/**
 * /buckets (spec 2 Bucket list): 'Filter Buckets', 'Set Replication' (enabled with a ticked row), 'Create
 * Bucket' (only with s3:CreateBucket), a table of Name, Creation Date and Size with selectable rows; view and delete.
 */
import { useState } from "react";
import type { BucketSummary } from "../server/lib/contract/buckets.ts";
import { CreateBucketDialog, DeleteBucketDialog } from "./dialogs/BucketDialogs.tsx";
import { MultiReplicationWizard } from "./dialogs/ReplicationDialogs.tsx";
import { bucketsApi } from "./lib/api/buckets.ts";
import { formatBytes, formatDateTime } from "./lib/format.ts";
import { useCommand } from "./lib/commands.ts";
import { useList } from "./lib/use_list.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { t } from "./lib/i18n/t.ts";

export interface BucketsListProps {
  buckets: BucketSummary[];
  canCreate: boolean;
  /** Why the list could not be read ("Access denied"), shown in its place. */
  unavailable?: string;
  distributed: boolean;
  /** Set on a server other than MinIO: the bucket features it lacks (by the create dialog's labels). */
  plainServer?: { lacks: string[] };
  base: string;
}

export default function BucketsList(
  { buckets: initial, canCreate, unavailable, distributed, plainServer, base }: BucketsListProps,
) {
  const buckets = useList(bucketsApi.list, initial);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<"create" | "replication" | null>(null);
  useCommand("create-bucket", canCreate ? () => setDialog("create") : null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const shown = buckets.value.filter((b) => b.name.includes(filter.toLowerCase()));
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("buckets.list.filter")} value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          <button
            type="button"
            className="btn btn-sm"
            disabled={selected.length === 0}
            onClick={() => setDialog("replication")}
          >
            {t("buckets.list.setReplication")}
          </button>
          {canCreate
            ? (
              <button type="button" className="btn btn-sm btn-primary" onClick={() => setDialog("create")}>
                {t("buckets.list.createBucket")}
              </button>
            )
            : null}
        </div>
      </div>
      <DataTable<BucketSummary>
        entity={t("buckets.entity.buckets")}
        id="buckets"
        rows={shown}
        rowId={(b) => b.name}
        columns={[
          { id: "name", label: t("common.word.name"), value: (b) => b.name, sortable: true },
          {
            id: "creation_date",
            label: t("buckets.list.creationDate"),
            value: (b) => b.creation_date,
            render: (b) => formatDateTime(b.creation_date),
            sortable: true,
          },
          {
            id: "size",
            label: t("common.word.size"),
            value: (b) => b.size,
            render: (b) => formatBytes(b.size),
            sortable: true,
            align: "right",
          },
        ]}
        initialSort={{ id: "name" }}
        unavailable={unavailable}
        filtered={filter !== ""}
        selection="checkbox"
        selected={selected}
        onSelectionChange={setSelected}
        actions={[
          { type: "view", href: (b) => `${base}buckets/${encodeURIComponent(b.name)}` },
          { type: "delete", onSelect: (b) => setDeleting(b.name) },
        ]}
      />
      {dialog === "create"
        ? (
          <CreateBucketDialog
            open
            distributed={distributed}
            plainServer={plainServer}
            onClose={() => setDialog(null)}
            onCreated={() => (setDialog(null), buckets.reload())}
          />
        )
        : null}
      {dialog === "replication"
        ? (
          <MultiReplicationWizard
            open
            buckets={selected}
            onClose={(changed) => (setDialog(null), changed && (setSelected([]), buckets.reload()))}
          />
        )
        : null}
      <DeleteBucketDialog
        bucket={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => (setDeleting(null),
          setSelected((s) => s.filter((n) => n !== deleting)),
          buckets.reload())}
      />
    </>
  );
}
