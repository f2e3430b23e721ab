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
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

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
        label: t("operator.drives.format"),
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
      <p className="mb-2">{t("operator.drives.confirm")}</p>
      <ul className="mb-3 max-h-40 overflow-y-auto text-sm font-mono" data-testid="format-list">
        {drives.map((d) => <li key={d}>{d}</li>)}
      </ul>
      <Switch
        label={t("operator.drives.force")}
        checked={force}
        onChange={setForce}
        description={force ? t("common.word.yes") : t("common.word.no")}
      />
      <div role="alert" className="alert alert-warning text-sm mb-3">
        {t("operator.drives.erased")}
      </div>
      <TextField
        label={t("operator.word.typeToContinue", { text: FORMAT_CONFIRMATION })}
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
      title={t("operator.drives.errorsTitle")}
      open
      wide
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={download}>{t("common.action.download")}</button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t("common.action.done")}
          </button>
        </>
      }
    >
      <p className="mb-3">
        {t("operator.drives.errorsIntro")}
      </p>
      <table className="table table-sm" data-testid="format-errors">
        <thead>
          <tr>
            <th>{t("operator.word.node")}</th>
            <th>{t("operator.word.drive")}</th>
            <th>{t("operator.word.message")}</th>
          </tr>
        </thead>
        <tbody>
          {issues.map((i) => (
            <tr key={`${i.node}:${i.drive}`}>
              <td>{i.node}</td>
              <td>{i.drive}</td>
              <td translate="no">{i.error}</td>
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
              {tNode("operator.drives.missing", {
                link: (
                  <a className="link" href={DIRECT_CSI_DOCS} target="_blank" rel="noopener noreferrer">
                    {t("operator.drives.docs")}
                  </a>
                ),
              })}
              {failure
                ? <span className="block text-xs opacity-70 mt-1" translate="no">{failure}</span>
                : null}
            </span>
          </div>
        )
        : null}
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("operator.drives.search")} value={filter} onChange={setFilter} />
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm" disabled={unavailable} onClick={reload}>
            {t("common.action.refresh")}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={unavailable || selected.length === 0}
            onClick={() => setFormatting({ title: t("operator.drives.formatDrives"), drives: selected })}
          >
            {t("operator.drives.formatSelected")}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={unavailable || !drives?.length}
            onClick={() =>
              setFormatting({ title: t("operator.drives.formatAll"), drives: (drives ?? []).map(keyOf) })}
          >
            {t("operator.drives.formatAll")}
          </button>
        </div>
      </div>
      <DataTable<DriveInfo>
        entity={t("operator.entity.drives")}
        id="drives"
        filtered={filter !== ""}
        rows={shown}
        rowId={keyOf}
        selection={unavailable ? undefined : "checkbox"}
        selected={selected}
        onSelectionChange={setSelected}
        columns={[
          { id: "drive", label: t("operator.word.drive"), value: (d) => d.drive, sortable: true },
          {
            id: "capacity",
            label: t("operator.word.capacity"),
            value: (d) => d.capacity,
            render: (d) => formatBytes(d.capacity),
            align: "right",
          },
          {
            id: "allocated",
            label: t("operator.drives.allocated"),
            value: (d) => d.allocated,
            render: (d) => formatBytes(d.allocated),
            align: "right",
          },
          { id: "volumes", label: t("operator.word.volumes"), value: (d) => d.volumes, align: "right" },
          { id: "node", label: t("operator.word.node"), value: (d) => d.node, sortable: true },
          {
            id: "status",
            label: t("common.word.status"),
            value: (d) => d.status,
            render: (d) => <span title={d.message} translate="no">{d.status}</span>,
          },
        ]}
        actions={unavailable ? [] : [{
          type: "format",
          label: t("operator.drives.format"),
          onSelect: (d) => setFormatting({ title: t("operator.drives.formatDrives"), drives: [keyOf(d)] }),
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
              else showSnackbar(t("operator.drives.formatted"));
            }}
          />
        )
        : null}
      {issues ? <FormatErrorsDialog issues={issues} onClose={() => setIssues(null)} /> : null}
    </>
  );
}
