/**
 * Renders the loading bar, error banners and snackbar from the shared signal store (islands/lib/notify.ts).
 * Banners go into the page's banner area (the Shell's, where a banner the server rendered already stands), so
 * they stack there above the content instead of covering its header.
 */
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { createPortal } from "react-dom";
import { t } from "../lib/i18n/t.ts";
import { BANNERS_ID, ErrorBanner } from "./ErrorBanner.tsx";
import {
  banners,
  dismissBanner,
  loadingProgress,
  snackbar,
  SNACKBAR_ERROR_MS,
  SNACKBAR_MS,
} from "../lib/notify.ts";

export function Notifications() {
  useSignals();
  const snack = snackbar.value;
  useEffect(() => {
    if (!snack) return;
    const timer = setTimeout(
      () => (snackbar.value = null),
      snack.type === "error" ? SNACKBAR_ERROR_MS : SNACKBAR_MS,
    );
    return () => clearTimeout(timer);
  }, [snack]);
  const shown = banners.value.map((b) => (
    <ErrorBanner
      key={b.id}
      message={b.message}
      detail={b.detail}
      id={b.id}
      onClose={() => dismissBanner(b.id)}
    />
  ));
  const area = typeof document === "undefined" ? null : document.getElementById(BANNERS_ID);
  return (
    <>
      {loadingProgress.value < 100
        ? (
          <div
            className="deck-loading-bar"
            role="progressbar"
            aria-label={t("common.notify.loading")}
            aria-valuenow={loadingProgress.value}
            data-testid="loading-bar"
          />
        )
        : null}
      {shown.length === 0
        ? null
        : area
        ? createPortal(shown, area)
        : <div className="deck-banners deck-banners-floating">{shown}</div>}
      {snack
        ? (
          <div className="toast toast-bottom toast-center z-50">
            <div
              role={snack.type === "error" ? "alert" : "status"}
              className={`alert ${snack.type === "error" ? "alert-error" : "alert-success"}`}
              data-testid="snackbar"
            >
              <span>{snack.message}{snack.detail ? ` — ${snack.detail}` : ""}</span>
            </div>
          </div>
        )
        : null}
    </>
  );
}
