/**
 * The "server needs restart" flag of this page (spec 1 §3 system state serverNeedsRestart): settings islands
 * raise it after a save that needs a restart; the restart banner shows while it is up. The server keeps it in
 * a cookie, so every page renders the banner until a restart succeeds.
 */
import { signal } from "@preact/signals-react";

export const serverNeedsRestart = signal(false);

/** After a save: raise the flag when the server says the change needs a restart. */
export function noteRestart(result: { restart?: boolean } | undefined): void {
  if (result?.restart) serverNeedsRestart.value = true;
}
