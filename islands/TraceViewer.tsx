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
import { messageId, useLiveSocket } from "./lib/live_socket.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { TextField } from "./ui/fields.tsx";
import { LiveNotices } from "./tools/LiveNotices.tsx";

const CALLS = [
  { id: "all", label: "All" },
  { id: "s3", label: "S3" },
  { id: "internal", label: "Internal" },
  { id: "storage", label: "Storage" },
  { id: "os", label: "OS" },
] as const;
type Call = typeof CALLS[number]["id"];

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
  const started = trace.status !== "idle";

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
            {field("statusCode", "Status Code")}
            {field("method", "Method")}
            {field("funcname", "Function Name")}
            {field("path", "Path")}
            <div className="w-44">
              <TextField
                label="Response Threshold (ms)"
                type="number"
                value={threshold}
                onChange={setThreshold}
                disabled={running}
                min="0"
                error={thresholdValue === null ? "Value needs to be 0 or greater" : undefined}
              />
            </div>
          </div>
          <fieldset className="flex flex-wrap items-center gap-4" disabled={running}>
            <legend className="text-sm font-bold mb-1">Calls to trace</legend>
            {CALLS.map((call) => (
              <label key={call.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={calls.includes(call.id)}
                  onChange={() => toggle(call.id)}
                />
                {call.label}
              </label>
            ))}
            <label className="flex items-center gap-2 text-sm ml-4">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                checked={onlyErrors}
                onChange={(e) => setOnlyErrors(e.target.checked)}
              />
              Display only Errors
            </label>
          </fieldset>
          <div className="flex gap-2 justify-end">
            <button
              type="button"
              className="btn btn-sm btn-primary"
              disabled={running || thresholdValue === null}
              onClick={start}
            >
              Start
            </button>
            <button type="button" className="btn btn-sm" disabled={!running} onClick={trace.stop}>
              Stop
            </button>
          </div>
        </div>
      </div>
      <LiveNotices socket={trace} />
      <DataTable<TraceMessage>
        entity="traces"
        rows={trace.messages}
        rowId={(m) => String(messageId(m))}
        emptyMessage={started ? "No Traced elements received yet" : "Trace is not started yet"}
        columns={[
          { id: "time", label: "Time", value: (m) => m.time, render: (m) => nowrap(formatDateTime(m.time)) },
          { id: "api", label: "Name", value: (m) => m.api, render: (m) => nowrap(m.api) },
          { id: "status", label: "Status", value: (m) => m.statusCode || m.statusMsg, render: statusCell },
          { id: "location", label: "Location", value: (m) => `${m.path}${m.query ? `?${m.query}` : ""}` },
          {
            id: "duration",
            label: "Load Time",
            value: (m) => m.callStats.duration,
            render: (m) => nowrap(shortDuration(m.callStats.duration)),
            align: "right",
          },
          {
            id: "rx",
            label: "Upload",
            value: (m) => m.callStats.rx,
            render: (m) => nowrap(formatBytes(m.callStats.rx)),
            align: "right",
          },
          {
            id: "tx",
            label: "Download",
            value: (m) => m.callStats.tx,
            render: (m) => nowrap(formatBytes(m.callStats.tx)),
            align: "right",
          },
        ]}
      />
    </div>
  );
}
