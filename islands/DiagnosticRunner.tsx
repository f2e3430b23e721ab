/**
 * Diagnostic (/health-info, spec 3 §2.6, §4, §8): Start Diagnostic asks the storage for its health report
 * (deadline 1h) with a spinner while it runs; when it arrives the report is offered for Download as a JSON
 * file. Close codes 1011, 1008 and 1006, a session that ended (4001, 4003), or a socket error, end in the
 * spec's error message.
 */
import { useEffect, useState } from "react";
import { useLiveSocket } from "./lib/live_socket.ts";
import { t } from "./lib/i18n/t.ts";
import { LiveNotices, sessionEndNotice } from "./tools/LiveNotices.tsx";

export const DEADLINE = "1h";
type Phase = "idle" | "running" | "ready" | "error";

/** The report's file name: health-info_<UTC timestamp>.json. */
export const reportFileName = (now: Date) =>
  `health-info_${now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}.json`;

export default function DiagnosticRunner() {
  const socket = useLiveSocket<Record<string, unknown>>({ limit: 1 });
  const [phase, setPhase] = useState<Phase>("idle");
  const report = socket.messages[0] ?? null;

  useEffect(() => {
    if (phase !== "running" || socket.status !== "closed") return;
    const failed = socket.closeCode === 1011 || socket.closeCode === 1008 || socket.closeCode === 1006 ||
      sessionEndNotice(socket.closeCode) !== null || !report;
    setPhase(failed ? "error" : "ready");
  }, [socket.status, socket.closeCode, report, phase]);

  const start = () => {
    setPhase("running");
    socket.start("/ws/health-info", { deadline: DEADLINE });
  };
  const download = () => {
    if (!report) return;
    const url = URL.createObjectURL(
      new Blob([JSON.stringify(report, null, 2)], { type: "application/json" }),
    );
    const link = document.createElement("a");
    link.href = url;
    link.download = reportFileName(new Date());
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="card bg-base-100 shadow-sm max-w-3xl">
      <div className="card-body items-center text-center gap-4">
        <p className="text-sm text-base-content/80">
          {t("monitoring.diagnostic.intro")}
        </p>
        <div role="status" className="min-h-6" data-testid="diagnostic-status">
          {phase === "running"
            ? (
              <span className="flex items-center gap-2">
                <span className="loading loading-spinner loading-sm" />
                {t("monitoring.diagnostic.running")}
              </span>
            )
            : null}
          {phase === "ready"
            ? <span className="text-success">{t("monitoring.diagnostic.ready")}</span>
            : null}
          {phase === "error" ? <span className="text-error">{t("monitoring.diagnostic.failed")}</span> : null}
        </div>
        {phase === "error"
          ? (
            <LiveNotices
              socket={{ ...socket, closeCode: sessionEndNotice(socket.closeCode) ? socket.closeCode : null }}
            />
          )
          : null}
        <div className="flex gap-2">
          <button type="button" className="btn btn-primary" disabled={phase === "running"} onClick={start}>
            {t("monitoring.diagnostic.start")}
          </button>
          <button type="button" className="btn" disabled={phase !== "ready"} onClick={download}>
            {t("common.action.download")}
          </button>
        </div>
      </div>
    </div>
  );
}
