/**
 * The Versions tab (spec 3 §2.4): a search on version id, and a table with a vN label (the newest is the
 * highest), Version ID, Last Modified and Deleted; share and download are disabled for delete markers.
 */
import { useEffect, useState } from "react";
import type { ObjectItem } from "../../server/contract/objects.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { formatDateTime } from "../lib/format.ts";
import { reportError } from "../lib/use_list.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { SearchBox } from "../ui/fields.tsx";
import { downloadObject } from "./downloads.ts";
import { SlowHint } from "./SlowHint.tsx";

type Row = ObjectItem & { label: string };

export function VersionsPanel(
  { bucket, objectKey, onShare, onView }: {
    bucket: string;
    objectKey: string;
    onShare: (versionId: string) => void;
    onView: (versionId: string) => void;
  },
) {
  const [versions, setVersions] = useState<Row[] | null>(null);
  const [filter, setFilter] = useState("");
  useEffect(() => {
    objectsApi.versions(bucket, objectKey).then(
      (list) => setVersions(list.map((v, i) => ({ ...v, label: `v${list.length - i}` }))),
      reportError,
    );
  }, [bucket, objectKey]);
  if (!versions) return <SlowHint />;
  return (
    <>
      <div className="mb-3">
        <SearchBox placeholder="Search Version ID" value={filter} onChange={setFilter} />
      </div>
      <DataTable<Row>
        entity="versions"
        filtered={filter !== ""}
        rows={versions.filter((v) => (v.version_id ?? "").includes(filter))}
        rowId={(v) => v.version_id ?? "null"}
        height={400}
        columns={[
          {
            id: "label",
            label: "Version",
            value: (v) => v.label,
            render: (v) => (
              <span className="font-bold">
                {v.label}
                {v.is_latest ? <span className="badge badge-sm ml-2 whitespace-nowrap">latest</span> : null}
              </span>
            ),
          },
          {
            id: "version_id",
            label: "Version ID",
            value: (v) => v.version_id ?? "",
            render: (v) => <span className="font-mono text-xs break-all">{v.version_id}</span>,
          },
          {
            id: "last_modified",
            label: "Last Modified",
            value: (v) => v.last_modified,
            render: (v) => formatDateTime(v.last_modified),
          },
          { id: "deleted", label: "Deleted", value: (v) => (v.is_delete_marker ? "Yes" : "No") },
        ]}
        actions={[
          { type: "view", onSelect: (v) => onView(v.version_id ?? "") },
          {
            type: "share",
            onSelect: (v) => onShare(v.version_id ?? ""),
            disabled: (v) => !!v.is_delete_marker,
          },
          {
            type: "download",
            onSelect: (v) => void downloadObject(bucket, objectKey, v.size, v.version_id).catch(reportError),
            disabled: (v) => !!v.is_delete_marker,
          },
        ]}
      />
    </>
  );
}
