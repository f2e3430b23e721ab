/**
 * The folder view's dialogs (spec 3 §2.4): 'Choose or create a new path' (Go disabled while blank), rewind
 * (a date-time, 'Show Current Data'), delete confirmations for one entry and for the selection, and the
 * file preview.
 */
import { useState } from "react";
import { objectsApi } from "../lib/api/objects.ts";
import { ConfirmDialog, Dialog } from "../ui/Dialog.tsx";
import { TextField } from "../ui/fields.tsx";
import { showSnackbar } from "../lib/notify.ts";
import { leafName } from "./locations.ts";
import { PreviewFrame } from "./PreviewFrame.tsx";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";

export function PathDialog(
  { open, current, onClose, onGo }: {
    open: boolean;
    current: string;
    onClose: () => void;
    onGo: (prefix: string) => void;
  },
) {
  const [path, setPath] = useState("");
  const go = () => {
    const cleaned = path.trim().replace(/^\/+/, "");
    if (!cleaned) return;
    onGo(current + (cleaned.endsWith("/") ? cleaned : `${cleaned}/`));
    setPath("");
  };
  return (
    <Dialog
      title={t("objects.pathDialog.title")}
      open={open}
      onClose={onClose}
      primary={{ label: t("objects.browser.go"), disabled: path.trim() === "", onClick: go }}
    >
      <p className="text-sm mb-3 wrap-anywhere">
        {t("objects.pathDialog.current", { path: current || "/" })}
      </p>
      <TextField
        label={t("objects.pathDialog.label")}
        value={path}
        onChange={setPath}
        placeholder={t("objects.pathDialog.placeholder")}
      />
    </Dialog>
  );
}

/** A datetime-local value (local time) for an ISO instant. */
const toLocalInput = (iso: string) => {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 23);
};

export function RewindDialog({ open, active, date, onClose, onRewind, onReset }: {
  open: boolean;
  active: boolean;
  date: string;
  onClose: () => void;
  onRewind: (iso: string) => void;
  onReset: () => void;
}) {
  const [value, setValue] = useState(date ? toLocalInput(date) : "");
  const parsed = value ? new Date(value) : null;
  const valid = !!parsed && !Number.isNaN(parsed.getTime());
  return (
    <Dialog
      title={t("objects.folder.rewind")}
      open={open}
      onClose={onClose}
      actions={
        <>
          {active
            ? (
              <button type="button" className="btn" onClick={onReset}>
                {t("objects.rewindDialog.showCurrent")}
              </button>
            )
            : null}
          <button
            type="button"
            className="btn btn-primary"
            disabled={!valid}
            onClick={() => valid && onRewind(parsed!.toISOString())}
          >
            {t("objects.folder.rewind")}
          </button>
        </>
      }
    >
      <label className="block mb-3">
        <span className="block mb-1 text-sm font-bold">{t("objects.rewindDialog.to")}</span>
        <input
          type="datetime-local"
          step={0.001}
          className="input w-full border-base-300"
          aria-label={t("objects.rewindDialog.to")}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <p className="text-sm text-base-content/70">
        {t("objects.rewindDialog.hint")}
      </p>
    </Dialog>
  );
}

export interface DeleteTarget {
  name: string;
  isFolder: boolean;
}

/** Deletes one object or folder (with everything in it). */
export function DeleteEntryDialog(
  { bucket, target, onClose, onDeleted }: {
    bucket: string;
    target: DeleteTarget | null;
    onClose: () => void;
    onDeleted: () => void;
  },
) {
  return (
    <ConfirmDialog
      title={t("objects.delete.title")}
      open={!!target}
      onClose={onClose}
      onConfirm={async () => {
        await objectsApi.remove(bucket, target!.name, { recursive: target!.isFolder });
        showSnackbar(t("objects.delete.done", { name: leafName(target!.name) }));
        onDeleted();
      }}
    >
      {tNode(target?.isFolder ? "objects.delete.confirmFolder" : "objects.delete.confirm", {
        name: <strong className="wrap-anywhere" translate="no">{target?.name}</strong>,
      })}
    </ConfirmDialog>
  );
}

/** Delete Selected: objects and folders of the current view, after confirmation. */
export function DeleteSelectedDialog(
  { bucket, names, open, onClose, onDeleted }: {
    bucket: string;
    names: string[];
    open: boolean;
    onClose: () => void;
    onDeleted: () => void;
  },
) {
  return (
    <ConfirmDialog
      title={t("objects.deleteSelected.title")}
      open={open}
      onClose={onClose}
      onConfirm={async () => {
        await objectsApi.removeMany(bucket, names.map((path) => ({ path, recursive: path.endsWith("/") })));
        showSnackbar(t("objects.deleteSelected.done"));
        onDeleted();
      }}
    >
      {t("objects.deleteSelected.confirm", { count: names.length })}
    </ConfirmDialog>
  );
}

export function PreviewDialog(
  { bucket, objectKey, versionId, onClose }: {
    bucket: string;
    objectKey: string | null;
    versionId?: string | null;
    onClose: () => void;
  },
) {
  return (
    <Dialog
      title={objectKey ? t("objects.preview.title", { name: leafName(objectKey) }) : t("objects.preview.tab")}
      open={!!objectKey}
      onClose={onClose}
      wide
    >
      {objectKey ? <PreviewFrame bucket={bucket} objectKey={objectKey} versionId={versionId} /> : null}
    </Dialog>
  );
}
