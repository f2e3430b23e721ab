/**
 * A folder of a bucket (spec 3 §2.4): its actions (new path, upload files or a folder, also by dropping
 * them; rewind with its dot badge; refresh; bucket search; download and delete of the selection), a name
 * filter over what is loaded, and the virtualised table (folders first; Name, Last Modified, Size, or in
 * rewind Name, Object Date, Size, Deleted) that loads further pages as it scrolls.
 */
import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import type { ObjectItem, ObjectList, RewindItem } from "../../server/contract/objects.ts";
import { previewKindOf } from "../../server/contract/content_types.ts";
import { formatBytes, formatDateTime as formatDate, formatNumber } from "../lib/format.ts";
import { reportError } from "../lib/use_list.ts";
import { type DataColumn, DataTable, type RowAction } from "../ui/DataTable.tsx";
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
import { type RewindState, useFolderListing, useRewindListing } from "./folder_state.ts";
import { type BrowserLocation, hrefOf, leafName } from "./locations.ts";
import { SearchPanel } from "./SearchPanel.tsx";
import { SlowHint } from "./SlowHint.tsx";
import { filesFromDrop, filesFromInput } from "./dropped_files.ts";
import { UploadsPanel, useUploads } from "./UploadsPanel.tsx";

export interface FolderViewProps {
  base: string;
  bucket: string;
  prefix: string;
  initial: ObjectList | null;
  versioned: boolean;
  direct: boolean;
  rewind: RewindState | null;
  onRewind: (rewind: RewindState | null) => void;
  onNavigate: (location: BrowserLocation) => void;
}

const isFolder = (name: string) => name.endsWith("/");
type Dialog = "path" | "rewind" | "delete-selected" | null;

