/**
 * The console's global UI state shared by every island on a page: the loading progress (thin bar while under
 * 100), the red error banner and the snackbar (spec 1 §2, §3 system state, §8). One signal store, one
 * mounted <Notifications/>, however many islands a page has.
 */
import { signal } from "@preact/signals-react";

export interface BannerMessage {
  message: string;
  detail: string;
}

export interface SnackMessage {
  message: string;
  detail: string;
  type: "error" | "success" | "info";
}

export const loadingProgress = signal(100);
export const banner = signal<BannerMessage | null>(null);
export const snackbar = signal<SnackMessage | null>(null);

let mounting: Promise<void> | null = null;

/** Mounts the notifications root once, the first time something is shown. */
function ensureMounted(): void {
  if (mounting || typeof document === "undefined") return;
  mounting = (async () => {
    const [{ createRoot }, { createElement }, { Notifications }] = await Promise.all([
      import("react-dom/client"),
      import("react"),
      import("./Notifications.tsx"),
    ]);
    const host = document.createElement("div");
    host.id = "deck-notifications";
    document.body.append(host);
    createRoot(host).render(createElement(Notifications));
  })();
}

/** Capitalises the first letter, as the spec's error rules require (spec 1 §8). */
export const capitalize = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);

/** Shows the red error banner (auto-hides after 10 s, paused while hovered). */
export function showErrorBanner(message: string, detail = ""): void {
  banner.value = { message: capitalize(message), detail: detail && detail !== message ? capitalize(detail) : "" };
  ensureMounted();
}

/** Shows a snackbar message (5 s, errors 10 s). */
export function showSnackbar(message: string, type: SnackMessage["type"] = "success", detail = ""): void {
  snackbar.value = { message: capitalize(message), detail: detail && detail !== message ? capitalize(detail) : "", type };
  ensureMounted();
}

/** Tracks in-flight requests: the bar shows while any runs. */
let inFlight = 0;
export function trackRequest<T>(work: Promise<T>): Promise<T> {
  inFlight++;
  loadingProgress.value = 10;
  ensureMounted();
  return work.finally(() => {
    inFlight--;
    loadingProgress.value = inFlight > 0 ? 60 : 100;
  });
}
