/**
 * One object (spec 3 §2.4): header actions Share, Download (a spinner while it starts) and Delete Object,
 * all disabled for a delete marker; a side menu of Details, Versions (only with a real version id) and
 * Preview (only for previewable types). After deleting, the browser goes to the parent folder. A deleted
 * object (its latest version a delete marker) says so and opens on its Versions, where an older version can
 * be downloaded or restored.
 */
import { useEffect, useState } from "react";
import type { ObjectDetail } from "../../server/lib/contract/objects.ts";
import { previewKindOf } from "../../server/lib/contract/content_types.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { ApiClientError } from "../lib/request.ts";
import { reportError } from "../lib/use_list.ts";
import { ConfirmDialog } from "../ui/Dialog.tsx";
import { Tabs } from "../ui/fields.tsx";
import { showSnackbar } from "../lib/notify.ts";
import { DetailsPanel } from "./DetailsPanel.tsx";
import { downloadObject } from "./downloads.ts";
import { type BrowserLocation, leafName, parentPrefix } from "./locations.ts";
import { PreviewFrame } from "./PreviewFrame.tsx";
import { objectRefusal } from "./refusals.ts";
import { ShareDialog } from "./ShareDialogs.tsx";
import { SlowHint } from "./SlowHint.tsx";
import { VersionsPanel } from "./VersionsPanel.tsx";
import { JobDialog } from "./JobDialog.tsx";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";

type Tab = "details" | "versions" | "preview";

export interface ObjectViewProps {
  bucket: string;
  objectKey: string;
  versionId?: string;
  initial: ObjectDetail | null;
  /** Why the server could not read the object for the first view (refusals.ts). */
  unavailable?: string;
  onNavigate: (location: BrowserLocation) => void;
}

/** A deleted object opens on its Versions: the older versions are what there is to see. */
const firstTab = (detail: ObjectDetail | null, versionId?: string): Tab =>
  detail?.is_delete_marker && !versionId ? "versions" : "details";

