/**
 * 'All Buckets' (spec 3 §2.4): 'Filter Buckets', the create-bucket icon only with s3:CreateBucket (the
 * Buckets area's Create Bucket dialog), refresh, and a table of Name and Used Space whose view opens the
 * bucket's root folder in place. An empty list the account may not have listed in full says so.
 */
import { useState } from "react";
import { BUCKETS_REFUSED, type BucketSummary } from "../../server/lib/contract/buckets.ts";
import { CreateBucketDialog } from "../dialogs/BucketDialogs.tsx";
import { bucketsApi } from "../lib/api/buckets.ts";
import { formatBytes } from "../lib/format.ts";
import { reportError } from "../lib/use_list.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { SearchBox } from "../ui/fields.tsx";
import { type BrowserLocation, hrefOf } from "./locations.ts";
import { t } from "../lib/i18n/t.ts";

/** The buckets, and what to say in their place when the account may not list them. */
export interface BucketsView {
  list: BucketSummary[];
  unavailable?: string;
}

/** The account's buckets; an empty answer is checked against s3:ListAllMyBuckets (as the server's first render). */
export async function loadBuckets(): Promise<BucketsView> {
  const list = await bucketsApi.list();
  if (list.length > 0) return { list };
  const [may] = (await bucketsApi.hasPermission([{ id: "list", action: "s3:ListAllMyBuckets" }])).permissions;
  return { list, unavailable: may?.can ? undefined : BUCKETS_REFUSED };
}

export function BucketList({ base, initial, canCreate, distributed, onNavigate }: {
  base: string;
  initial: BucketsView;
  canCreate: boolean;
  distributed: boolean;
  onNavigate: (location: BrowserLocation) => void;
}) {
  const [buckets, setBuckets] = useState(initial);
  const [filter, setFilter] = useState("");
  const [creating, setCreating] = useState(false);
  const reload = () => loadBuckets().then(setBuckets, reportError);
  const open = (name: string): BrowserLocation => ({ kind: "folder", bucket: name, prefix: "" });
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("objects.buckets.filter")} value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          {canCreate
            ? (
              <button
                type="button"
                className="btn btn-sm btn-square btn-primary"
                aria-label={t("objects.buckets.create")}
                title={t("objects.buckets.create")}
                onClick={() => setCreating(true)}
              >
                <span aria-hidden="true" className="text-lg leading-none">+</span>
              </button>
            )
            : null}
          <button type="button" className="btn btn-sm" onClick={reload}>{t("common.action.refresh")}</button>
        </div>
      </div>
      <DataTable<BucketSummary>
        entity={t("objects.entity.buckets")}
        id="buckets"
        filtered={filter !== ""}
        rows={buckets.list.filter((b) => b.name.includes(filter.toLowerCase()))}
        unavailable={buckets.unavailable}
        rowId={(b) => b.name}
        columns={[
          {
            id: "name",
            label: t("common.word.name"),
            value: (b) => b.name,
            sortable: true,
            render: (b) => (
              <a
                translate="no"
                className="link link-hover font-bold"
                href={hrefOf(base, open(b.name))}
                onClick={(e) => (e.preventDefault(), onNavigate(open(b.name)))}
              >
                {b.name}
              </a>
            ),
          },
          {
            id: "size",
            label: t("objects.buckets.usedSpace"),
            value: (b) => b.size,
            render: (b) => formatBytes(b.size),
            sortable: true,
            align: "right",
          },
        ]}
        initialSort={{ id: "name" }}
        actions={[{ type: "view", onSelect: (b) => onNavigate(open(b.name)) }]}
      />
      <CreateBucketDialog
        open={creating}
        distributed={distributed}
        onClose={() => setCreating(false)}
        onCreated={() => (setCreating(false), reload())}
      />
    </>
  );
}