export function FolderView(props: FolderViewProps) {
  const { bucket, prefix, base, onNavigate } = props;
  const listing = useFolderListing(bucket, prefix, props.initial);
  const rewound = useRewindListing(bucket, prefix, props.rewind);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [previewing, setPreviewing] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const [sort, setSort] = useState<{ id: string; desc: boolean } | null>(null);
  const [dropping, setDropping] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const reload = useCallback(() => (setSelected([]), listing.reload()), [listing.reload]);
  const uploads = useUploads({ bucket, direct: props.direct }, reload);
  // A selection, a filter or a search belongs to the folder it was made in.
  useEffect(() => {
    setSelected([]);
    setFilter("");
    setSearching(false);
  }, [prefix]);

  const locationOf = (
    name: string,
  ): BrowserLocation => (isFolder(name)
    ? { kind: "folder", bucket, prefix: name }
    : { kind: "object", bucket, key: name });
  const nameLink = (name: string, deleted = false) => (
    <a
      className={`link link-hover break-words ${deleted ? "line-through opacity-70" : ""}`}
      href={hrefOf(base, locationOf(name))}
      onClick={(e) => (e.preventDefault(), onNavigate(locationOf(name)))}
    >
      <EntryIcon folder={isFolder(name)} />
      {leafName(name)}
    </a>
  );
  const upload = (files: { file: File; path: string }[]) =>
    files.length &&
    uploads.start(
      files.map(({ file, path }) => ({ bucket, key: prefix + path, file, direct: props.direct })),
    );
  const match = (name: string) => leafName(name).toLowerCase().includes(filter.toLowerCase());

  const actions: RowAction<ObjectItem>[] = [
    { type: "view", onSelect: (o) => onNavigate(locationOf(o.name)) },
    {
      type: "preview",
      onSelect: (o) => setPreviewing(o.name),
      disabled: (o) => isFolder(o.name) || !previewKindOf(o.name),
    },
    {
      type: "download",
      onSelect: (o) =>
        void (isFolder(o.name) ? downloadFolder(bucket, o.name) : downloadObject(bucket, o.name, o.size))
          .catch(reportError),
    },
    { type: "delete", onSelect: (o) => setDeleting({ name: o.name, isFolder: isFolder(o.name) }) },
  ];
  const columns: DataColumn<ObjectItem>[] = [
    {
      id: "name",
      label: "Name",
      value: (o) => leafName(o.name),
      render: (o) => nameLink(o.name),
      sortable: true,
      width: "45%",
    },
    {
      id: "last_modified",
      label: "Last Modified",
      value: (o) => o.last_modified,
      render: (o) => formatDate(o.last_modified),
      sortable: true,
    },
    {
      id: "size",
      label: "Size",
      value: (o) => o.size,
      render: (o) => (isFolder(o.name) ? "" : formatBytes(o.size)),
      sortable: true,
      align: "right",
    },
  ];
  const rewindColumns: DataColumn<RewindItem>[] = [
    {
      id: "name",
      label: "Name",
      value: (o) => leafName(o.name),
      render: (o) => nameLink(o.name, o.delete_flag),
      sortable: true,
      width: "45%",
    },
    {
      id: "last_modified",
      label: "Object Date",
      value: (o) => o.last_modified,
      render: (o) => formatDate(o.last_modified),
      sortable: true,
    },
    {
      id: "size",
      label: "Size",
      value: (o) => o.size,
      render: (o) => (o.action === "PREFIX" ? "" : formatBytes(o.size)),
      sortable: true,
      align: "right",
    },
    { id: "deleted", label: "Deleted", value: (o) => (o.delete_flag ? "Yes" : "No") },
  ];
  const sortNote = sort && listing.hasMore && !rewound.active
    ? `Sorted by ${sort.id.replace("_", " ")}: applies to the ${
      formatNumber(listing.items.length)
    } entries loaded so far; scroll to load more.`
    : null;

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
        <SearchBox placeholder="Search Objects" value={filter} onChange={setFilter} />
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm" onClick={() => setDialog("path")}>
            Create new path
          </button>
          <button type="button" className="btn btn-sm" onClick={() => fileInput.current?.click()}>
            Upload Files
          </button>
          <button type="button" className="btn btn-sm" onClick={() => folderInput.current?.click()}>
            Upload Folder
          </button>
          <div className="indicator">
            {rewound.active
              ? (
                <span
                  className="indicator-item badge badge-secondary badge-xs"
                  data-testid="rewind-badge"
                  aria-label="Rewind is on"
                />
              )
              : null}
            <button
              type="button"
              className="btn btn-sm"
              disabled={!props.versioned}
              title={props.versioned ? undefined : "Rewind needs versioning on the bucket"}
              onClick={() => setDialog("rewind")}
            >
              Rewind
            </button>
          </div>
          <button type="button" className="btn btn-sm" onClick={reload}>Refresh</button>
          <button type="button" className="btn btn-sm" onClick={() => setSearching(true)}>
            Search Bucket
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={selected.length === 0}
            onClick={() => downloadSelection(bucket, prefix, selected).catch(reportError)}
          >
            Download Selected
          </button>
          <button
            type="button"
            className="btn btn-sm btn-error"
            disabled={selected.length === 0}
            onClick={() => setDialog("delete-selected")}
          >
            Delete Selected
          </button>
        </div>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Files to upload"
          onChange={(e) => (upload(filesFromInput(e.currentTarget.files)), e.currentTarget.value = "")}
        />
        <input
          ref={folderInput}
          type="file"
          multiple
          hidden
          aria-label="Folder to upload"
          {...{ webkitdirectory: "" }}
          onChange={(e) => (upload(filesFromInput(e.currentTarget.files)), e.currentTarget.value = "")}
        />
      </div>
      <UploadsPanel uploads={uploads} />
      {searching
        ? (
          <SearchPanel
            bucket={bucket}
            prefix={prefix}
            onOpen={(o) => onNavigate(locationOf(o.name))}
            onClose={() => setSearching(false)}
          />
        )
        : null}
      {rewound.active
        ? (
          <DataTable<RewindItem>
            entity="objects"
            filtered={filter !== ""}
            rows={rewound.items.filter((o) => match(o.name))}
            rowId={(o) => o.name}
            columns={rewindColumns}
            rank={(o) => (isFolder(o.name) ? 0 : 1)}
            caption={`Showing the folder as it was at ${formatDate(props.rewind!.date)}.`}
            emptyMessage={rewound.loading ? "Loading..." : "There were no objects in this folder then."}
          />
        )
        : (
          <DataTable<ObjectItem>
            entity="objects"
            filtered={filter !== ""}
            rows={listing.items.filter((o) => match(o.name))}
            rowId={(o) => o.name}
            columns={columns}
            rank={(o) => (isFolder(o.name) ? 0 : 1)}
            selection="checkbox"
            selected={selected}
            onSelectionChange={setSelected}
            actions={actions}
            onEndReached={listing.hasMore ? listing.loadMore : undefined}
            onSortChange={setSort}
            caption={sortNote}
            emptyMessage={listing.loading ? "Loading..." : "This folder is empty."}
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
      <PreviewDialog bucket={bucket} objectKey={previewing} onClose={() => setPreviewing(null)} />
    </div>
  );
}

/** A folder or file mark before a name (inline SVG: nothing fetched, no emoji font needed). */
function EntryIcon({ folder }: { folder: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="16"
      height="16"
      className="inline-block mr-1.5 -mt-0.5 opacity-70"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={folder ? "M3 6h6l2 2h10v11H3z" : "M6 3h8l4 4v14H6zM14 3v4h4"} />
    </svg>
  );
}
