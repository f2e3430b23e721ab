/**
 * Delivers one target's events, in order, off the request path.
 *
 * - With a queue store (`queue_dir`): every event is first appended to the store (group commit), then sent
 *   from it and acknowledged once delivered. While the target is unreachable events wait on disk, up to
 *   the store's limit, and are retried with backoff; none is lost or sent twice (minio-protocol-2 §1.8).
 * - Without one: events wait in memory (up to `queue_limit`); a batch the target fails to take is dropped,
 *   as MinIO does, and every drop is counted and logged: never silently.
 */
import { type LogContext, requestOfItem, sourceLines } from "../streams/log_entry.ts";
import type { QueueStore } from "./queue_store.ts";
import { type Delivery, DeliveryError, type NotifyEvent, type Target } from "./target.ts";

const BATCH = 100;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 3000;

export interface RunnerStats {
  /** Events the target took. */
  delivered: number;
  /** Events dropped: a failed attempt without a queue store, or a full queue. */
  dropped: number;
  /** Failed delivery attempts. */
  failures: number;
  /** Events waiting (in memory or in the store). */
  queued: number;
}

export interface RunnerOptions {
  store?: QueueStore;
  /** In-memory queue bound when there is no store. */
  memoryLimit: number;
  /** Errors and warnings come with where they happened and, for a failed send, the request behind it. */
  log: (level: "ERROR" | "WARNING" | "INFO", message: string, context?: LogContext) => void;
  /** Most events handed to one `send` (default 100). */
  batch?: number;
  /**
   * Retry rule of audit/logger webhooks (minio-protocol-2 §2.2): a failed send is tried again every
   * `intervalMs`; without a store, after `max` further failures (0: never) the first `unit` events (what one
   * send carries) are dropped and the rest wait for their own tries. With a store, events stay queued until
   * delivered and are retried at that interval. Absent: notification targets' rule (no retry without a
   * store; backoff from 250 ms to 3 s with one).
   */
  retry?: { max: number; intervalMs: number; unit: number };
  /** What the log calls the items ("event(s)"). */
  noun?: string;
}

/** A promise to wait on until something changes (new events, stop). */
class Wakeup {
  #resolve: (() => void) | null = null;
  wait(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => (this.#resolve = null, resolve()), ms);
      this.#resolve = () => (clearTimeout(timer), resolve());
    });
  }
  wake(): void {
    const resolve = this.#resolve;
    this.#resolve = null;
    resolve?.();
  }
}

export class TargetRunner {
  readonly #stats = { delivered: 0, dropped: 0, failures: 0 };
  /** Events not yet in the store (store mode) or not yet sent (memory mode). */
  #memory: Delivery[] = [];
  #stopping = false;
  #online = true;
  /** Set when a connection check passes during a backoff: queued events are retried at once. */
  #retryNow = false;
  #lastLog = { message: "", at: 0 };
  readonly #appenderWake = new Wakeup();
  readonly #senderWake = new Wakeup();
  readonly #loops: Promise<void>[];

