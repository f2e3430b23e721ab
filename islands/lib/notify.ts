/**
 * The console's global UI state shared by every island on a page: the loading progress (thin bar while under
 * 100), the red error banner and the snackbar (spec 1 §2, §3 system state, §8). One signal store, one
 * mounted <Notifications/>, however many islands a page has.
 */
import { signal } from "@preact/signals-react";
import { capitalize, detailBeside } from "./messages.ts";
import { mountNotifications } from "./notifications_mount.ts";

export interface BannerMessage {
  message: string;
  detail: string;
  /** Distinguishes two equal messages shown one after the other, so the second restarts the timer. */
  id: number;
}

export interface SnackMessage {
  message: string;
  detail: string;
  type: "error" | "success" | "info";
}

/** Snackbar display time (spec 1 §2): 5 s, errors 10 s. */
export const SNACKBAR_MS = 5_000;
export const SNACKBAR_ERROR_MS = 10_000;

/** At most this many error banners at once; an older one gives way to a newer. */
export const MAX_BANNERS = 4;

export const loadingProgress = signal(100);
/** The error banners shown, oldest first: two failures on one page are both read, one under the other. */
export const banners = signal<BannerMessage[]>([]);
export const snackbar = signal<SnackMessage | null>(null);

let bannerCount = 0;

/**
 * Shows a red error banner under those already shown (each auto-hides after 10 s, paused while hovered). The
 * same failure again replaces its banner, restarting its timer, rather than stacking a copy.
 */
export function showErrorBanner(message: string, detail = ""): void {
  const next = { message: capitalize(message), detail: detailBeside(message, detail), id: ++bannerCount };
  const others = banners.value.filter((b) => b.message !== next.message || b.detail !== next.detail);
  banners.value = [...others, next].slice(-MAX_BANNERS);
  mountNotifications();
}

/** Closes one banner (its close button, or its timer running out). */
export function dismissBanner(id: number): void {
  banners.value = banners.value.filter((b) => b.id !== id);
}

/** Shows a snackbar message (5 s, errors 10 s). */
export function showSnackbar(message: string, type: SnackMessage["type"] = "success", detail = ""): void {
  snackbar.value = { message: capitalize(message), detail: detailBeside(message, detail), type };
  mountNotifications();
}

/** Tracks in-flight requests: the bar shows while any runs. */
let inFlight = 0;
export function trackRequest<T>(work: Promise<T>): Promise<T> {
  inFlight++;
  loadingProgress.value = 10;
  mountNotifications();
  return work.finally(() => {
    inFlight--;
    loadingProgress.value = inFlight > 0 ? 60 : 100;
  });
}
