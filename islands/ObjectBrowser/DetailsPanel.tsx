/**
 * The Details tab (spec 3 §2.4): Legal Hold (its status with an edit icon when the bucket is versioned,
 * else 'Disabled' with the reason as a tooltip), Retention (mode or 'Undefined', with an edit icon), Tags
 * as chips with delete and an 'Add tag' chip, and the Object Metadata table. A part the user may not read
 * shows 'Unknown' without its edit controls.
 */
import { useState } from "react";
import type { ObjectDetail, UnreadablePart } from "../../server/lib/contract/objects.ts";
import { formatBytes, formatDateTime } from "../lib/format.ts";
import { ActionIcon } from "../ui/icons.tsx";
import { AddTagDialog, DeleteTagDialog, LegalHoldDialog, RetentionDialog } from "./ObjectDialogs.tsx";

type Open = "legal-hold" | "retention" | "add-tag" | null;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const Unknown = () => <span className="text-sm text-base-content/70">Unknown</span>;

function EditButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className="btn btn-ghost btn-xs btn-square"
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      <ActionIcon type="edit" />
    </button>
  );
}

export function DetailsPanel(
  { bucket, detail, onChanged }: { bucket: string; detail: ObjectDetail; onChanged: () => void },
) {
  const [open, setOpen] = useState<Open>(null);
  const [deletingTag, setDeletingTag] = useState<string | null>(null);
  const saved = () => (setOpen(null), setDeletingTag(null), onChanged());
  const marker = !!detail.is_delete_marker;
  const unreadable = (part: UnreadablePart) => detail.unreadable?.includes(part) ?? false;
  // Without the bucket's versioning, a legal hold is known only when it was read (it implies object locking).
  const holdUnknown = unreadable("legal_hold") ||
    (detail.is_versioned === null && detail.legal_hold_status === undefined);
  const tags = Object.entries(detail.tags ?? {});
  const metadata = Object.entries(detail.user_metadata ?? {});
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm">
        <dt className="font-bold">Name</dt>
        <dd className="wrap-anywhere">{detail.name}</dd>
        <dt className="font-bold">Size</dt>
        <dd>{marker ? "" : formatBytes(detail.size)}</dd>
        <dt className="font-bold">Last Modified</dt>
        <dd>{formatDateTime(detail.last_modified)}</dd>
        <dt className="font-bold">Content Type</dt>
        <dd>{detail.content_type ?? ""}</dd>
        <dt className="font-bold">ETag</dt>
        <dd className="wrap-anywhere font-mono text-xs">{detail.etag ?? ""}</dd>
        <dt className="font-bold">Legal Hold</dt>
        <dd data-testid="legal-hold" className="flex items-center gap-1">
          {detail.is_versioned === false
            ? (
              <span className="tooltip" data-tip="Legal hold requires versioning on the bucket" tabIndex={0}>
                Disabled
              </span>
            )
            : holdUnknown
            ? <Unknown />
            : (
              <>
                {detail.legal_hold_status === "ON" ? "On" : "Off"}
                {marker ? null : <EditButton label="Edit Legal Hold" onClick={() => setOpen("legal-hold")} />}
              </>
            )}
        </dd>
        <dt className="font-bold">Retention</dt>
        <dd data-testid="retention" className="flex items-center gap-1">
          {unreadable("retention")
            ? <Unknown />
            : detail.retention_mode
            ? `${capitalise(detail.retention_mode)} until ${
              formatDateTime(detail.retention_until_date ?? "")
            }`
            : "Undefined"}
          {marker || unreadable("retention")
            ? null
            : <EditButton label="Edit Retention" onClick={() => setOpen("retention")} />}
        </dd>
      </dl>
      <div>
        <h3 className="font-bold text-sm mb-2">Tags</h3>
        <div className="flex flex-wrap gap-2" data-testid="tags">
          {unreadable("tags") ? <Unknown /> : null}
          {tags.map(([key, value]) => (
            <span key={key} className="badge badge-outline gap-1 h-auto py-1 wrap-anywhere">
              {key} : {value}
              {marker ? null : (
                <button
                  type="button"
                  className="btn btn-ghost btn-xs btn-circle h-4 min-h-4 w-4"
                  aria-label={`Delete tag ${key}`}
                  onClick={() => setDeletingTag(key)}
                >
                  ✕
                </button>
              )}
            </span>
          ))}
          {marker || unreadable("tags") ? null : (
            <button
              type="button"
              className="badge badge-primary cursor-pointer"
              onClick={() => setOpen("add-tag")}
            >
              + Add tag
            </button>
          )}
        </div>
      </div>
      <div>
        <h3 className="font-bold text-sm mb-2">Object Metadata</h3>
        {metadata.length
          ? (
            <table className="table table-sm" aria-label="Object Metadata">
              <tbody>
                {metadata.map(([k, v]) => (
                  <tr key={k}>
                    <th className="w-48 break-words">{k}</th>
                    <td className="break-words">{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
          : <p className="text-sm text-base-content/70">No user metadata.</p>}
      </div>
      {open === "legal-hold"
        ? (
          <LegalHoldDialog
            bucket={bucket}
            detail={detail}
            open
            onClose={() => setOpen(null)}
            onSaved={saved}
          />
        )
        : null}
      {open === "retention"
        ? (
          <RetentionDialog
            bucket={bucket}
            detail={detail}
            open
            onClose={() => setOpen(null)}
            onSaved={saved}
          />
        )
        : null}
      <AddTagDialog
        bucket={bucket}
        detail={detail}
        open={open === "add-tag"}
        onClose={() => setOpen(null)}
        onSaved={saved}
      />
      <DeleteTagDialog
        bucket={bucket}
        detail={detail}
        tag={deletingTag}
        onClose={() => setDeletingTag(null)}
        onSaved={saved}
      />
    </div>
  );
}