  constructor(readonly target: Target, private readonly options: RunnerOptions) {
    this.#loops = options.store
      ? [this.#appendLoop(options.store), this.#storeSendLoop(options.store)]
      : [this.#memorySendLoop()];
  }

  get stats(): RunnerStats {
    return { ...this.#stats, queued: this.#memory.length + (this.options.store?.length ?? 0) };
  }

  /** Takes an event (synchronously, in order). */
  enqueue(delivery: Delivery): void {
    if (this.#stopping) return;
    if (!this.options.store && this.#memory.length >= this.options.memoryLimit) {
      this.#drop(1, "the in-memory queue is full", delivery);
      return;
    }
    this.#memory.push(delivery);
    (this.options.store ? this.#appenderWake : this.#senderWake).wake();
  }

  /** Events handed over by the runner this one replaces (memory mode), kept in front of newer ones. */
  adopt(events: Delivery[]): void {
    this.#memory.unshift(...events);
    (this.options.store ? this.#appenderWake : this.#senderWake).wake();
  }

  /**
   * Stops taking events, moves what is pending into the store (store mode), lets a running send finish, and
   * closes the target and store. Resolves with the in-memory events not sent (memory mode).
   */
  async stop(): Promise<Delivery[]> {
    this.#stopping = true;
    this.#appenderWake.wake();
    this.#senderWake.wake();
    await Promise.all(this.#loops);
    await this.target.close().catch(() => {});
    await this.options.store?.close();
    const left = this.#memory;
    this.#memory = [];
    return left;
  }

  /** Online when a real connection check passes (minio-protocol-2 §1.8). */
  async isOnline(): Promise<boolean> {
    const active = await this.target.isActive().catch(() => false);
    if (active && !this.#online) {
      this.#retryNow = true; // retry queued events now instead of after the backoff
      this.#senderWake.wake();
    }
    return active;
  }

  async #appendLoop(store: QueueStore): Promise<void> {
    while (true) {
      if (this.#memory.length === 0) {
        if (this.#stopping) return;
        await this.#appenderWake.wait();
        continue;
      }
      const batch = this.#memory.splice(0, 1000);
      try {
        const refused = await store.append(batch.map((b) => b.line));
        if (refused > 0) this.#drop(refused, `the queue store limit (${store.limit}) is reached`);
      } catch (error) {
        this.#drop(
          batch.length,
          `the queue store cannot be written: ${error instanceof Error ? error.message : error}`,
        );
      }
      this.#senderWake.wake();
    }
  }

  get #batch(): number {
    return this.options.batch ?? BATCH;
  }

  async #storeSendLoop(store: QueueStore): Promise<void> {
    const retry = this.options.retry;
    let backoff = retry ? retry.intervalMs : BACKOFF_MIN_MS;
    while (!this.#stopping) {
      if (store.length === 0) {
        await this.#senderWake.wait();
        continue;
      }
      if (store.length < this.#batch) await this.#linger();
      const lines = await store.peek(this.#batch);
      const batch = lines.map(lazyDelivery);
      const delivered = await this.#attempt(batch);
      if (delivered > 0) await store.ack(delivered);
      if (delivered === batch.length) {
        backoff = retry ? retry.intervalMs : BACKOFF_MIN_MS;
        continue;
      }
      if (this.#stopping) return;
      await this.#backoff(backoff);
      backoff = retry ? retry.intervalMs : Math.min(backoff * 2, BACKOFF_MAX_MS);
    }
  }

  /**
   * Waits before a retry. New events must not cut the wait short (an outage would cost an attempt per
   * event); only a stop or a passing connection check does.
   */
  async #backoff(ms: number): Promise<void> {
    const retryAt = Date.now() + ms;
    this.#retryNow = false;
    while (!this.#stopping && !this.#retryNow && Date.now() < retryAt) {
      await this.#senderWake.wait(retryAt - Date.now());
    }
  }

  async #memorySendLoop(): Promise<void> {
    while (true) {
      if (this.#memory.length === 0 || this.#stopping) {
        if (this.#stopping) return;
        await this.#senderWake.wait();
        continue;
      }
      if (this.#memory.length < this.#batch) await this.#linger();
      let batch = this.#memory.splice(0, this.#batch);
      const retry = this.options.retry;
      let failures = 0;
      while (true) {
        const delivered = await this.#attempt(batch);
        batch = batch.slice(delivered);
        if (batch.length === 0) break;
        failures++;
        if (this.#stopping && retry) {
          this.#memory.unshift(...batch); // handed to a successor, or counted at stop
          break;
        }
        if (!retry) {
          this.#drop(batch.length, "the target did not take them and there is no queue directory", batch[0]);
          break;
        }
        if (retry.max > 0 && failures > retry.max) {
          // Only the send that kept failing is given up; the events behind it get their own tries.
          const unit = Math.max(1, retry.unit);
          this.#drop(
            Math.min(unit, batch.length),
            `still not delivered after ${retry.max} retries`,
            batch[0],
          );
          this.#memory.unshift(...batch.slice(unit));
          break;
        }
        await this.#backoff(retry.intervalMs);
      }
    }
  }

  /**
   * Lets a few more events gather before a send to a target that takes a batch in one go (one statement,
   * one transaction, one flush): under load that turns hundreds of round trips and commits into a few.
   */
  #linger(): Promise<void> {
    const ms = this.target.lingerMs ?? 0;
    return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
  }

  /** One delivery attempt; resolves with how many leading events arrived. */
  async #attempt(batch: Delivery[]): Promise<number> {
    try {
      await this.target.send(batch);
      this.#delivered(batch);
      return batch.length;
    } catch (error) {
      const delivered = error instanceof DeliveryError ? error.delivered : 0;
      if (delivered > 0) this.#delivered(batch.slice(0, delivered));
      this.#stats.failures++;
      this.#online = false;
      this.#log("ERROR", error instanceof Error ? error.message : String(error), {
        source: sourceLines(error),
        request: batch[delivered] ? requestOfItem(batch[delivered].line) : undefined,
      });
      return delivered;
    }
  }

  #delivered(batch: Delivery[]): void {
    this.#stats.delivered += batch.length;
    if (!this.#online) this.#log("INFO", `delivering ${this.options.noun ?? "event(s)"} again`);
    this.#online = true;
  }

  /** Counts and logs a drop; `first` (the first item dropped) names the request behind it in the log. */
  #drop(count: number, why: string, first?: Delivery): void {
    this.#stats.dropped += count;
    this.#log(
      "ERROR",
      `${count} ${this.options.noun ?? "event(s)"} dropped: ${why} (${this.#stats.dropped} dropped so far)`,
      first ? { request: requestOfItem(first.line) } : undefined,
    );
  }

  /** Logs, but the same message at most once per 10 s so an outage does not flood the log. */
  #log(level: "ERROR" | "WARNING" | "INFO", message: string, context?: LogContext): void {
    const now = Date.now();
    const key = message.replace(/\d+/g, "#");
    if (key === this.#lastLog.message && now - this.#lastLog.at < 10_000) return;
    this.#lastLog = { message: key, at: now };
    this.options.log(
      level,
      message,
      level === "INFO" ? context : { source: sourceLines(undefined, 1), ...context },
    );
  }
}

/** An event as its JSON line: message targets send the line as is, so it is parsed only if a target asks. */
export function lazyDelivery(line: string): Delivery {
  let event: NotifyEvent | undefined;
  return {
    line,
    get event() {
      return event ??= JSON.parse(line) as NotifyEvent;
    },
  };
}
