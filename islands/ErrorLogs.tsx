/**
 * Logs › Error Logs (spec 3 §2.6): the storage's console log, live, the last 100 entries first. An error shows
 * API, Time, DeploymentID, RequestID, RemoteHost, Host, UserAgent, the error message and its source lines;
 * other entries show their console text. 'Highlight Line' marks the entries containing the text.
 */
import { useEffect, useMemo, useState } from "react";
import type { ConsoleMessage } from "../server/lib/contract/tools.ts";
import { formatDateTime } from "./lib/format.ts";
import { t } from "./lib/i18n/t.ts";
import { messageId, useLiveSocket } from "./lib/live_socket.ts";
import { cleanLogLines } from "./lib/pod_logs.ts";
import { SearchBox } from "./ui/fields.tsx";
import { LiveNotices } from "./tools/LiveNotices.tsx";

/** An error or a warning: shown with its fields, even from a server that sent no error block with it. */
const isProblem = (entry: ConsoleMessage) =>
  !!entry.error || ["ERROR", "FATAL", "WARNING"].includes(entry.level?.toUpperCase() ?? "");

/** The lines an entry shows, in order; every entry says when it happened. */
export function logEntryLines(entry: ConsoleMessage): string[] {
  if (!isProblem(entry)) {
    const text = entry.ConsoleMsg || entry.message || "";
    return cleanLogLines(entry.time ? `${formatDateTime(entry.time)}  ${text}` : text);
  }
  const field = (label: string, value: string | undefined) => (value ? [`${label}: ${value}`] : []);
  return [
    ...field("API", entry.api?.name),
    ...(entry.time ? [t("monitoring.errorLogs.time", { value: formatDateTime(entry.time) })] : []),
    ...field("DeploymentID", entry.deploymentid),
    ...field("RequestID", entry.requestID),
    ...field("RemoteHost", entry.remotehost),
    ...field("Host", entry.host),
    ...field("UserAgent", entry.userAgent),
    t("monitoring.errorLogs.error", {
      value: entry.error?.message ?? entry.message ?? entry.ConsoleMsg ?? "",
    }),
    // A no-break space keeps the number with its line when a narrow window wraps it.
    ...(entry.error?.source ?? []).map((line, i) => `${String(i + 1).padStart(4)}:\u00a0${line}`),
  ].flatMap((line) => cleanLogLines(line));
}

export default function ErrorLogs() {
  const log = useLiveSocket<ConsoleMessage>({ limit: 1000, reconnect: true });
  const [highlight, setHighlight] = useState("");
  useEffect(() => log.start("/ws/console"), []);
  // The hook keeps newest first; a console reads top to bottom.
  const entries = useMemo(() => [...log.messages].reverse(), [log.messages]);
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-3">
        <SearchBox
          placeholder={t("monitoring.errorLogs.highlight")}
          value={highlight}
          onChange={setHighlight}
        />
        <span className="text-sm text-base-content/70" role="status">
          {log.status === "open"
            ? t("monitoring.errorLogs.live")
            : log.status === "connecting"
            ? t("monitoring.errorLogs.connecting")
            : log.status === "closed"
            ? t("monitoring.errorLogs.disconnected")
            : ""}
        </span>
      </div>
      <LiveNotices socket={log} />
      <div
        className="bg-neutral text-neutral-content rounded-box p-3 font-mono text-xs overflow-auto max-h-[70vh] min-h-48"
        data-testid="error-logs"
      >
        {entries.length === 0 ? <p className="opacity-70">{t("monitoring.errorLogs.empty")}</p> : null}
        {entries.map((entry) => {
          const lines = logEntryLines(entry);
          const hit = highlight !== "" && lines.some((line) => line.includes(highlight));
          return (
            // The server's own words, as MinIO logs them (English): data, not the console's text.
            <div
              key={messageId(entry)}
              translate="no"
              className={`py-1 border-b border-neutral-content/10 ${hit ? "bg-warning text-black" : ""} ${
                isProblem(entry) && !hit ? "text-error" : ""
              }`}
              data-highlighted={hit ? "true" : undefined}
              data-level={entry.level}
            >
              {lines.map((line, i) => (
                <div
                  key={i}
                  className={`whitespace-pre-wrap wrap-anywhere ${
                    isProblem(entry) && i === 0 ? "font-bold" : ""
                  }`}
                >
                  {line || "\u00a0"}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
