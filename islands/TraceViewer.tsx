/**
 * Trace (spec 3 §2.6): filters Status Code, Method, Function Name, Path and Response Threshold (≥ 0), the
 * calls to trace (All, S3 on by default, Internal, Storage, OS) and 'Display only Errors', Start and Stop.
 * Inputs are locked while running; starting clears the table. The table keeps the newest 1,000 calls.
 * Storage and os calls (Storage, OS) have no HTTP status: their row shows the error they failed with or a
 * dash, and the bytes they read under Download, the bytes they wrote under Upload.
 */
import { useState } from "react";
import type { TraceMessage } from "../server/lib/contract/tools.ts";
import { formatBytes, formatDateTime } from "./lib/format.ts";
import { t } from "./lib/i18n/t.ts";
import { messageId, useLiveSocket } from "./lib/live_socket.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { TextField } from "./ui/fields.tsx";
import { LiveNotices } from "./tools/LiveNotices.tsx";

const CALLS = ["all", "s3", "internal", "storage", "os"] as const;
type Call = typeof CALLS[number];

/** A kind of call as the checkbox names it (S3 and OS are names in every language). */
const callLabel = (call: Call) =>
  call === "all"
    ? t("monitoring.trace.callAll")
    : call === "internal"
    ? t("monitoring.trace.callInternal")
    : call === "storage"
    ? t("monitoring.trace.callStorage")
    : call === "s3"
    ? "S3"
    : "OS";

/** The `calls` parameter: "all", or the chosen kinds (the server always includes S3). */
export function callsParam(calls: Call[]): string {
  return calls.includes("all") ? "all" : calls.join(",");
}

/** Threshold typed in milliseconds → the relay's nanoseconds; null when not a number ≥ 0. */
export function thresholdNs(text: string): number | null {
  if (text.trim() === "") return 0;
  const ms = Number(text);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms * 1e6) : null;
}

/** Go duration text ("8.733305ms") shown with three significant digits ("8.73 ms"). */
export function shortDuration(text: string): string {
  const m = /^([\d.]+)(ns|µs|ms|s)$/.exec(text);
  if (!m) return text;
  return `${Number(Number(m[1]).toPrecision(3))} ${m[2]}`;
}

const nowrap = (text: string) => <span className="whitespace-nowrap">{text}</span>;

/**
 * HTTP calls show their status; storage and os calls have none: they show what they failed with, or a dash.
 */
function statusCell(m: TraceMessage) {
  if (m.statusCode) return nowrap(`${m.statusCode} ${m.statusMsg}`);
  if (m.statusMsg) return <span className="text-error">{m.statusMsg}</span>;
  return <span className="opacity-60">–</span>;
}

export default function TraceViewer() {
  const trace = useLiveSocket<TraceMessage>({ limit: 1000, reconnect: true });
  const [calls, setCalls] = useState<Call[]>(["s3"]);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [filters, setFilters] = useState({ statusCode: "", method: "", funcname: "", path: "" });
  const [threshold, setThreshold] = useState("0");
  const running = trace.status === "open" || trace.status === "connecting";
  const thresholdValue = thresholdNs(threshold);
  // Started on socket open (spec 3), which the server answers once the storage's trace is subscribed: a
  // call made after "No Traced elements received yet" shows up.
  const started = trace.status === "open" || trace.status === "closed";

  const toggle = (call: Call) =>
    setCalls(calls.includes(call) ? calls.filter((c) => c !== call) : [...calls, call]);
  const start = () =>
    trace.start("/ws/trace", {
      calls: callsParam(calls),
      threshold: String(thresholdValue ?? 0),
      onlyErrors: onlyErrors ? "yes" : "no",
      statusCode: filters.statusCode.trim(),
      method: filters.method.trim(),
      funcname: filters.funcname.trim(),
      path: filters.path.trim(),
    });
  const field = (key: keyof typeof filters, label: string) => (
    <div className="w-44">
      <TextField
        label={label}
        value={filters[key]}
        onChange={(v) => setFilters({ ...filters, [key]: v })}
        disabled={running}
      />
    </div>
  );

  return (
    <div>
      <div className="card bg-base-100 shadow-sm mb-4">
        <div className="card-body p-4 gap-2">
          <div className="flex flex-wrap gap-x-4 items-start">
            {field("statusCode", t("monitoring.trace.statusCode"))}
            {field("method", t("monitoring.trace.method"))}
            {field("funcname", t("monitoring.trace.functionName"))}
            {field("path", t("monitoring.trace.path"))}
            <div className="w-44">
              <TextField
                label={t("monitoring.trace.threshold")}
                type="number"
                value={threshold}
                onChange={setThreshold}
                disabled={running}
                min="0"
                error={thresholdValue === null ? t("monitoring.trace.thresholdInvalid") : undefined}
              />
            </div>
          </div>
          <fieldset className="flex flex-wrap items-center gap-4" disabled={running}>
            <legend className="text-sm font-bold mb-1">{t("monitoring.trace.calls")}</legend>
            {CALLS.map((call) => (
              <label key={call} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={calls.includes(call)}
                  onChange={() => toggle(call)}
                />
                {callLabel(call)}
              </label>
            ))}
            <label className="flex items-center gap-2 text-sm ml-4">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                checked={onlyErrors}
                onChange={(e) => setOnlyErrors(e.target.checked)}
              />
              {t("monitoring.trace.onlyErrors")}
            </label>
          </fieldset>
          <div className="flex gap-2 justify-end">
            <button
              type="button"
              className="btn btn-sm btn-primary"
              disabled={running || thresholdValue === null}
              onClick={start}
            >
              {t("common.action.start")}
            </button>
            <button type="button" className="btn btn-sm" disabled={!running} onClick={trace.stop}>
              {t("common.action.stop")}
            </button>
          </div>
        </div>
      </div>
      <LiveNotices socket={trace} />
      <DataTable<TraceMessage>
        entity={t("monitoring.trace.entity")}
        id="traces"
        rows={trace.messages}
        rowId={(m) => String(messageId(m))}
        emptyMessage={started ? t("monitoring.trace.emptyRunning") : t("monitoring.trace.emptyIdle")}
        columns={[
          {
            id: "time",
            label: t("monitoring.trace.columnTime"),
            value: (m) => m.time,
            render: (m) => nowrap(formatDateTime(m.time)),
          },
          { id: "api", label: t("common.word.name"), value: (m) => m.api, render: (m) => nowrap(m.api) },
          {
            id: "status",
            label: t("common.word.status"),
            value: (m) => m.statusCode || m.statusMsg,
            render: statusCell,
          },
          {
            id: "location",
            label: t("monitoring.trace.columnLocation"),
            value: (m) => `${m.path}${m.query ? `?${m.query}` : ""}`,
          },
          {
            id: "duration",
            label: t("monitoring.trace.columnLoadTime"),
            value: (m) => m.callStats.duration,
            render: (m) => nowrap(shortDuration(m.callStats.duration)),
            align: "right",
          },
          {
            id: "rx",
            label: t("monitoring.trace.columnUpload"),
            value: (m) => m.callStats.rx,
            render: (m) => nowrap(formatBytes(m.callStats.rx)),
            align: "right",
          },
          {
            id: "tx",
            label: t("monitoring.trace.columnDownload"),
            value: (m) => m.callStats.tx,
            render: (m) => nowrap(formatBytes(m.callStats.tx)),
            align: "right",
          },
        ]}
      />
    </div>
  );
}
