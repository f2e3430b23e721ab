/**
 * Requests in turn. The console's pages and API calls run on one thread, and each waits on several storage
 * round trips; with every arriving request started at once, 200 busy sessions meant some 1,800 storage calls
 * in flight, requests overtaking each other at every round trip, and a tail of unlucky ones: the bucket
 * Summary's p99 was 5.2 s at a p50 of 0.5 s. With at most `limit` requests worked on at once and the others
 * started in arrival order, a request waits its turn once instead of at every step (p99 0.75 s in the same
 * run; docs/benchmark-notes.md).
 *
 * A request holds its place until its response is ready (not while its body streams out) or for `holdMs`
 * at most: a slow one (a large listing, an upload, a proxied tenant call that comes back to this console)
 * then goes on outside the count, so it can never hold up the requests behind it for longer than that.
 */

export interface AdmissionOptions {
  /** Requests worked on at once; the rest wait in arrival order. */
  limit: number;
  /** After this long a request no longer counts against the limit (it goes on regardless). */
  holdMs: number;
}

export interface Admission {
  /** Runs `work` in its turn; its result (or error) is the caller's. */
  run<T>(work: () => T | Promise<T>): Promise<T>;
  /** Requests working and waiting now (tests, health reports). */
  readonly state: { working: number; waiting: number };
}

export function createAdmission(options: AdmissionOptions): Admission {
  let working = 0;
  // A queue as an array and a read position: shift() would copy the rest on every admission.
  let waiting: (() => void)[] = [];
  let head = 0;

  /** Gives a place back: the next in line takes it, or it stays free. */
  const leave = () => {
    if (head < waiting.length) {
      const next = waiting[head++];
      if (head > 1024 && head * 2 > waiting.length) {
        waiting = waiting.slice(head);
        head = 0;
      }
      next();
    } else {
      working--;
    }
  };

  async function run<T>(work: () => T | Promise<T>): Promise<T> {
    if (working < options.limit) working++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    // The place is held by this request from here; `leave` runs once, whichever comes first.
    let left = false;
    const leaveOnce = () => {
      if (left) return;
      left = true;
      clearTimeout(timer);
      leave();
    };
    const timer = setTimeout(leaveOnce, options.holdMs);
    try {
      return await work();
    } finally {
      leaveOnce();
    }
  }

  return {
    run,
    get state() {
      return { working, waiting: waiting.length - head };
    },
  };
}
