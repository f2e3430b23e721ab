/**
 * Notification delivery on a thread of its own. Sending an event (an HTTP request, a database statement, a
 * publish) costs more CPU than building it, and on the thread that serves S3 it would slow every request;
 * here the main thread only posts each matched event's JSON line and the target keys it goes to. Messages
 * keep their order, so events reach each target in the order they happened and an apply lands between the
 * same events it would in one thread. If the thread cannot start, or dies, delivery falls back to the main
 * thread (queued events stay on disk; events held only in the dead thread's memory are counted as lost).
 * The thread runs below the priority of the one serving S3 requests (background_thread.ts).
 *
 * Protocol: main → worker `start {caCerts}` (first: the certificates its targets trust besides the system's),
 * `deliver {batch: [keys, line][]}`, `apply {id, specs}`, `status {id}`, `stats {id}`, `close {id}`;
 * worker → main `done {id, value?}` and `log {level, message, context?}`.
 */
import { Handover } from "../core/background_thread.ts";
import type { LogContext } from "../streams/log_entry.ts";
import { DeliveryHost, type HostLog, type NotificationStatus, type TargetSpec } from "./host.ts";
import type { RunnerStats } from "./runner.ts";

/** How long matched events gather before they are handed to the delivery thread. */
const HANDOVER_MS = 5;

export type ToWorker =
  | { op: "start"; caCerts: string[] }
  | { op: "deliver"; batch: [string[], string][] }
  | { op: "apply"; id: number; specs: TargetSpec[] }
  | { op: "status"; id: number }
  | { op: "stats"; id: number }
  | { op: "close"; id: number };

type FromWorker =
  | { op: "done"; id: number; value?: unknown }
  | { op: "log"; level: "ERROR" | "WARNING" | "INFO"; message: string; context?: LogContext };

/** The delivery side as the notifier sees it, wherever it runs. */
export interface EventDelivery {
  apply(specs: TargetSpec[]): Promise<void>;
  deliver(keys: string[], line: string): void;
  status(): Promise<NotificationStatus>;
  stats(): Promise<Record<string, RunnerStats>>;
  close(): Promise<void>;
}

/** Runs delivery on the calling thread (the fallback). */
export function inThread(log: HostLog, caCerts: string[]): EventDelivery {
  const host = new DeliveryHost(log, caCerts);
  return {
    apply: (specs) => host.apply(specs),
    deliver: (keys, line) => host.deliver(keys, line),
    status: () => host.status(),
    stats: () => Promise.resolve(host.stats()),
    close: () => host.close(),
  };
}

export class DeliveryThread implements EventDelivery {
  #worker: Worker | null;
  #fallback: EventDelivery | null = null;
  #pending = new Map<number, (value: unknown) => void>();
  #nextId = 1;
  /**
   * Matched events, handed over every few milliseconds rather than one message each: waking the other thread
   * per event cost more CPU than sending the event. Gathered ones the thread never got go to the fallback.
   */
  readonly #events = new Handover<[string[], string]>(HANDOVER_MS, (batch) => {
    if (this.#worker) this.#worker.postMessage({ op: "deliver", batch } satisfies ToWorker);
    else this.#toFallback(batch);
  });
  /** Settles once the fallback runs the targets; events wait for it in order (before it they would be dropped). */
  #fallbackReady: Promise<void> = Promise.resolve();
  #lastSpecs: TargetSpec[] = [];

  /**
   * `caCerts`: PEM certificates the targets trust besides the system's (the certificate directory's).
   * `workerUrl`: the thread's entry (a test passes one that fails, to see delivery carry on without it).
   */
  constructor(
    private readonly log: HostLog,
    private readonly caCerts: string[],
    workerUrl = new URL("./delivery_worker.ts", import.meta.url),
  ) {
    try {
      this.#worker = new Worker(workerUrl, { type: "module" });
      this.#worker.postMessage({ op: "start", caCerts } satisfies ToWorker);
      this.#worker.onmessage = (event: MessageEvent<FromWorker>) => this.#receive(event.data);
      this.#worker.onerror = (event) => {
        event.preventDefault();
        this.#fail(event.message);
      };
    } catch (error) {
      this.#worker = null;
      this.#fail(error instanceof Error ? error.message : String(error));
    }
  }

  #receive(message: FromWorker): void {
    if (message.op === "log") return this.log(message.level, message.message, message.context);
    const resolve = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    resolve?.(message.value);
  }

  /** The thread is gone: carry on in this one with the configuration it had. */
  #fail(reason: string): void {
    this.log("ERROR", `notification delivery thread stopped (${reason}); delivering from the main thread`);
    this.#worker?.terminate();
    this.#worker = null;
    this.#fallback = inThread(this.log, this.caCerts);
    const ready = this.#fallbackReady = this.#fallback.apply(this.#lastSpecs).catch(() => {}); // failures are logged by the host
    this.#events.flush();
    for (const [id, resolve] of this.#pending) {
      this.#pending.delete(id);
      ready.then(() => resolve(undefined));
    }
  }

  #call<T>(message: ToWorker & { id: number }): Promise<T> {
    this.#events.flush(); // an apply or status lands after the events that came before it
    return new Promise((resolve) => {
      this.#pending.set(message.id, resolve as (value: unknown) => void);
      this.#worker!.postMessage(message);
    });
  }

  #toFallback(batch: [string[], string][]): void {
    this.#fallbackReady.then(() => {
      for (const [keys, line] of batch) this.#fallback!.deliver(keys, line);
    });
  }

  apply(specs: TargetSpec[]): Promise<void> {
    this.#lastSpecs = specs;
    if (this.#fallback) return this.#fallback.apply(specs);
    return this.#call({ op: "apply", id: this.#nextId++, specs });
  }

  deliver(keys: string[], line: string): void {
    if (this.#fallback) return this.#toFallback([[keys, line]]);
    this.#events.push([keys, line]);
  }

  async status(): Promise<NotificationStatus> {
    if (this.#fallback) return await this.#fallback.status();
    return (await this.#call<NotificationStatus | undefined>({ op: "status", id: this.#nextId++ })) ?? [];
  }

  async stats(): Promise<Record<string, RunnerStats>> {
    if (this.#fallback) return await this.#fallback.stats();
    return (await this.#call<Record<string, RunnerStats> | undefined>({ op: "stats", id: this.#nextId++ })) ??
      {};
  }

  async close(): Promise<void> {
    if (this.#fallback) return await this.#fallback.close();
    if (!this.#worker) return;
    await this.#call({ op: "close", id: this.#nextId++ });
    this.#worker?.terminate();
    this.#worker = null;
  }
}
