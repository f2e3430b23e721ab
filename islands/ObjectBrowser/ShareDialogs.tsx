/**
 * Share (spec 3 §4-§5, §8): a link valid until the end of the chosen day, at most 7 days ahead, with the
 * spec's messages and a blank link when the date is not allowed; the link is made again when the expiry
 * changes (the one it replaces is revoked), and copied with 'Share URL Copied to clipboard'. 'Shared Links'
 * lists the user's active links with their exact expiry and revokes them.
 */
import { useEffect, useRef, useState } from "react";
import type { ShareLink } from "../../server/lib/contract/objects.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { ApiClientError } from "../lib/request.ts";
import { ConfirmDialog, Dialog, errorMessage, useDialogAction } from "../ui/Dialog.tsx";
import { Switch } from "../ui/fields.tsx";
import { showSnackbar } from "../lib/notify.ts";
import { formatDateTime as formatDate } from "../lib/format.ts";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";

/** Spec 3 §9: shares last under 7 days. */
export const MAX_SHARE_MS = 604800000;

/** How long a link chosen to end on `day` (yyyy-mm-dd, local) lasts from `now`, or the spec's message. */
export function shareDuration(day: string, now: number): { ms: number } | { error: string } {
  const end = new Date(`${day}T23:59:59`).getTime();
  if (Number.isNaN(end) || end <= now) return { error: t("objects.share.dateInPast") };
  if (end - now > MAX_SHARE_MS) return { error: t("objects.share.tooLong") };
  return { ms: end - now };
}

