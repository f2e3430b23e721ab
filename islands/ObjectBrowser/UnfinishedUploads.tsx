/**
 * Uploads left unfinished by a reload, a closed tab or another client: the bucket's multipart uploads in
 * progress on the server, with the file this browser remembers for those it started. Each can be resumed
 * (the user chooses the file again and only the missing parts are sent) or aborted (its parts go).
 */
import { useEffect, useRef, useState } from "react";
import type { PendingUpload } from "../../server/lib/contract/objects.ts";
import { bucketsApi } from "../lib/api/buckets.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { formatBytes, formatDateTime } from "../lib/format.ts";
import { reportError } from "../lib/use_list.ts";
import { adoptUpload, forgetUpload, rememberedUploads, type UploadTask } from "./uploads.ts";
import { t } from "../lib/i18n/t.ts";

export interface Unfinished extends PendingUpload {
  /** The file it was started with, when this browser started it. */
  file?: { size: number; lastModified: number };
  /** 0 when another client started it. */
  partSize: number;
  /** Why the file chosen to resume it was not taken. */
  problem?: string;
}

/** The bucket's unfinished uploads; `resume` hands back the task to run, or null when the file is not the one. */
export function useUnfinishedUploads(bucket: string, direct: boolean) {
  const [items, setItems] = useState<Unfinished[]>([]);
  const allowed = useRef<Promise<boolean> | null>(null);

  async function reload() {
    // Asked first, so a user who may not list uploads makes no call the storage refuses.
    allowed.current ??= bucketsApi.hasPermission([
      { id: "uploads", action: "s3:ListBucketMultipartUploads", bucket_name: bucket },
    ]).then((answer) => answer.permissions.some((p) => p.can), () => false);
    if (!(await allowed.current)) return;
    // Read before listing: every upload remembered then is already on the server unless it ended.
    const remembered = rememberedUploads(bucket);
    const pending = await objectsApi.pendingUploads(bucket);
    const live = new Set(pending.map((p) => p.upload_id));
    for (const gone of remembered.filter((r) => !live.has(r.uploadId))) forgetUpload(bucket, gone.uploadId);
    setItems(pending.map((upload) => {
      const mine = remembered.find((r) => r.uploadId === upload.upload_id);
      return { ...upload, file: mine, partSize: mine?.partSize ?? 0 };
    }));
  }

  useEffect(() => void reload().catch(reportError), [bucket]);

  return {
    items,
    reload: () => reload().catch(reportError),
    resume(item: Unfinished, file: File): UploadTask | null {
      if (item.file && (item.file.size !== file.size || item.file.lastModified !== file.lastModified)) {
        const problem = t("objects.unfinished.wrongFile", {
          size: formatBytes(item.file.size),
          date: formatDateTime(new Date(item.file.lastModified).toISOString()),
        });
        setItems((all) => all.map((i) => (i.upload_id === item.upload_id ? { ...i, problem } : i)));
        return null;
      }
      const task = { bucket, key: item.key, file, direct };
      adoptUpload(task, item.upload_id, item.partSize);
      setItems((all) => all.filter((i) => i.upload_id !== item.upload_id));
      return task;
    },
    async abort(item: Unfinished) {
      try {
        await objectsApi.abortUpload(bucket, item.key, item.upload_id);
        forgetUpload(bucket, item.upload_id);
        setItems((all) => all.filter((i) => i.upload_id !== item.upload_id));
      } catch (error) {
        reportError(error);
      }
    },
  };
}

export function UnfinishedList(
  { unfinished, hidden, onResume }: {
    unfinished: ReturnType<typeof useUnfinishedUploads>;
    /** Keys uploading right now: their unfinished upload is the one in progress. */
    hidden: Set<string>;
    onResume: (task: UploadTask) => void;
  },
) {
  const input = useRef<HTMLInputElement>(null);
  const chosen = useRef<Unfinished | null>(null);
  const items = unfinished.items.filter((i) => !hidden.has(i.key));
  if (!items.length) return null;
  return (
    <div data-testid="unfinished-uploads">
      <h2 className="font-bold text-sm mt-2 mb-1">{t("objects.unfinished.title")}</h2>
      <ul className="max-h-56 overflow-y-auto text-sm">
        {items.map((item) => (
          <li
            key={item.upload_id}
            className="flex flex-wrap items-center gap-2 py-1"
            data-unfinished={item.key}
          >
            <span className="flex-1 min-w-40 wrap-anywhere">
              <span translate="no">{item.key}</span>
              <span className="block text-xs text-base-content/70">
                {t("objects.unfinished.started", { date: formatDateTime(item.initiated) })}
                {` · ${item.file ? formatBytes(item.file.size) : t("objects.unfinished.otherClient")}`}
              </span>
              {item.problem
                ? <span className="block text-xs text-error" role="alert">{item.problem}</span>
                : null}
            </span>
            <button
              type="button"
              className="btn btn-xs"
              onClick={() => (chosen.current = item, input.current?.click())}
            >
              {t("objects.unfinished.resume")}
            </button>
            <button type="button" className="btn btn-xs" onClick={() => void unfinished.abort(item)}>
              {t("objects.unfinished.abort")}
            </button>
          </li>
        ))}
      </ul>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={t("objects.unfinished.fileInput")}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          const task = file && chosen.current ? unfinished.resume(chosen.current, file) : null;
          if (task) onResume(task);
        }}
      />
    </div>
  );
}
