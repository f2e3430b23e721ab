/**
 * The uploads in progress: per-file and overall progress, cancel and retry, a failed file's reason as the
 * server gave it (spec 3 §4 upload messages: 'Object(s) uploaded successfully.', 'An error occurred while
 * uploading the file(s).'), and the bucket's unfinished uploads to resume or abort, also after a reload.
 */
import { useRef, useState } from "react";
import { ApiClientError } from "../lib/request.ts";
import { formatBytes } from "../lib/format.ts";
import { showSnackbar } from "../lib/notify.ts";
import { UnfinishedList, useUnfinishedUploads } from "./UnfinishedUploads.tsx";
import { abandonUpload, type Progress, uploadFile, type UploadTask } from "./uploads.ts";
import { t } from "../lib/i18n/t.ts";

export interface UploadRow {
  id: string;
  task: UploadTask;
  progress: Progress;
  status: "uploading" | "done" | "failed" | "cancelled";
  error?: string;
}

/**
 * Runs uploads into `bucket` and keeps their rows; `onSettled` runs when a batch has finished (to refresh
 * the listing).
 */
export function useUploads(place: { bucket: string; direct: boolean }, onSettled: () => void) {
  const [rows, setRows] = useState<UploadRow[]>([]);
  const unfinished = useUnfinishedUploads(place.bucket, place.direct);
  const controllers = useRef(new Map<string, AbortController>());
  const update = (id: string, change: Partial<UploadRow>) =>
    setRows((all) => all.map((r) => (r.id === id ? { ...r, ...change } : r)));

  async function run(row: UploadRow): Promise<"done" | "failed" | "cancelled"> {
    const controller = new AbortController();
    controllers.current.set(row.id, controller);
    try {
      await uploadFile(row.task, (progress) => update(row.id, { progress }), controller.signal);
      setRows((all) =>
        all.map((
          r,
        ) => (r.id === row.id
          ? { ...r, status: "done", progress: { ...r.progress, sent: r.task.file.size } }
          : r)
        )
      );
      return "done";
    } catch (error) {
      if (controller.signal.aborted) return "cancelled";
      update(row.id, { status: "failed", error: reasonOf(error) });
      return "failed";
    } finally {
      controllers.current.delete(row.id);
    }
  }

  async function runBatch(batch: UploadRow[]) {
    // A few files at a time: each large one already has several parts in flight.
    const queue = [...batch];
    const outcomes: string[] = [];
    await Promise.all(Array.from({ length: Math.min(3, queue.length) }, async () => {
      while (queue.length) outcomes.push(await run(queue.shift()!));
    }));
    if (outcomes.includes("failed")) showSnackbar(t("objects.uploads.failed"), "error");
    else if (outcomes.includes("done")) showSnackbar(t("objects.uploads.done"));
    onSettled();
    void unfinished.reload();
  }

  return {
    rows,
    unfinished,
    start(tasks: UploadTask[]) {
      const batch = tasks.map((task): UploadRow => ({
        id: crypto.randomUUID(),
        task,
        progress: { sent: 0, resumed: 0 },
        status: "uploading",
      }));
      setRows((all) => [...all.filter((r) => r.status === "uploading" || r.status === "failed"), ...batch]);
      void runBatch(batch);
    },
    cancel(row: UploadRow) {
      controllers.current.get(row.id)?.abort();
      update(row.id, { status: "cancelled" });
      void abandonUpload(row.task).then(unfinished.reload);
    },
    retry(row: UploadRow) {
      const again: UploadRow = { ...row, status: "uploading", error: undefined };
      update(row.id, again);
      void runBatch([again]);
    },
    clear() {
      setRows((all) => all.filter((r) => r.status === "uploading"));
    },
  };
}

