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
      title="Choose or create a new path"
      open={open}
      onClose={onClose}
      primary={{ label: "Go", disabled: path.trim() === "", onClick: go }}
    >
      <p className="text-sm mb-3 wrap-anywhere">Current path: {current || "/"}</p>
      <TextField
        label="New Folder Path"
        value={path}
        onChange={setPath}
        placeholder="Enter the new Folder Path"
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
      title="Rewind"
      open={open}
      onClose={onClose}
      actions={
        <>
          {active ? <button type="button" className="btn" onClick={onReset}>Show Current Data</button> : null}
          <button
            type="button"
            className="btn btn-primary"
            disabled={!valid}
            onClick={() => valid && onRewind(parsed!.toISOString())}
          >
            Rewind
          </button>
        </>
      }
    >
      <label className="block mb-3">
        <span className="block mb-1 text-sm font-bold">Rewind to</span>
        <input
          type="datetime-local"
          step={0.001}
          className="input w-full border-base-300"
          aria-label="Rewind to"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <p className="text-sm text-base-content/70">
        The folder is shown as it was at that moment: each object's version current then, deleted objects
        marked.
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
      title="Delete Object"
      open={!!target}
      onClose={onClose}
      onConfirm={async () => {
        await objectsApi.remove(bucket, target!.name, { recursive: target!.isFolder });
        showSnackbar(`Object '${leafName(target!.name)}' deleted successfully.`);
        onDeleted();
      }}
    >
      Are you sure you want to delete: <strong className="wrap-anywhere">{target?.name}</strong>
      {target?.isFolder ? " and everything in it" : ""}?
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
      title="Delete Objects"
      open={open}
      onClose={onClose}
      onConfirm={async () => {
        await objectsApi.removeMany(bucket, names.map((path) => ({ path, recursive: path.endsWith("/") })));
        showSnackbar("Objects deleted successfully.");
        onDeleted();
      }}
    >
      Are you sure you want to delete the selected {names.length} object{names.length === 1 ? "" : "s"}?
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
      title={objectKey ? `Preview - ${leafName(objectKey)}` : "Preview"}
      open={!!objectKey}
      onClose={onClose}
      wide
    >
      {objectKey ? <PreviewFrame bucket={bucket} objectKey={objectKey} versionId={versionId} /> : null}
    </Dialog>
  );
}
