/**
 * Drives (spec 3 §2.7, §4, §8): 'Search Drives', the table Drive, Capacity, Allocated, Volumes, Node, Status
 * with checkboxes and a per-row format; 'Format Selected Drives' and 'Format All Drives' behind the typed
 * 'YES, PROCEED' confirmation with Force Format; the Format Errors dialog with its csiFormatErrors.json. When
 * the drives cannot be listed, direct-csi is taken as missing: a notice, and the controls are disabled.
 */
import { useState } from "react";
import { type DriveInfo, FORMAT_CONFIRMATION, type FormatIssue } from "../server/lib/contract/volumes.ts";
import { volumesApi } from "./lib/api/volumes.ts";
import { formatBytes } from "./lib/format.ts";
import { reportError } from "./lib/use_list.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { SearchBox, Switch, TextField } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";

export interface StorageDrivesProps {
  /** null when the drive call failed (direct-csi not installed). */
  drives: DriveInfo[] | null;
  failure: string;
}

const keyOf = (d: DriveInfo) => `${d.node}:${d.drive}`;
export const DIRECT_CSI_DOCS = "https://github.com/minio/direct-csi";

function FormatDialog(
  { title, drives, onClose, onFormatted }: {
    title: string;
    drives: string[];
    onClose: () => void;
    onFormatted: (issues: FormatIssue[]) => void;
  },
) {
  const [force, setForce] = useState(false);
  const [typed, setTyped] = useState("");
  const action = useDialogAction();
  return (
    <Dialog
      title={title}
      open
      onClose={() => !action.busy && onClose()}
      message={action.message}
      onMessageDone={action.clear}
      cancelDisabled={action.busy}
      primary={{
        label: "Format",
        tone: "error",
        disabled: typed !== FORMAT_CONFIRMATION || action.busy,
        onClick: () =>
          action.run(async () => {
            try {
              onFormatted(await volumesApi.format(drives, force, typed));
            } catch (error) {
              reportError(error); // spec 3 §8: a format failure goes to the error banner
              onClose();
            }
          }),
      }}
    >
      <p className="mb-2">Are you sure you want to format the following drives?</p>
      <ul className="mb-3 max-h-40 overflow-y-auto text-sm font-mono" data-testid="format-list">
        {drives.map((d) => <li key={d}>{d}</li>)}
      </ul>
      <Switch label="Force Format" checked={force} onChange={setForce} description={force ? "Yes" : "No"} />
      <div role="alert" className="alert alert-warning text-sm mb-3">
        All information contained on the drives will be erased and cannot be recovered.
      </div>
      <TextField
        label={`To continue please type ${FORMAT_CONFIRMATION} in the box.`}
        value={typed}
        onChange={setTyped}
      />
    </Dialog>
  );
}

function FormatErrorsDialog({ issues, onClose }: { issues: FormatIssue[]; onClose: () => void }) {
  function download() {
    const url = URL.createObjectURL(
      new Blob([JSON.stringify(issues, null, 2)], { type: "application/json" }),
    );
    const link = document.createElement("a");
    link.href = url;
    link.download = "csiFormatErrors.json";
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <Dialog
      title="Format Errors"
      open
      wide
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={download}>Download</button>
          <button type="button" className="btn btn-primary" onClick={onClose}>Done</button>
        </>
      }
    >
      <p className="mb-3">
        There were some issues trying to format the selected CSI Drives, please fix the issues and try again.
      </p>
      <table className="table table-sm" data-testid="format-errors">
        <thead>
          <tr>
            <th>Node</th>
            <th>Drive</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          {issues.map((i) => (
            <tr key={`${i.node}:${i.drive}`}>
              <td>{i.node}</td>
              <td>{i.drive}</td>
              <td>{i.error}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

export default function DrivesList({ drives: initial, failure: initialFailure }: StorageDrivesProps) {
  const [drives, setDrives] = useState<DriveInfo[] | null>(initial);
  const [failure, setFailure] = useState(initialFailure);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [formatting, setFormatting] = useState<{ title: string; drives: string[] } | null>(null);
  const [issues, setIssues] = useState<FormatIssue[] | null>(null);
  const unavailable = drives === null;
  const shown = (drives ?? []).filter((d) => d.drive.includes(filter));

  async function reload() {
    try {
      setDrives(await volumesApi.drives());
      setFailure("");
    } catch (error) {
      setDrives(null);
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <>
      {unavailable
        ? (
          <div role="alert" className="alert alert-info mb-4" data-testid="direct-csi-notice">
            <span>
              Managing locally attached drives requires the direct-csi component. Install it to list and
              format drives:{" "}
              <a className="link" href={DIRECT_CSI_DOCS} target="_blank" rel="noopener noreferrer">
                direct-csi documentation
              </a>.
              {failure ? <span className="block text-xs opacity-70 mt-1">{failure}</span> : null}
            </span>
          </div>
        )
        : null}
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder="Search Drives" value={filter} onChange={setFilter} />
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm" disabled={unavailable} onClick={reload}>
            Refresh
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={unavailable || selected.length === 0}
            onClick={() => setFormatting({ title: "Format Drives", drives: selected })}
          >
            Format Selected Drives
          </button>
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={unavailable || !drives?.length}
            onClick={() => setFormatting({ title: "Format All Drives", drives: (drives ?? []).map(keyOf) })}
          >
            Format All Drives
          </button>
        </div>
      </div>
      <DataTable<DriveInfo>
        entity="drives"
        filtered={filter !== ""}
        rows={shown}
        rowId={keyOf}
        selection={unavailable ? undefined : "checkbox"}
        selected={selected}
        onSelectionChange={setSelected}
        columns={[
          { id: "drive", label: "Drive", value: (d) => d.drive, sortable: true },
          {
            id: "capacity",
            label: "Capacity",
            value: (d) => d.capacity,
            render: (d) => formatBytes(d.capacity),
            align: "right",
          },
          {
            id: "allocated",
            label: "Allocated",
            value: (d) => d.allocated,
            render: (d) => formatBytes(d.allocated),
            align: "right",
          },
          { id: "volumes", label: "Volumes", value: (d) => d.volumes, align: "right" },
          { id: "node", label: "Node", value: (d) => d.node, sortable: true },
          {
            id: "status",
            label: "Status",
            value: (d) => d.status,
            render: (d) => <span title={d.message}>{d.status}</span>,
          },
        ]}
        actions={unavailable ? [] : [{
          type: "format",
          label: "Format",
          onSelect: (d) => setFormatting({ title: "Format Drives", drives: [keyOf(d)] }),
        }]}
      />
      {formatting
        ? (
          <FormatDialog
            title={formatting.title}
            drives={formatting.drives}
            onClose={() => setFormatting(null)}
            onFormatted={async (found) => {
              setFormatting(null);
              setSelected([]);
              await reload();
              if (found.length) setIssues(found);
              else showSnackbar("Drives formatted");
            }}
          />
        )
        : null}
      {issues ? <FormatErrorsDialog issues={issues} onClose={() => setIssues(null)} /> : null}
    </>
  );
}
