/**
 * The embedded storage on a thread of its own (a Worker running worker.ts). The console reaches the storage
 * only over HTTP, so nothing else has to cross: on one JavaScript thread the console's pages and the storage
 * answering them shared one core, and under load each waited for the other; here the storage uses a second.
 *
 * The thread is supervised: it answers a heartbeat, and one that fails (an error that escaped it) or stops
 * answering (it ended, or is stuck) is ended and started again on the same data directory and address, so
 * its store, queues and settings are back as they were and the console keeps working.
 *
 * Protocol: host → worker `start {options}`, `ping`, `close`; worker → host `started {url, root,
 * generatedRoot}`, `failed {message, address?, reason?}` (start failed; the worker ends itself), `pong`,
 * `closed {error?}` (everything flushed and shut). Logging cannot cross (a function): the worker builds the
 * same logger from the level.
 */
import type { LogLevel } from "../lib/http/log.ts";
import { ListenError } from "../lib/http/listen_error.ts";
import { createLogger, type Logger } from "../lib/http/log.ts";
import type { EmbeddedStorageOptions } from "./server.ts";

/** What a storage thread takes: everything startEmbeddedStorage takes that can be sent as a message. */
export type StorageThreadOptions = Omit<EmbeddedStorageOptions, "log" | "now"> & { logLevel: LogLevel };

export type ToStorageThread = { op: "start"; options: StorageThreadOptions } | { op: "ping" } | {
  op: "close";
};

export type FromStorageThread =
  | { op: "started"; url: string; root: { accessKey: string; secretKey: string }; generatedRoot: boolean }
  | { op: "failed"; message: string; address?: string; reason?: string }
  | { op: "pong" }
  | { op: "closed"; error?: string };

/** The running storage as main.ts uses it. */
export interface StorageThread {
  url: string;
  root: { accessKey: string; secretKey: string };
  generatedRoot: boolean;
  /** Stops the listener, lets in-flight requests finish, flushes and closes the store, then ends the thread. */
  close(): Promise<void>;
}

export interface Supervision {
  /** How often the thread is asked whether it still answers. */
  heartbeatMs: number;
  /** Heartbeats left unanswered in a row after which the thread counts as gone and is restarted. */
  missedBeats: number;
  log: Logger;
  /** Called each time a restarted thread listens again. */
  onRestart?: () => void;
}

/** A thread that has not answered for 20 s is gone or stuck: no request is served meanwhile anyway. */
const DEFAULT_SUPERVISION = { heartbeatMs: 5000, missedBeats: 4 };
/** Waits between attempts when a restart fails (the port taken meanwhile, say): doubling up to the last. */
const RETRY_MS = [1000, 30_000];

/** Test hook: ends a thread's worker at once, as a fault that kills a thread would (see killForTests). */
const killers = new WeakMap<StorageThread, () => void>();

type Started = Extract<FromStorageThread, { op: "started" }>;

/** Starts one worker; resolves once its storage listens, rejects (and ends it) when it cannot start. */
function spawn(options: StorageThreadOptions): Promise<{ worker: Worker; started: Started }> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), {
    type: "module",
    name: "embedded-storage",
  });
  const { promise, resolve, reject } = Promise.withResolvers<{ worker: Worker; started: Started }>();
  worker.onmessage = (event: MessageEvent<FromStorageThread>) => {
    const message = event.data;
    if (message.op === "started") resolve({ worker, started: message });
    else if (message.op === "failed") {
      worker.terminate();
      reject(
        message.address
          ? new ListenError(message.address, message.reason ?? "")
          : new Error(`the embedded storage did not start: ${message.message}`),
      );
    }
  };
  worker.onerror = (event) => {
    // The module did not load or threw before answering: Deck must not start without its storage.
    event.preventDefault();
    worker.terminate();
    reject(new Error(`the embedded storage did not start: ${event.message}`));
  };
  worker.postMessage({ op: "start", options } satisfies ToStorageThread);
  return promise;
}

/**
 * Watches one running storage thread: its heartbeat, an error that escaped it, and its end; restarts it on the
 * same options (address included) when it is gone, retrying while the restart fails, until closed.
 */
class Supervisor {
  #worker: Worker | null;
  #missed = 0;
  #closing: PromiseWithResolvers<void> | null = null;
  #restarting: Promise<void> | null = null;
  #wake = () => {};
  readonly #heartbeat: ReturnType<typeof setInterval>;

