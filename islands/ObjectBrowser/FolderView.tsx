/**
 * A folder of a bucket (spec 3 §2.4): its actions (new path, upload files or a folder, also by dropping
 * them; rewind with its dot badge; show deleted objects; refresh; bucket search; download and delete of the
 * selection), a name filter over what is loaded (saying how much that is, with the whole-bucket search one
 * click away), and the virtualised table (folders first; columns in folder_columns.tsx) that loads further
 * pages as it scrolls. A listing the user may not read says so in place of its rows.
 */
import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import type { ObjectItem, RewindItem } from "../../server/lib/contract/objects.ts";
import { previewKindOf } from "../../server/lib/contract/content_types.ts";
import { formatDateTime as formatDate } from "../lib/format.ts";
import { useCommand } from "../lib/commands.ts";
import { reportError } from "../lib/use_list.ts";
import { DataTable, type RowAction } from "../ui/DataTable.tsx";
import { SearchBox } from "../ui/fields.tsx";
import { downloadFolder, downloadObject, downloadSelection } from "./downloads.ts";
import {
  DeleteEntryDialog,
  DeleteSelectedDialog,
  type DeleteTarget,
  PathDialog,
  PreviewDialog,
  RewindDialog,
} from "./FolderDialogs.tsx";
import { currentColumns, entryLocation, isFolder, rewindColumns } from "./folder_columns.tsx";
import { type FirstPage, type RewindState, useFolderListing, useRewindListing } from "./folder_state.ts";
import { type BrowserLocation, leafName } from "./locations.ts";
import { SearchPanel } from "./SearchPanel.tsx";
import { SlowHint } from "./SlowHint.tsx";
import { type ChosenFile, filesFromDrop, filesFromInput } from "./dropped_files.ts";
import { archiveTasks } from "./archive_upload.ts";
import { UploadsPanel, useUploads } from "./UploadsPanel.tsx";
import { JobDialog, type JobMode } from "./JobDialog.tsx";
import { JobsPanel } from "./JobsPanel.tsx";
import { t } from "../lib/i18n/t.ts";

/** A selection this large, or one with folders, is deleted as a job the user can watch and cancel. */
const DELETE_AS_JOB_ABOVE = 100;

export interface FolderViewProps {
  base: string;
  bucket: string;
  prefix: string;
  initial: FirstPage | null;
  /** Whether the bucket has versioning on; null when the user may not read that (Rewind is then off). */
  versioned: boolean | null;
  direct: boolean;
  /** The storage unpacks archives on upload (MinIO's auto-extract; the embedded storage too). */
  archives: boolean;
  rewind: RewindState | null;
  onRewind: (rewind: RewindState | null) => void;
  onNavigate: (location: BrowserLocation) => void;
}

/** A sorted column as the sort note names it. */
const sortColumn = (id: string) =>
  id === "name"
    ? t("objects.folder.sortByName")
    : id === "size"
    ? t("objects.folder.sortBySize")
    : id === "last_modified"
    ? t("objects.folder.sortByLastModified")
    : id.replace("_", " ");

type Dialog = "path" | "rewind" | "delete-selected" | null;

