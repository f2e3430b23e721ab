/**
 * The Versions tab (spec 3 §2.4): a search on version id, and a table with a vN label (the newest is the
 * highest), Version ID, Last Modified and Deleted; share and download are disabled for delete markers.
 * Restore makes an older version the current one again (how a deleted object comes back).
 */
import { useEffect, useState } from "react";
import type { ObjectItem } from "../../server/lib/contract/objects.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { ApiClientError } from "../lib/request.ts";
import { formatDateTime } from "../lib/format.ts";
import { reportError } from "../lib/use_list.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { ConfirmDialog } from "../ui/Dialog.tsx";
import { SearchBox } from "../ui/fields.tsx";
import { showSnackbar } from "../lib/notify.ts";
import { downloadObject } from "./downloads.ts";
import { SlowHint } from "./SlowHint.tsx";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";

type Row = ObjectItem & { label: string };

export function VersionsPanel(
  { bucket, objectKey, onShare, onView, onRestored }: {
    bucket: string;
    objectKey: string;
    onShare: (versionId: string) => void;
    onView: (versionId: string) => void;
    onRestored: () => void;
  },
) {
  const [versions, setVersions] = useState<Row[] | null>(null);
  const [filter, setFilter] = useState("");
  const [restoring, setRestoring] = useState<Row | null>(null);
  const [unavailable, setUnavailable] = useState<string>();
  useEffect(() => {
    objectsApi.versions(bucket, objectKey).then(
      (list) => setVersions(list.map((v, i) => ({ ...v, label: `v${list.length - i}` }))),
      (error) => {
        // A refusal is said in place (the tab is a part the user may not read); anything else is an error.
        if (error instanceof ApiClientError && error.status === 403) {
          setUnavailable(t("objects.versions.denied"));
        } else {
          setUnavailable(error instanceof Error ? error.message : String(error));
          reportError(error);
        }
        setVersions([]);
      },
    );
  }, [bucket, objectKey]);
  if (!versions) return <SlowHint />;
  return (
    <>
      <div className="mb-3">
        <SearchBox placeholder={t("objects.versions.search")} value={filter} onChange={setFilter} />
      </div>
      <DataTable<Row>
        entity={t("objects.entity.versions")}
        id="versions"
        filtered={filter !== ""}
        rows={versions.filter((v) => (v.version_id ?? "").includes(filter))}
        rowId={(v) => v.version_id ?? "null"}
        unavailable={unavailable}
        height={400}
        columns={[
          {
            id: "label",
            label: t("objects.versions.version"),
            value: (v) => v.label,
            render: (v) => (
              <span className="font-bold">
                {v.label}
                {v.is_latest
                  ? (
                    <span className="badge badge-sm ml-2 whitespace-nowrap">
                      {t("objects.versions.latest")}
                    </span>
                  )
                  : null}
              </span>
            ),
          },
          {
            id: "version_id",
            label: t("objects.versions.versionId"),
            value: (v) => v.version_id ?? "",
            render: (v) => <span className="font-mono text-xs break-all">{v.version_id}</span>,
          },
          {
            id: "last_modified",
            label: t("objects.columns.lastModified"),
            value: (v) => v.last_modified,
            render: (v) => formatDateTime(v.last_modified),
          },
          {
            id: "deleted",
            label: t("objects.columns.deleted"),
            value: (v) => t(v.is_delete_marker ? "common.word.yes" : "common.word.no"),
          },
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
          {
            type: "restore",
            onSelect: setRestoring,
            disabled: (v) => !!v.is_delete_marker || !!v.is_latest,
          },
        ]}
      />
      <ConfirmDialog
        title={t("objects.versions.restoreTitle")}
        confirmLabel={t("objects.versions.restore")}
        tone="primary"
        open={restoring !== null}
        onClose={() => setRestoring(null)}
        onConfirm={async () => {
          await objectsApi.restore(bucket, objectKey, restoring!.version_id ?? "null");
          showSnackbar(t("objects.versions.restored", { version: restoring!.label, name: objectKey }));
          setRestoring(null);
          onRestored();
        }}
      >
        {tNode("objects.versions.restoreConfirm", {
          version: <strong>{restoring?.label}</strong>,
          name: <strong className="wrap-anywhere" translate="no">{objectKey}</strong>,
        })}
      </ConfirmDialog>
    </>
  );
}
