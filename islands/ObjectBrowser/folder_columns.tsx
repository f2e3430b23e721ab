/**
 * The folder table's columns (spec 3 §2.4): Name, Last Modified, Size, with a Deleted column while deleted
 * objects are shown; in rewind Name, Object Date, Size, Deleted. A name links to its folder or object; a
 * rewound entry links to the version it was then, and a deleted one is struck through.
 */
import type { ReactNode } from "react";
import type { ObjectItem, RewindItem } from "../../server/lib/contract/objects.ts";
import { formatBytes, formatDateTime as formatDate } from "../lib/format.ts";
import type { DataColumn } from "../ui/DataTable.tsx";
import { type BrowserLocation, hrefOf, leafName } from "./locations.ts";
import { t } from "../lib/i18n/t.ts";

const yesNo = (yes: boolean) => t(yes ? "common.word.yes" : "common.word.no");

export const isFolder = (name: string) => name.endsWith("/");

/** Where an entry opens: a folder, an object, or (from rewind) one version of it. */
export function entryLocation(bucket: string, name: string, versionId?: string | null): BrowserLocation {
  if (isFolder(name)) return { kind: "folder", bucket, prefix: name };
  return versionId ? { kind: "object", bucket, key: name, versionId } : { kind: "object", bucket, key: name };
}

export interface EntryLinks {
  base: string;
  bucket: string;
  onNavigate: (location: BrowserLocation) => void;
}

function NameLink(
  { links, name, versionId, deleted }: {
    links: EntryLinks;
    name: string;
    versionId?: string | null;
    deleted?: boolean;
  },
) {
  const location = entryLocation(links.bucket, name, versionId);
  return (
    <a
      translate="no"
      className={`link link-hover break-words ${deleted ? "line-through opacity-70" : ""}`}
      href={hrefOf(links.base, location)}
      onClick={(e) => (e.preventDefault(), links.onNavigate(location))}
    >
      <EntryIcon folder={isFolder(name)} />
      {leafName(name)}
    </a>
  );
}

const nameColumn = <Row extends { name: string }>(render: (row: Row) => ReactNode): DataColumn<Row> => ({
  id: "name",
  label: t("common.word.name"),
  value: (o) => leafName(o.name),
  render,
  sortable: true,
  width: "45%",
});

/** The current listing; `withDeleted` adds the Deleted column (deleted keys then link to their page). */
export function currentColumns(links: EntryLinks, withDeleted: boolean): DataColumn<ObjectItem>[] {
  const columns: DataColumn<ObjectItem>[] = [
    nameColumn((o) => <NameLink links={links} name={o.name} deleted={!!o.is_delete_marker} />),
    {
      id: "last_modified",
      label: t("objects.columns.lastModified"),
      value: (o) => o.last_modified,
      render: (o) => formatDate(o.last_modified),
      sortable: true,
    },
    {
      id: "size",
      label: t("common.word.size"),
      value: (o) => o.size,
      render: (o) => (isFolder(o.name) || o.is_delete_marker ? "" : formatBytes(o.size)),
      sortable: true,
      align: "right",
    },
  ];
  if (withDeleted) {
    columns.push({
      id: "deleted",
      label: t("objects.columns.deleted"),
      value: (o) => (isFolder(o.name) ? "" : yesNo(!!o.is_delete_marker)),
    });
  }
  return columns;
}

/** The folder as it was: each entry links to the version it was then. */
export function rewindColumns(links: EntryLinks): DataColumn<RewindItem>[] {
  return [
    nameColumn((o) => (
      <NameLink links={links} name={o.name} versionId={o.version_id} deleted={o.delete_flag} />
    )),
    {
      id: "last_modified",
      label: t("objects.columns.objectDate"),
      value: (o) => o.last_modified,
      render: (o) => formatDate(o.last_modified),
      sortable: true,
    },
    {
      id: "size",
      label: t("common.word.size"),
      value: (o) => o.size,
      render: (o) => (o.action === "PREFIX" ? "" : formatBytes(o.size)),
      sortable: true,
      align: "right",
    },
    { id: "deleted", label: t("objects.columns.deleted"), value: (o) => yesNo(o.delete_flag) },
  ];
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
