/**
 * The restart banner (spec 3 §4 "Restart flow"): while the server needs a restart it says so with a Restart
 * button; while restarting it says 'The server is restarting.' with a progress bar. On success the flag is
 * cleared (here and in the server's cookie); on failure it is only logged, as the spec asks.
 */
import { effect } from "@preact/signals-react";
import { useEffect, useState } from "react";
import { settingsApi } from "./lib/api/settings.ts";
import { serverNeedsRestart } from "./lib/restart.ts";
import { t } from "./lib/i18n/t.ts";

export interface RestartBannerProps {
  /** Whether the page was rendered with the flag up (the restart cookie). */
  needsRestart: boolean;
}

export default function RestartBanner({ needsRestart }: RestartBannerProps) {
  // Rendered from props (also on the server); in the browser it follows the page's shared flag.
  const [needed, setNeeded] = useState(needsRestart);
  const [restarting, setRestarting] = useState(false);
  useEffect(() => {
    if (needsRestart) serverNeedsRestart.value = true;
    return effect(() => setNeeded(serverNeedsRestart.value));
  }, []);
  if (!needed && !restarting) return null;
  async function restart() {
    setRestarting(true);
    try {
      await settingsApi.restart();
      serverNeedsRestart.value = false;
    } catch (error) {
      console.warn("restart failed:", error);
    } finally {
      setRestarting(false);
    }
  }
  return (
    <div
      role="status"
      className="alert alert-warning mb-4 flex flex-wrap items-center gap-3"
      data-testid="restart-banner"
    >
      {restarting
        ? (
          <div className="flex-1 min-w-0">
            <div>{t("common.restart.restarting")}</div>
            <progress
              className="progress progress-primary w-full mt-2"
              aria-label={t("common.restart.progress")}
            />
          </div>
        )
        : (
          <>
            <span className="flex-1 min-w-0">{t("common.restart.needed")}</span>
            <button type="button" className="btn btn-sm" onClick={restart}>
              {t("common.restart.button")}
            </button>
          </>
        )}
    </div>
  );
}
