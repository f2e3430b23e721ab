/**
 * Whole-bucket search under the current folder: the server scans every key (substring or glob) and streams
 * hits as it finds them, with the number of keys scanned; Cancel (or leaving the folder) stops the scan.
 */
import { useEffect, useRef, useState } from "react";
import type { ObjectItem } from "../../server/lib/contract/objects.ts";
import { searchBucket } from "../lib/api/objects.ts";
import { formatBytes } from "../lib/format.ts";
import { t } from "../lib/i18n/t.ts";

type Status = "idle" | "running" | "done" | "cancelled" | "failed";

export function SearchPanel(
  { bucket, prefix, initialQuery = "", onOpen, onClose }: {
    bucket: string;
    prefix: string;
    /** Opened from the folder filter: searches for it at once. */
    initialQuery?: string;
    onOpen: (item: ObjectItem) => void;
    onClose: () => void;
  },
) {
  const [query, setQuery] = useState(initialQuery);
  const [mode, setMode] = useState<"substring" | "glob">("substring");
  const [hits, setHits] = useState<ObjectItem[]>([]);
  const [scanned, setScanned] = useState(0);
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState("");
  const running = useRef<AbortController | null>(null);

  // Leaving the folder (or closing the panel) stops a running scan.
  useEffect(() => () => running.current?.abort(), [bucket, prefix]);
  useEffect(() => {
    if (initialQuery.trim()) void start();
  }, []);

  async function start() {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setHits([]);
    setScanned(0);
    setError("");
    setStatus("running");
    try {
      await searchBucket(bucket, prefix, query, mode, controller.signal, (event) => {
        if (event.type === "hit") setHits((h) => [...h, event.object]);
        else if (event.type === "progress" || event.type === "done") setScanned(event.scanned);
        if (event.type === "done") setStatus("done");
        if (event.type === "error") {
          setError(event.message);
          setStatus("failed");
        }
      });
    } catch (e) {
      if (!controller.signal.aborted) {
        setError(e instanceof Error ? e.message : String(e));
        setStatus("failed");
      }
    }
  }

  function cancel() {
    running.current?.abort();
    setStatus("cancelled");
  }

  const counts = { scanned, found: hits.length };
  const summary = status === "running"
    ? t("objects.search.running", counts)
    : status === "done"
    ? t("objects.search.done", counts)
    : status === "cancelled"
    ? t("objects.search.cancelled", counts)
    : status === "failed"
    ? error
    : prefix
    ? t("objects.search.idle", { prefix })
    : t("objects.search.idleRoot");
  return (
    <section
      className="card bg-base-100 shadow-sm mb-4 p-3"
      aria-label={t("objects.search.title")}
      data-testid="bucket-search"
    >
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (query.trim()) void start();
        }}
      >
        <input
          className="input input-sm border-base-300 flex-1 min-w-48"
          aria-label={t("objects.search.query")}
          placeholder={mode === "glob"
            ? t("objects.search.globPlaceholder")
            : t("objects.search.textPlaceholder")}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <select
          className="select select-sm border-base-300 w-36"
          aria-label={t("objects.search.match")}
          value={mode}
          onChange={(e) => setMode(e.target.value as typeof mode)}
        >
          <option value="substring">{t("objects.search.contains")}</option>
          <option value="glob">{t("objects.search.glob")}</option>
        </select>
        {/* Separate keys: reusing one element would let a Cancel click submit the form as Search once re-rendered. */}
        {status === "running"
          ? (
            <button key="cancel" type="button" className="btn btn-sm" onClick={cancel}>
              {t("common.action.cancel")}
            </button>
          )
          : (
            <button key="search" type="submit" className="btn btn-sm btn-primary" disabled={!query.trim()}>
              {t("common.action.search")}
            </button>
          )}
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => (cancel(), onClose())}>
          {t("common.action.close")}
        </button>
      </form>
      <p
        className={`text-sm mt-2 ${status === "failed" ? "text-error" : "text-base-content/70"}`}
        role="status"
        data-testid="search-status"
      >
        {summary}
      </p>
      {hits.length
        ? (
          <ul
            className="mt-2 max-h-64 overflow-y-auto text-sm divide-y divide-base-300"
            aria-label={t("objects.search.results")}
          >
            {hits.map((hit) => (
              <li key={hit.name} className="flex gap-2 py-1">
                <button
                  type="button"
                  translate="no"
                  className="link link-hover text-left flex-1 min-w-0 break-all"
                  onClick={() => onOpen(hit)}
                >
                  {hit.name}
                </button>
                <span className="shrink-0 text-base-content/70 tabular-nums">{formatBytes(hit.size)}</span>
              </li>
            ))}
          </ul>
        )
        : null}
    </section>
  );
}
