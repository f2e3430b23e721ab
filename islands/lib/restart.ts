/**
 * The "server needs restart" flag of this page (spec 1 §3 system state serverNeedsRestart): settings islands
 * raise it after every configuration or notification-target save (spec 2 §4); the restart banner shows while
 * it is up. The server keeps it in a cookie, so every page renders the banner until a restart succeeds.
 */
import { signal } from "@preact/signals-react";

export const serverNeedsRestart = signal(false);

/** After a successful save: every save raises the flag, whether or not the server already applied it. */
export function noteConfigSaved(): void {
  serverNeedsRestart.value = true;
}