  constructor(first: Worker, private readonly again: StorageThreadOptions, private readonly s: Supervision) {
    this.#worker = first;
    this.#watch(first);
    this.#heartbeat = setInterval(() => this.#beat(), s.heartbeatMs);
  }

  #watch(current: Worker): void {
    this.#missed = 0;
    current.onmessage = (event: MessageEvent<FromStorageThread>) => {
      const message = event.data;
      if (message.op === "pong") this.#missed = 0;
      else if (message.op === "closed") {
        this.#end(current);
        if (message.error) {
          this.#closing?.reject(new Error(`the embedded storage did not close cleanly: ${message.error}`));
        } else this.#closing?.resolve();
      }
    };
    current.onerror = (event) => {
      event.preventDefault(); // the console keeps running whatever happens to its storage
      if (!this.#closing) return this.#restart(`an uncaught error: ${event.message}`);
      this.#end(current);
      this.#closing.reject(new Error(`the embedded storage failed while closing: ${event.message}`));
    };
  }

  #end(current: Worker | null): void {
    clearInterval(this.#heartbeat);
    current?.terminate();
  }

  /** Counted in beats, not wall time: a console thread that was itself busy does not condemn the storage. */
  #beat(): void {
    const worker = this.#worker;
    if (this.#restarting || !worker) return;
    if (++this.#missed <= this.s.missedBeats) {
      return worker.postMessage({ op: "ping" } satisfies ToStorageThread);
    }
    const silence = `it did not answer for ${Math.round((this.s.missedBeats * this.s.heartbeatMs) / 1000)} s`;
    if (!this.#closing) return this.#restart(silence);
    // Gone while closing (closing takes turns of its event loop, so a live thread still answers).
    this.#end(worker);
    this.#closing.reject(new Error(`the embedded storage thread ended before it had closed: ${silence}`));
  }

  #restart(reason: string): void {
    if (this.#restarting || this.#closing) return;
    this.s.log.error("the embedded storage thread stopped; starting it again on the same data directory", {
      reason,
    });
    this.#worker?.terminate();
    this.#worker = null;
    this.#restarting = this.#startAgain().finally(() => this.#restarting = null);
  }

  async #startAgain(): Promise<void> {
    for (let wait = RETRY_MS[0]; !this.#closing; wait = Math.min(wait * 2, RETRY_MS[1])) {
      try {
        this.#worker = (await spawn(this.again)).worker;
        this.#watch(this.#worker);
        this.s.log.info("the embedded storage is serving again", { port: this.again.port });
        this.s.onRestart?.();
        return;
      } catch (error) {
        this.s.log.error("the embedded storage did not start again; retrying", {
          error: error instanceof Error ? error.message : String(error),
          retryInMs: wait,
        });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.#wake = () => (clearTimeout(timer), resolve());
        });
      }
    }
  }

  close(): Promise<void> {
    if (!this.#closing) {
      const closing = this.#closing = Promise.withResolvers<void>();
      this.#wake();
      (async () => {
        await this.#restarting;
        if (this.#worker) return this.#worker.postMessage({ op: "close" } satisfies ToStorageThread);
        this.#end(null);
        closing.resolve(); // it never came back: nothing is left to flush
      })();
    }
    return this.#closing.promise;
  }

  kill(): void {
    this.#worker?.terminate();
  }
}

/**
 * Starts the storage in a Worker and resolves once it listens. Rejects (and ends the worker) when the storage
 * cannot start, with the storage's own error (a ListenError when its address cannot be had).
 */
export async function startStorageThread(
  options: StorageThreadOptions,
  supervision: Partial<Supervision> = {},
): Promise<StorageThread> {
  const first = await spawn(options);
  const { url, root, generatedRoot } = first.started;
  // A restarted thread must listen where the console and every client already point.
  const again: StorageThreadOptions = { ...options, port: Number(new URL(url).port) };
  const supervisor = new Supervisor(first.worker, again, {
    ...DEFAULT_SUPERVISION,
    log: createLogger(options.logLevel),
    ...supervision,
  });
  const thread: StorageThread = { url, root, generatedRoot, close: () => supervisor.close() };
  killers.set(thread, () => supervisor.kill());
  return thread;
}

/**
 * Test hook: ends the thread's worker at once, with no close and no flush, as a fault that kills a thread
 * would (a library calling Deno.exit there, a fatal error); the supervision must notice and restart it.
 */
export function killForTests(thread: StorageThread): void {
  killers.get(thread)?.();
}
