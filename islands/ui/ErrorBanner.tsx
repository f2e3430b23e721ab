/**
 * The red error banner (spec 1 §2): title Error, the message, expandable Details, a close button, and auto-hide
 * after 10 s that pauses while the pointer is over it (or focus is inside it, so a keyboard user reading the
 * details keeps it too). Two variants share the markup: in an island the timer is a script timer that can be
 * paused; rendered on the server (errors met while building a page) hiding and closing work with CSS alone, so
 * a page without islands still needs no script.
 */
import { useEffect, useRef } from "react";
import { t } from "../lib/i18n/t.ts";

export const BANNER_HIDE_MS = 10_000;

/** The element holding a page's banners, one under the other (the Shell renders it; islands add to it). */
export const BANNERS_ID = "deck-banners";

export interface ErrorBannerProps {
  message: string;
  detail?: string;
  /** Client-side close (also called when the timer runs out); on the server a CSS checkbox closes it. */
  onClose?: () => void;
  /** Restarts the timer when a new message replaces the old one. */
  id?: string | number;
}

/**
 * Calls `onExpire` after `ms` of running time. `hold(reason, true)` stops the clock while that reason lasts
 * (pointer over it, focus inside it); it runs on with the time left once no reason holds it.
 */
function usePausableTimer(ms: number, onExpire: (() => void) | undefined, key: unknown) {
  const state = useRef({
    remaining: ms,
    startedAt: 0,
    timer: 0 as ReturnType<typeof setTimeout> | 0,
    holds: new Set<string>(),
  });
  const expire = useRef(onExpire);
  expire.current = onExpire;
  const run = () => {
    const s = state.current;
    if (s.timer || s.holds.size > 0 || !expire.current) return;
    s.startedAt = Date.now();
    s.timer = setTimeout(() => expire.current?.(), s.remaining);
  };
  const stop = () => {
    const s = state.current;
    if (!s.timer) return;
    clearTimeout(s.timer);
    s.timer = 0;
    s.remaining = Math.max(0, s.remaining - (Date.now() - s.startedAt));
  };
  useEffect(() => {
    stop();
    state.current = { remaining: ms, startedAt: 0, timer: 0, holds: state.current.holds };
    run();
    return stop;
  }, [key]);
  return (reason: string, held: boolean) => {
    if (held) state.current.holds.add(reason);
    else state.current.holds.delete(reason);
    if (held) stop();
    else run();
  };
}

export function ErrorBanner({ message, detail, onClose, id }: ErrorBannerProps) {
  const hold = usePausableTimer(BANNER_HIDE_MS, onClose, id ?? message + (detail ?? ""));
  const inputId = `deck-banner-${id ?? "server"}`;
  const live = !!onClose;
  return (
    <div className="deck-banner-wrap">
      {live
        ? null
        : <input type="checkbox" id={inputId} className="deck-banner-close hidden" aria-hidden="true" />}
      <div
        role="alert"
        className={`${live ? "" : "deck-banner-timed "}alert alert-error shadow-lg flex items-start gap-3`}
        data-testid="error-banner"
        // Held by a pointer moving over it, not by one it appeared under (it pushes the content down, often
        // under the pointer that clicked): the 10 s then run until the pointer is put on it.
        onMouseMove={() => hold("pointer", true)}
        onMouseLeave={() => hold("pointer", false)}
        onFocus={() => hold("focus", true)}
        onBlur={(e) => hold("focus", e.currentTarget.contains(e.relatedTarget as Node | null))}
      >
        <div className="flex-1 min-w-0">
          <div className="font-bold">{t("common.banner.error")}</div>
          <div className="break-words">{message}</div>
          {detail
            ? (
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer">{t("common.banner.details")}</summary>
                <div className="mt-1 whitespace-pre-wrap break-words">{detail}</div>
              </details>
            )
            : null}
        </div>
        {live
          ? (
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-circle"
              aria-label={t("common.action.close")}
              onClick={onClose}
            >
              ✕
            </button>
          )
          : (
            <label
              htmlFor={inputId}
              className="btn btn-ghost btn-sm btn-circle"
              aria-label={t("common.action.close")}
            >
              ✕
            </label>
          )}
      </div>
    </div>
  );
}

/**
 * Where a page's error banners stand: above the content (pushing it down, so the breadcrumb and title stay
 * readable) and kept in view while the page scrolls. A banner met while building the page is rendered in it.
 */
export function BannerArea({ error }: { error?: { message: string; detail?: string } }) {
  return (
    <div id={BANNERS_ID} className="deck-banners">
      {error ? <ErrorBanner message={error.message} detail={error.detail} /> : null}
    </div>
  );
}
