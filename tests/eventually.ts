/**
 * Waiting in tests for what happens in its own time (a record delivered, a subscription made, a scan
 * finished) without a fixed sleep. `eventually` asks again until the answer is the awaited one and, when
 * the time is up, fails saying what it waited for and what it saw last; `within` puts a deadline on one
 * promise. Deadlines are generous: they only stop a broken test from hanging, and the shared machine is slow.
 */

export interface EventuallyOptions<T> {
  /** Whether a value is the awaited one; by default any truthy value is. */
  until?: (value: T) => boolean;
  /** How long to keep asking before failing. */
  timeoutMs?: number;
  /** Ends the wait at once, failing with the signal's reason (the process being waited on exited, say). */
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** The first retry comes soon (most waits are for a few milliseconds); later ones back off to this. */
const MAX_INTERVAL_MS = 100;

const describe = (value: unknown) => Deno.inspect(value, { depth: 4, iterableLimit: 20 }).slice(0, 2000);

/**
 * Calls `read` until its value is the awaited one and returns that value. A `read` that throws is asked
 * again (a server still starting refuses connections); its last error is in the failure message.
 *
 * ```ts
 * await eventually("the server to subscribe", () => hub.subscriberCount > 0);
 * const rows = await eventually("three rows", () => reader.rows(), { until: (r) => r.length === 3 });
 * ```
 */
export async function eventually<T>(
  what: string,
  read: () => T | Promise<T>,
  options: EventuallyOptions<T> = {},
): Promise<T> {
  const { until = Boolean, timeoutMs = DEFAULT_TIMEOUT_MS, signal } = options;
  const deadline = performance.now() + timeoutMs;
  let last: { value: T } | undefined;
  let lastError: unknown;
  for (let interval = 5;; interval = Math.min(interval * 2, MAX_INTERVAL_MS)) {
    signal?.throwIfAborted();
    try {
      const value = await read();
      if (until(value)) return value;
      last = { value };
    } catch (error) {
      lastError = error;
    }
    const left = deadline - performance.now();
    if (left <= 0) {
      const seen = last ? `; last value: ${describe(last.value)}` : "";
      const failed = lastError === undefined ? "" : `; last error: ${describe(lastError)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}${failed}`);
    }
    await pause(Math.min(interval, left), signal);
  }
}

/** Waits `ms` between two questions; an aborted signal ends the pause at once. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * `promise`, or a failure naming `what` once `timeoutMs` has passed without it settling (the timer is
 * cleared either way, so a test that passes leaves none behind). `what` may be a function, to say what had
 * been seen by the time the wait ended.
 */
export async function within<T>(
  what: string | (() => string),
  promise: Promise<T>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const described = typeof what === "string" ? what : what();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${described}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