/** What the user reads when a file failed: the server's message, and its detail when that adds to it. */
function reasonOf(error: unknown): string {
  if (error instanceof ApiClientError) {
    return error.detail ? `${error.message}: ${error.detail}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

const percent = (
  row: UploadRow,
) => (row.task.file.size ? Math.floor((row.progress.sent / row.task.file.size) * 100) : 100);

/**
 * What a row is called: an archive's key (archive_upload.ts) names its folder and how many files it carries,
 * said here in the language shown.
 */
function shownName(task: UploadTask): string {
  const archive = task.archive ? / \((\d+) files, as an archive\)$/.exec(task.key) : null;
  return archive
    ? t("objects.uploads.archiveLabel", { name: task.key.slice(0, archive.index), count: archive[1] })
    : task.key;
}

/** One file's line: its name (and why it failed), its state, its size, and what can be done with it. */
function UploadLine({ row, uploads }: { row: UploadRow; uploads: ReturnType<typeof useUploads> }) {
  return (
    <li className="flex items-center gap-2 py-1" data-upload={row.task.key}>
      <span className="flex-1 min-w-0">
        <span
          className="block truncate"
          title={shownName(row.task)}
          translate={row.task.archive ? undefined : "no"}
        >
          {shownName(row.task)}
        </span>
        {row.status === "failed" && row.error
          ? (
            <span className="block text-xs text-error wrap-anywhere" data-testid="upload-error">
              {row.error}
            </span>
          )
          : null}
      </span>
      <span className="w-40 shrink-0">
        {row.status === "uploading"
          ? (
            <progress
              className="progress w-full"
              value={percent(row)}
              max={100}
              aria-label={t("objects.uploads.progressOf", { name: shownName(row.task) })}
            />
          )
          : null}
        {row.status === "done" ? <span className="text-success">{t("common.action.done")}</span> : null}
        {row.status === "cancelled"
          ? <span className="text-base-content/60">{t("objects.uploads.stateCancelled")}</span>
          : null}
        {row.status === "failed"
          ? <span className="text-error">{t("objects.uploads.stateFailed")}</span>
          : null}
      </span>
      <span className="w-32 shrink-0 text-right tabular-nums text-base-content/70">
        {row.status === "uploading"
          ? t("objects.uploads.percentOf", { percent: percent(row), size: formatBytes(row.task.file.size) })
          : formatBytes(row.task.file.size)}
        {row.progress.resumed ? <span className="block text-xs">{t("objects.uploads.resumed")}</span> : null}
      </span>
      {row.status === "uploading"
        ? (
          <button type="button" className="btn btn-xs" onClick={() => uploads.cancel(row)}>
            {t("common.action.cancel")}
          </button>
        )
        : null}
      {row.status === "failed"
        ? (
          <button type="button" className="btn btn-xs" onClick={() => uploads.retry(row)}>
            {t("common.action.retry")}
          </button>
        )
        : null}
    </li>
  );
}

export function UploadsPanel({ uploads }: { uploads: ReturnType<typeof useUploads> }) {
  const running = new Set(uploads.rows.filter((r) => r.status === "uploading").map((r) => r.task.key));
  const unfinished = (
    <UnfinishedList
      unfinished={uploads.unfinished}
      hidden={running}
      onResume={(task) => uploads.start([task])}
    />
  );
  if (uploads.rows.length === 0 && !uploads.unfinished.items.some((i) => !running.has(i.key))) return null;
  const total = uploads.rows.reduce((n, r) => n + r.task.file.size, 0);
  const sent = uploads.rows.reduce(
    (n, r) => n + (r.status === "cancelled" || r.status === "failed" ? r.task.file.size : r.progress.sent),
    0,
  );
  const overall = total ? Math.floor((sent / total) * 100) : 100;
  const busy = uploads.rows.some((r) => r.status === "uploading");
  return (
    <section
      className="card bg-base-100 shadow-sm mb-4 p-3"
      aria-label={t("objects.uploads.title")}
      data-testid="uploads"
    >
      {uploads.rows.length
        ? (
          <>
            <div className="flex items-center justify-between gap-2 mb-2">
              <h2 className="font-bold text-sm">
                {busy ? t("objects.uploads.uploading", { percent: overall }) : t("objects.uploads.title")}
              </h2>
              {busy ? null : (
                <button type="button" className="btn btn-xs btn-ghost" onClick={uploads.clear}>
                  {t("common.action.clear")}
                </button>
              )}
            </div>
            <progress
              className="progress progress-primary w-full mb-2"
              value={overall}
              max={100}
              aria-label={t("objects.uploads.overall")}
            />
            <ul className="max-h-56 overflow-y-auto text-sm">
              {uploads.rows.map((row) => <UploadLine key={row.id} row={row} uploads={uploads} />)}
            </ul>
          </>
        )
        : null}
      {unfinished}
    </section>
  );
}
