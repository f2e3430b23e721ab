/**
 * Background threads of the embedded storage (notification delivery, replication sends) lower their own
 * priority: when both cores are busy, the thread serving S3 requests should win and background work catch
 * up in the gaps (it waits in its queue meanwhile).
 */
import { setPriority } from "node:os";

/** The nice value of background threads (the thread serving S3 requests keeps the process's, normally 0). */
export const BACKGROUND_NICE = 10;

/**
 * On Linux the nice value belongs to a thread and `who = 0` names the calling one, so only the background
 * thread is lowered; the kernel still gives it a share under full load, so its work slows there but never
 * stops. Elsewhere the call would lower the whole process, so it is made on Linux only.
 */
export function lowerThisThreadsPriority(): void {
  if (Deno.build.os !== "linux") return;
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // Without the sys permission the thread keeps the process's priority; its work is done the same.
  }
}
