/**
 * Whole-bucket search under the current folder: the server scans every key (substring or glob) and streams
 * hits as it finds them, with the number of keys scanned; Cancel (or leaving the folder) stops the scan.
 */
import { useEffect, useRef, useState } from "react";
import type { ObjectItem } from "../../server/lib/contract/objects.ts";
import { searchBucket } from "../lib/api/objects.ts";
import { formatBytes, formatNumber } from "../lib/format.ts";

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

  const summary = status === "running"
    ? `Searching… ${formatNumber(scanned)} keys scanned, ${formatNumber(hits.length)} found`
    : status === "done"
    ? `Done: ${formatNumber(scanned)} keys scanned, ${formatNumber(hits.length)} found`
    : status === "cancelled"
    ? `Search cancelled after ${formatNumber(scanned)} keys scanned, ${formatNumber(hits.length)} found`
    : status === "failed"
    ? error
    : `Searches every key under ${prefix || "the bucket's root"}, not only the entries loaded.`;
  return (
    <section
      className="card bg-base-100 shadow-sm mb-4 p-3"
      aria-label="Search the bucket"
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
          aria-label="Search the bucket for"
          placeholder={mode === "glob" ? "Pattern, e.g. */2024-*.jpg" : "Text in the object name"}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <select
          className="select select-sm border-base-300 w-36"
          aria-label="Match"
          value={mode}
          onChange={(e) => setMode(e.target.value as typeof mode)}
        >
          <option value="substring">Contains</option>
          <option value="glob">Glob pattern</option>
        </select>
        {/* Separate keys: reusing one element would let a Cancel click submit the form as Search once re-rendered. */}
        {status === "running"
          ? <button key="cancel" type="button" className="btn btn-sm" onClick={cancel}>Cancel</button>
          : (
            <button key="search" type="submit" className="btn btn-sm btn-primary" disabled={!query.trim()}>
              Search
            </button>
          )}
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => (cancel(), onClose())}>
          Close
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
            aria-label="Search results"
          >
            {hits.map((hit) => (
              <li key={hit.name} className="flex gap-2 py-1">
                <button
                  type="button"
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