const isoDay = (time: number) => {
  const d = new Date(time);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${
    String(d.getDate()).padStart(2, "0")
  }`;
};

/** The link's own id: the access key it is signed with. */
const linkId = (url: string) => new URL(url).searchParams.get("X-Amz-Credential")?.split("/")[0] ?? "";

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  showSnackbar(t("objects.share.copied"));
}

export function ShareDialog(
  { bucket, objectKey, versionId, open, onClose }: {
    bucket: string;
    objectKey: string;
    versionId?: string | null;
    open: boolean;
    onClose: () => void;
  },
) {
  const [expiryOn, setExpiryOn] = useState(false);
  const [day, setDay] = useState(() => isoDay(Date.now() + 86400000));
  const [via, setVia] = useState<"console" | "storage">("console");
  const [url, setUrl] = useState("");
  const action = useDialogAction();
  const previous = useRef("");

  useEffect(() => {
    if (!open) return;
    const duration = expiryOn ? shareDuration(day, Date.now()) : { ms: MAX_SHARE_MS };
    setUrl("");
    if ("error" in duration) {
      action.setMessage({ message: duration.error, type: "error" });
      return;
    }
    action.clear();
    let live = true;
    objectsApi.share(bucket, objectKey, versionId, duration.ms, via).then((link) => {
      // A link the user moved on from before it arrived, or the one it replaces, was never handed out:
      // revoke it so it does not linger.
      // Two links signed by one account (a server without MinIO's admin API signs every link with the
      // session's own keys) cannot be told apart, and revoking one would end the other.
      const sameAccount = (a: string, b: string) => b !== "" && linkId(a) === linkId(b);
      const revoke = (old: string) => void objectsApi.revokeShareLink(linkId(old)).catch(() => {});
      if (!live) return void (sameAccount(link, previous.current) || revoke(link));
      if (previous.current && !sameAccount(previous.current, link)) revoke(previous.current);
      previous.current = link;
      setUrl(link);
    }, (error) => live && action.setMessage(errorMessage(error)));
    return () => {
      live = false;
    };
  }, [open, expiryOn, day, via]);

  return (
    <Dialog
      title={t("objects.share.title")}
      open={open}
      onClose={() => ((previous.current = ""), onClose())}
      message={action.message}
      onMessageDone={action.clear}
      wide
    >
      <p className="text-sm mb-3 break-all">
        {tNode(versionId && versionId !== "null" ? "objects.share.whatVersion" : "objects.share.what", {
          name: <strong translate="no">{objectKey}</strong>,
          version: versionId ?? "",
        })}
      </p>
      <Switch
        label={t("objects.share.setExpiry")}
        checked={expiryOn}
        onChange={setExpiryOn}
        description={expiryOn ? t("objects.share.expiryOn") : t("objects.share.expiryOff")}
      />
      {expiryOn
        ? (
          <label className="block mb-3">
            <span className="block mb-1 text-sm font-bold">{t("objects.share.expires")}</span>
            <input
              type="date"
              className="input border-base-300"
              aria-label={t("objects.share.expires")}
              value={day}
              onChange={(e) => setDay(e.target.value)}
            />
          </label>
        )
        : null}
      <label className="block mb-3">
        <span className="block mb-1 text-sm font-bold">{t("objects.share.address")}</span>
        <select
          className="select select-sm border-base-300"
          aria-label={t("objects.share.address")}
          value={via}
          onChange={(e) => setVia(e.target.value as typeof via)}
        >
          <option value="console">{t("objects.share.viaConsole")}</option>
          <option value="storage">{t("objects.share.viaStorage")}</option>
        </select>
      </label>
      <div className="join w-full">
        <input
          className="input join-item flex-1 border-base-300 font-mono text-xs"
          readOnly
          aria-label={t("objects.share.url")}
          value={url}
          placeholder={action.message ? "" : t("objects.share.generating")}
        />
        <button type="button" className="btn join-item" disabled={!url} onClick={() => copy(url)}>
          {t("common.action.copy")}
        </button>
      </div>
    </Dialog>
  );
}

export function SharedLinksDialog(
  { open, onClose, kept }: { open: boolean; onClose: () => void; kept: boolean },
) {
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  const action = useDialogAction();
  const load = () => action.run(async () => setLinks(await objectsApi.shareLinks()));
  useEffect(() => void (open && load()), [open]);
  return (
    <Dialog
      title={t("objects.browser.sharedLinks")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
    >
      {links === null
        ? <p className="text-sm">{t("objects.slow.loading")}</p>
        : links.length === 0
        ? (
          <p className="text-sm text-base-content/70" data-testid="no-links">
            {kept ? t("objects.links.none") : t("objects.links.notKept")}
          </p>
        )
        : (
          <table className="table table-sm" aria-label={t("objects.links.table")}>
            <thead>
              <tr>
                <th>{t("objects.links.object")}</th>
                <th>{t("objects.share.expires")}</th>
                <th>{t("objects.links.address")}</th>
                <th>
                  <span className="sr-only">{t("objects.links.revoke")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.id} data-link={link.object}>
                  <td className="break-all">
                    <span translate="no">{link.bucket}/{link.object}</span>
                    {link.version_id
                      ? (
                        <span className="block text-xs opacity-70">
                          {t("objects.links.version", { version: link.version_id })}
                        </span>
                      )
                      : null}
                  </td>
                  <td className="whitespace-nowrap">{formatDate(link.expires)}</td>
                  <td>{link.via_console ? t("objects.links.console") : t("objects.links.storage")}</td>
                  <td>
                    <button type="button" className="btn btn-xs btn-error" onClick={() => setRevoking(link)}>
                      {t("objects.links.revoke")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <ConfirmDialog
        title={t("objects.links.revokeTitle")}
        confirmLabel={t("objects.links.revoke")}
        open={!!revoking}
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          try {
            await objectsApi.revokeShareLink(revoking!.id);
          } catch (error) {
            if (!(error instanceof ApiClientError && error.status === 404)) throw error;
          }
          showSnackbar(t("objects.links.revoked"));
          setRevoking(null);
          load();
        }}
      >
        {tNode("objects.links.revokeConfirm", {
          object: <strong className="break-all" translate="no">{revoking?.bucket}/{revoking?.object}</strong>,
        })}
      </ConfirmDialog>
    </Dialog>
  );
}