export function ObjectView(
  { bucket, objectKey, versionId, initial, unavailable, onNavigate }: ObjectViewProps,
) {
  const [detail, setDetail] = useState<ObjectDetail | null>(initial);
  const [tab, setTab] = useState<Tab>(firstTab(initial, versionId));
  const [downloading, setDownloading] = useState(false);
  const [sharing, setSharing] = useState<{ versionId?: string | null } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [failed, setFailed] = useState(unavailable);
  const reload = () =>
    objectsApi.detail(bucket, objectKey, versionId).then(
      (loaded) => (setDetail(loaded), loaded),
      (error) => {
        setFailed(error instanceof ApiClientError ? objectRefusal(error) : String(error));
        reportError(error);
        return null;
      },
    );
  useEffect(() => {
    // The server's first view (read, or refused) is shown as it came.
    const fromServer = initial
      ? initial.name === objectKey &&
        (initial.version_id ?? undefined) === (versionId ?? initial.version_id ?? undefined)
      : unavailable !== undefined;
    if (fromServer) return;
    setDetail(null);
    setFailed(undefined);
    void reload().then((loaded) => setTab(firstTab(loaded, versionId)));
  }, [bucket, objectKey, versionId]);

  if (!detail) return failed ? <p className="p-4" data-testid="unavailable">{failed}</p> : <SlowHint />;
  const marker = !!detail.is_delete_marker;
  const hasVersions = !!detail.version_id && detail.version_id !== "null";
  const canPreview = !!previewKindOf(objectKey);
  const tabs: { id: Tab; label: string; disabled: boolean }[] = [
    { id: "details", label: t("objects.object.details"), disabled: false },
    { id: "versions", label: t("objects.object.versions"), disabled: !hasVersions },
    { id: "preview", label: t("objects.preview.tab"), disabled: !canPreview || marker },
  ];
  async function download() {
    setDownloading(true);
    try {
      await downloadObject(bucket, objectKey, detail!.size, versionId);
    } catch (error) {
      reportError(error);
    } finally {
      setDownloading(false);
    }
  }
  return (
    <>
      <header className="flex flex-wrap items-center justify-between gap-3 mb-4">
        <div className="text-sm">
          {versionId
            ? (
              <p className="text-base-content/70 wrap-anywhere">
                {t("objects.object.version", { version: versionId })}
              </p>
            )
            : null}
          {marker
            ? (
              <p className="text-warning" data-testid="delete-marker">
                {versionId ? t("objects.object.versionIsMarker") : t("objects.object.deleted")}
              </p>
            )
            : null}
        </div>
        <div className="flex gap-2">
          <button
            type="button"
            className="btn btn-sm"
            disabled={marker}
            onClick={() => setSharing({ versionId: detail.version_id })}
          >
            {t("objects.object.share")}
          </button>
          {downloading
            ? (
              <span
                className="btn btn-sm btn-disabled"
                role="status"
                aria-label={t("objects.object.downloading")}
              >
                <span className="loading loading-spinner loading-xs" />
              </span>
            )
            : (
              <button type="button" className="btn btn-sm" disabled={marker} onClick={download}>
                {t("common.action.download")}
              </button>
            )}
          <button type="button" className="btn btn-sm" disabled={marker} onClick={() => setRenaming(true)}>
            {t("objects.folder.rename")}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-error"
            disabled={marker}
            onClick={() => setDeleting(true)}
          >
            {t("objects.delete.title")}
          </button>
        </div>
      </header>
      <div className="flex flex-col lg:flex-row lg:gap-6">
        <div className="shrink-0">
          <Tabs tabs={tabs} active={tab} onChange={setTab} vertical label={t("objects.object.sections")} />
        </div>
        <section className="flex-1 min-w-0 card bg-base-100 shadow-sm p-4">
          {tab === "details" ? <DetailsPanel bucket={bucket} detail={detail} onChanged={reload} /> : null}
          {tab === "versions"
            ? (
              <VersionsPanel
                bucket={bucket}
                objectKey={objectKey}
                onShare={(v) => setSharing({ versionId: v })}
                onView={(v) => onNavigate({ kind: "object", bucket, key: objectKey, versionId: v })}
                onRestored={() =>
                  versionId
                    ? onNavigate({ kind: "object", bucket, key: objectKey })
                    : void reload().then(() => setTab("details"))}
              />
            )
            : null}
          {tab === "preview"
            ? <PreviewFrame bucket={bucket} objectKey={objectKey} versionId={versionId} />
            : null}
        </section>
      </div>
      {sharing
        ? (
          <ShareDialog
            bucket={bucket}
            objectKey={objectKey}
            versionId={sharing.versionId}
            open
            onClose={() => setSharing(null)}
          />
        )
        : null}
      {renaming
        ? (
          // The rename runs as a job; its folder shows the progress and lists the new name when it ends.
          <JobDialog
            mode="rename"
            bucket={bucket}
            prefix={parentPrefix(objectKey)}
            names={[objectKey]}
            onClose={() => setRenaming(false)}
            onStarted={() => onNavigate({ kind: "folder", bucket, prefix: parentPrefix(objectKey) })}
          />
        )
        : null}
      <ConfirmDialog
        title={t("objects.delete.title")}
        open={deleting}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await objectsApi.remove(bucket, objectKey, { versionId });
          showSnackbar(t("objects.delete.done", { name: leafName(objectKey) }));
          setDeleting(false);
          onNavigate({ kind: "folder", bucket, prefix: parentPrefix(objectKey) });
        }}
      >
        {tNode(versionId ? "objects.delete.confirmVersion" : "objects.delete.confirm", {
          name: <strong className="wrap-anywhere" translate="no">{objectKey}</strong>,
          version: versionId ?? "",
        })}
      </ConfirmDialog>
    </>
  );
}