export function FolderView(props: FolderViewProps) {
  const { bucket, prefix, base, onNavigate } = props;
  const [showDeleted, setShowDeleted] = useState(false);
  const listing = useFolderListing(bucket, prefix, showDeleted, props.initial);
  const rewound = useRewindListing(bucket, prefix, props.rewind);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [jobMode, setJobMode] = useState<{ mode: JobMode; names: string[] } | null>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [previewing, setPreviewing] = useState<{ key: string; versionId?: string | null } | null>(null);
  /** The whole-bucket search, open with what it starts searching for. */
  const [searching, setSearching] = useState<{ query: string } | null>(null);
  const [sort, setSort] = useState<{ id: string; desc: boolean } | null>(null);
  const [dropping, setDropping] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  /** The folder input's choice goes up as one archive ("Upload as archive") rather than file by file. */
  const asArchive = useRef(false);
  const uploadButton = useRef<HTMLButtonElement>(null);
  // The command palette's upload: the file chooser opens only on the user's own key press, so after the palette
  // brought the browser here the button takes focus for that press.
  useCommand(
    "upload-files",
    (_, arrived) => (arrived ? uploadButton.current?.focus() : fileInput.current?.click()),
  );
  const reload = useCallback(() => (setSelected([]), listing.reload()), [listing.reload]);
  const uploads = useUploads({ bucket, direct: props.direct }, reload);
  // A selection, a filter or a search belongs to the folder it was made in.
  useEffect(() => {
    setSelected([]);
    setFilter("");
    setSearching(null);
  }, [prefix]);

  const links = { base, bucket, onNavigate };
  const upload = (files: ChosenFile[], archive = false) =>
    files.length &&
    uploads.start(
      archiveTasks({ bucket, prefix, direct: props.direct, archives: archive && props.archives }, files),
    );
  const chooseFolder = (archive: boolean) => {
    asArchive.current = archive;
    folderInput.current?.click();
  };
  const match = (name: string) => leafName(name).toLowerCase().includes(filter.toLowerCase());

  const actions: RowAction<ObjectItem>[] = [
    { type: "view", onSelect: (o) => onNavigate(entryLocation(bucket, o.name)) },
    {
      type: "preview",
      onSelect: (o) => setPreviewing({ key: o.name }),
      disabled: (o) => isFolder(o.name) || !!o.is_delete_marker || !previewKindOf(o.name),
    },
    {
      type: "download",
      onSelect: (o) =>
        void (isFolder(o.name) ? downloadFolder(bucket, o.name) : downloadObject(bucket, o.name, o.size))
          .catch(reportError),
      disabled: (o) => !!o.is_delete_marker,
    },
    {
      type: "delete",
      onSelect: (o) => setDeleting({ name: o.name, isFolder: isFolder(o.name) }),
      disabled: (o) => !!o.is_delete_marker,
    },
  ];
  // What an entry was at the rewind date: its version opens, previews and downloads.
  const rewindActions: RowAction<RewindItem>[] = [
    { type: "view", onSelect: (o) => onNavigate(entryLocation(bucket, o.name, o.version_id)) },
    {
      type: "preview",
      onSelect: (o) => setPreviewing({ key: o.name, versionId: o.version_id }),
      disabled: (o) => o.action !== "PUT" || !previewKindOf(o.name),
    },
    {
      type: "download",
      onSelect: (o) =>
        void (o.action === "PREFIX"
          ? downloadFolder(bucket, o.name)
          : downloadObject(bucket, o.name, o.size, o.version_id)).catch(reportError),
      disabled: (o) => o.action === "DELETE",
    },
  ];
  const sortNote = sort && listing.hasMore && !rewound.active
    ? t("objects.folder.sortNote", { column: sortColumn(sort.id), count: listing.items.length })
    : null;
  // The filter sees only what is loaded: in a folder with more pages, say so and offer the search that sees all.
  const filterNote = filter !== "" && listing.hasMore && !rewound.active
    ? (
      <>
        {t("objects.folder.filterNote", { count: listing.items.length })}{" "}
        <button type="button" className="link" onClick={() => setSearching({ query: filter })}>
          {t("objects.folder.searchWhole", { filter })}
        </button>
      </>
    )
    : null;

  function deleteSelected() {
    if (selected.some(isFolder) || selected.length > DELETE_AS_JOB_ABOVE) {
      setJobMode({ mode: "delete", names: selected });
    } else setDialog("delete-selected");
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDropping(false);
    filesFromDrop(e.dataTransfer).then(upload, reportError);
  }

  return (
    <div
      onDragOver={(e) => (e.preventDefault(), setDropping(true))}
      onDragLeave={(e) => e.currentTarget === e.target && setDropping(false)}
      onDrop={onDrop}
      className={dropping ? "outline-2 outline-dashed outline-primary rounded" : undefined}
      data-testid="folder-view"
    >
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("objects.folder.searchPlaceholder")} value={filter} onChange={setFilter} />
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm" onClick={() => setDialog("path")}>
            {t("objects.folder.createPath")}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            ref={uploadButton}
            onClick={() => fileInput.current?.click()}
          >
            {t("objects.folder.uploadFiles")}
          </button>
          <button type="button" className="btn btn-sm" onClick={() => chooseFolder(false)}>
            {t("objects.folder.uploadFolder")}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            title={props.archives
              ? t("objects.folder.uploadArchiveHint")
              : t("objects.folder.uploadArchiveUnsupported")}
            onClick={() => chooseFolder(true)}
          >
            {t("objects.folder.uploadArchive")}
          </button>
          <div className="indicator">
            {rewound.active
              ? (
                <span
                  className="indicator-item badge badge-secondary badge-xs"
                  data-testid="rewind-badge"
                  aria-label={t("objects.folder.rewindOn")}
                />
              )
              : null}
            <button
              type="button"
              className="btn btn-sm"
              disabled={!props.versioned}
              title={props.versioned
                ? undefined
                : props.versioned === null
                ? t("objects.folder.rewindNoPermission")
                : t("objects.folder.rewindNeedsVersioning")}
              onClick={() => setDialog("rewind")}
            >
              {t("objects.folder.rewind")}
            </button>
          </div>
          {props.versioned
            ? (
              <label className="label text-sm gap-2 cursor-pointer">
                <input
                  type="checkbox"
                  className="toggle toggle-sm"
                  checked={showDeleted}
                  disabled={rewound.active}
                  onChange={(e) => (setSelected([]), setShowDeleted(e.target.checked))}
                />
                {t("objects.folder.showDeleted")}
              </label>
            )
            : null}
          <button type="button" className="btn btn-sm" onClick={reload}>{t("common.action.refresh")}</button>
          <button type="button" className="btn btn-sm" onClick={() => setSearching({ query: "" })}>
            {t("objects.folder.searchBucket")}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={selected.length === 0}
            onClick={() => downloadSelection(bucket, prefix, selected).catch(reportError)}
          >
            {t("objects.folder.downloadSelected")}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={selected.length === 0}
            onClick={() => setJobMode({ mode: "copy", names: selected })}
          >
            {t("common.action.copy")}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={selected.length === 0}
            onClick={() => setJobMode({ mode: "move", names: selected })}
          >
            {t("objects.folder.move")}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={selected.length !== 1}
            title={selected.length > 1 ? t("objects.folder.renameOne") : undefined}
            onClick={() => setJobMode({ mode: "rename", names: selected })}
          >
            {t("objects.folder.rename")}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-error"
            disabled={selected.length === 0}
            onClick={deleteSelected}
          >
            {t("objects.folder.deleteSelected")}
          </button>
        </div>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label={t("objects.folder.filesInput")}
          onChange={(e) => (upload(filesFromInput(e.currentTarget.files)), e.currentTarget.value = "")}
        />
        <input
          ref={folderInput}
          type="file"
          multiple
          hidden
          aria-label={t("objects.folder.folderInput")}
          {...{ webkitdirectory: "" }}
          onChange={(e) => (
            upload(filesFromInput(e.currentTarget.files), asArchive.current), e.currentTarget.value = ""
          )}
        />
      </div>
      <UploadsPanel uploads={uploads} />
      {/* A job's end refreshes the rows but keeps what the user ticked since (it may have started a moment ago). */}
      <JobsPanel bucket={bucket} onJobEnded={() => listing.reload()} />
      {searching
        ? (
          <SearchPanel
            key={searching.query}
            bucket={bucket}
            prefix={prefix}
            initialQuery={searching.query}
            onOpen={(o) => onNavigate(entryLocation(bucket, o.name))}
            onClose={() => setSearching(null)}
          />
        )
        : null}
      {rewound.active
        ? (
          <DataTable<RewindItem>
            entity={t("objects.entity.objects")}
            id="objects"
            filtered={filter !== ""}
            rows={rewound.items.filter((o) => match(o.name))}
            rowId={(o) => o.name}
            columns={rewindColumns(links)}
            actions={rewindActions}
            rank={(o) => (isFolder(o.name) ? 0 : 1)}
            caption={t("objects.folder.rewoundCaption", { date: formatDate(props.rewind!.date) })}
            emptyMessage={rewound.loading ? t("objects.slow.loading") : t("objects.folder.rewoundEmpty")}
          />
        )
        : (
          <DataTable<ObjectItem>
            entity={t("objects.entity.objects")}
            id="objects"
            filtered={filter !== ""}
            rows={listing.items.filter((o) => match(o.name))}
            rowId={(o) => o.name}
            columns={currentColumns(links, showDeleted)}
            rank={(o) => (isFolder(o.name) ? 0 : 1)}
            selection="checkbox"
            selected={selected}
            onSelectionChange={setSelected}
            onDeleteSelected={deleteSelected}
            actions={actions}
            onEndReached={listing.hasMore ? listing.loadMore : undefined}
            onSortChange={setSort}
            caption={filterNote || sortNote ? <>{filterNote} {sortNote}</> : null}
            unavailable={listing.unavailable}
            emptyMessage={listing.loading ? t("objects.slow.loading") : t("objects.folder.empty")}
          />
        )}
      {(listing.loading && !rewound.active) || rewound.loading ? <SlowHint /> : null}
      <PathDialog
        open={dialog === "path"}
        current={prefix}
        onClose={() => setDialog(null)}
        onGo={(p) => (setDialog(null), onNavigate({ kind: "folder", bucket, prefix: p }))}
      />
      {dialog === "rewind"
        ? (
          <RewindDialog
            open
            active={rewound.active}
            date={props.rewind?.bucket === bucket ? props.rewind.date : ""}
            onClose={() => setDialog(null)}
            onRewind={(date) => (setDialog(null), props.onRewind({ enabled: true, bucket, date }))}
            onReset={() => (setDialog(null), props.onRewind(null))}
          />
        )
        : null}
      {jobMode
        ? (
          <JobDialog
            mode={jobMode.mode}
            bucket={bucket}
            prefix={prefix}
            names={jobMode.names}
            onClose={() => setJobMode(null)}
            onStarted={() => (setJobMode(null), setSelected([]))}
          />
        )
        : null}
      <DeleteSelectedDialog
        bucket={bucket}
        names={selected}
        open={dialog === "delete-selected"}
        onClose={() => setDialog(null)}
        onDeleted={() => (setDialog(null), reload())}
      />
      <DeleteEntryDialog
        bucket={bucket}
        target={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => (setDeleting(null), reload())}
      />
      <PreviewDialog
        bucket={bucket}
        objectKey={previewing?.key ?? null}
        versionId={previewing?.versionId}
        onClose={() => setPreviewing(null)}
      />
    </div>
  );
}
