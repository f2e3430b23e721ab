/**
 * What the embedded storage's background threads (notification delivery, replication sends) share: they
 * lower their own priority, so when both cores are busy the thread serving S3 requests wins and background
 * work catches up in the gaps (it waits in its queue meanwhile); and work crosses between the threads in
 * batches gathered for a few milliseconds, so a burst wakes the other thread once rather than once an item.
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

/**
 * Items gathered for `ms` after the first of a burst and then handed over in one message (`post`, with the
 * buffers to transfer rather than copy). `flush` hands over at once, for a message that must not overtake
 * what is gathered; `discard` forgets what is gathered (the other thread is gone).
 */
export class Handover<T> {
  #items: T[] = [];
  #transfer: Transferable[] = [];

  constructor(
    private readonly ms: number,
    private readonly post: (items: T[], transfer: Transferable[]) => void,
  ) {}

  push(item: T, transfer?: Transferable): void {
    if (this.#items.length === 0) setTimeout(() => this.flush(), this.ms);
    this.#items.push(item);
    if (transfer) this.#transfer.push(transfer);
  }

  flush(): void {
    if (this.#items.length === 0) return;
    const items = this.#items;
    const transfer = this.#transfer;
    this.discard();
    this.post(items, transfer);
  }

  discard(): void {
    this.#items = [];
    this.#transfer = [];
  }
}
