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
import { t } from "../lib/i18n/t.ts";

type Open = "legal-hold" | "retention" | "add-tag" | null;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A retention mode as the retention dialog names it. */
const modeName = (mode: string) =>
  mode === "governance"
    ? t("objects.retention.governance")
    : mode === "compliance"
    ? t("objects.retention.compliance")
    : capitalise(mode);

const Unknown = () => <span className="text-sm text-base-content/70">{t("common.word.unknown")}</span>;

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
        <dt className="font-bold">{t("common.word.name")}</dt>
        <dd className="wrap-anywhere" translate="no">{detail.name}</dd>
        <dt className="font-bold">{t("common.word.size")}</dt>
        <dd>{marker ? "" : formatBytes(detail.size)}</dd>
        <dt className="font-bold">{t("objects.columns.lastModified")}</dt>
        <dd>{formatDateTime(detail.last_modified)}</dd>
        <dt className="font-bold">{t("objects.details.contentType")}</dt>
        <dd translate="no">{detail.content_type ?? ""}</dd>
        <dt className="font-bold">ETag</dt>
        <dd className="wrap-anywhere font-mono text-xs" translate="no">{detail.etag ?? ""}</dd>
        <dt className="font-bold">{t("objects.details.legalHold")}</dt>
        <dd data-testid="legal-hold" className="flex items-center gap-1">
          {detail.is_versioned === false
            ? (
              <span className="tooltip" data-tip={t("objects.details.legalHoldNeedsVersioning")} tabIndex={0}>
                {t("common.word.disabled")}
              </span>
            )
            : holdUnknown
            ? <Unknown />
            : (
              <>
                {detail.legal_hold_status === "ON" ? t("common.word.on") : t("common.word.off")}
                {marker ? null : (
                  <EditButton
                    label={t("objects.details.editLegalHold")}
                    onClick={() => setOpen("legal-hold")}
                  />
                )}
              </>
            )}
        </dd>
        <dt className="font-bold">{t("objects.details.retention")}</dt>
        <dd data-testid="retention" className="flex items-center gap-1">
          {unreadable("retention") ? <Unknown /> : detail.retention_mode
            ? t("objects.details.retentionUntil", {
              mode: modeName(detail.retention_mode),
              date: formatDateTime(detail.retention_until_date ?? ""),
            })
            : t("objects.details.undefined")}
          {marker || unreadable("retention")
            ? null
            : <EditButton label={t("objects.details.editRetention")} onClick={() => setOpen("retention")} />}
        </dd>
      </dl>
      <div>
        <h3 className="font-bold text-sm mb-2">{t("objects.details.tags")}</h3>
        <div className="flex flex-wrap gap-2" data-testid="tags">
          {unreadable("tags") ? <Unknown /> : null}
          {tags.map(([key, value]) => (
            <span key={key} className="badge badge-outline gap-1 h-auto py-1 wrap-anywhere">
              <span translate="no">{key} : {value}</span>
              {marker ? null : (
                <button
                  type="button"
                  className="btn btn-ghost btn-xs btn-circle h-4 min-h-4 w-4"
                  aria-label={t("objects.details.deleteTag", { key })}
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
              {t("objects.details.addTag")}
            </button>
          )}
        </div>
      </div>
      <div>
        <h3 className="font-bold text-sm mb-2">{t("objects.details.metadata")}</h3>
        {metadata.length
          ? (
            <table className="table table-sm" aria-label={t("objects.details.metadata")}>
              <tbody>
                {metadata.map(([k, v]) => (
                  <tr key={k} translate="no">
                    <th className="w-48 break-words">{k}</th>
                    <td className="break-words">{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
          : <p className="text-sm text-base-content/70">{t("objects.details.noMetadata")}</p>}
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
