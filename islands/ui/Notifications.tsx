/** Renders the loading bar, error banner and snackbar from the shared signal store (ui/notify.ts). */
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { ErrorBanner } from "./ErrorBanner.tsx";
import { banner, loadingProgress, snackbar, SNACKBAR_ERROR_MS, SNACKBAR_MS } from "./notify.ts";

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
  const current = banner.value;
  return (
    <>
      {loadingProgress.value < 100
        ? (
          <div
            className="deck-loading-bar"
            role="progressbar"
            aria-label="Loading"
            aria-valuenow={loadingProgress.value}
            data-testid="loading-bar"
          />
        )
        : null}
      {current
        ? (
          <div className="fixed top-2 left-1/2 -translate-x-1/2 z-50 w-[min(90vw,48rem)] pointer-events-none">
            <ErrorBanner
              message={current.message}
              detail={current.detail}
              id={current.id}
              onClose={() => (banner.value = null)}
            />
          </div>
        )
        : null}
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
