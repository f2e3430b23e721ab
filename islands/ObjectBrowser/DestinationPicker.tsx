/**
 * Where a copy or move goes: the bucket list (the shared table, one bucket chosen) beside a path bar like the
 * browser's own and the folders at that path, opened with their view action. Typing a path that does not
 * exist yet is fine: the job creates it.
 */
import { useEffect, useState } from "react";
import type { BucketSummary } from "../../server/lib/contract/buckets.ts";
import type { ObjectItem } from "../../server/lib/contract/objects.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { leafName } from "./locations.ts";
import { t } from "../lib/i18n/t.ts";

export interface Destination {
  bucket: string;
  prefix: string;
}

const PICKER_HEIGHT = 200;

export function DestinationPicker(
  { value, onChange }: { value: Destination; onChange: (d: Destination) => void },
) {
  const [buckets, setBuckets] = useState<BucketSummary[] | null>(null);
  const [folders, setFolders] = useState<{ items: ObjectItem[]; unavailable?: string } | null>(null);
  useEffect(() => {
    bucketsApi.list().then(setBuckets, () => setBuckets([]));
  }, []);
  // The folders at the path typed so far (the part up to its last "/").
  const folder = value.prefix.slice(0, value.prefix.lastIndexOf("/") + 1);
  useEffect(() => {
    let current = true;
    setFolders(null);
    objectsApi.page(value.bucket, folder).then(
      (list) => current && setFolders({ items: (list.objects ?? []).filter((o) => o.name.endsWith("/")) }),
      (error) => current && setFolders({ items: [], unavailable: String(error?.message ?? error) }),
    );
    return () => void (current = false);
  }, [value.bucket, folder]);
  const up = folder.replace(/[^/]*\/$/, "");
  return (
    <div className="grid gap-3 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]" data-testid="destination-picker">
      <div>
        <h3 className="text-sm font-bold mb-1">{t("objects.picker.bucket")}</h3>
        <DataTable<BucketSummary>
          entity={t("objects.entity.buckets")}
          id="buckets"
          rows={buckets ?? []}
          rowId={(b) =>
            b.name}
          columns={[{
            id: "name",
            label: t("common.word.name"),
            value: (b) =>
              b.name,
            breakAnywhere: true,
          }]}
          selection="radio"
          selected={[value.bucket]}
          onSelectionChange={(ids) => ids[0] && onChange({ bucket: ids[0], prefix: "" })}
          height={PICKER_HEIGHT}
          emptyMessage={buckets ? undefined : t("objects.slow.loading")}
        />
      </div>
      <div>
        <h3 className="text-sm font-bold mb-1">{t("objects.browser.path")}</h3>
        <div className="join w-full mb-2">
          <span className="join-item flex items-center px-3 text-sm bg-base-300 border border-base-300 font-mono">
            {value.bucket}/
          </span>
          <input
            className="input input-sm join-item flex-1 border-base-300 font-mono"
            aria-label={t("objects.picker.path")}
            value={value.prefix}
            onChange={(e) => onChange({ ...value, prefix: e.target.value.replace(/^\/+/, "") })}
            placeholder={t("objects.picker.placeholder")}
          />
          <button
            type="button"
            className="btn btn-sm join-item"
            disabled={folder === ""}
            onClick={() => onChange({ ...value, prefix: up })}
          >
            {t("objects.picker.up")}
          </button>
        </div>
        <DataTable<ObjectItem>
          entity={t("objects.entity.folders")}
          id="folders"
          rows={folders?.items ?? []}
          rowId={(o) => o.name}
          columns={[{
            id: "name",
            label: t("objects.picker.folders"),
            value: (o) => leafName(o.name),
            breakAnywhere: true,
          }]}
          actions={[{
            type: "view",
            label: t("objects.picker.open"),
            onSelect: (o) => onChange({ ...value, prefix: o.name }),
          }]}
          height={PICKER_HEIGHT}
          unavailable={folders?.unavailable}
          emptyMessage={folders ? t("objects.picker.none") : t("objects.slow.loading")}
        />
      </div>
    </div>
  );
}
