/**
 * The embedded storage on a thread of its own (a Worker running worker.ts). The console reaches the storage
 * only over HTTP, so nothing else has to cross: on one JavaScript thread the console's pages and the storage
 * answering them shared one core, and under load each waited for the other; here the storage uses a second.
 *
 * Protocol: host → worker `start {options}`, `close`; worker → host `started {url, root, generatedRoot}`,
 * `failed {message}` (start failed; the worker ends itself), `closed {error?}` (everything flushed and shut).
 * Logging cannot cross (a function): the worker builds the same logger from the level.
 */
import type { LogLevel } from "../config.ts";
import type { EmbeddedStorageOptions } from "./server.ts";

/** What a storage thread takes: everything startEmbeddedStorage takes that can be sent as a message. */
export type StorageThreadOptions = Omit<EmbeddedStorageOptions, "log" | "now"> & { logLevel: LogLevel };

export type ToStorageThread = { op: "start"; options: StorageThreadOptions } | { op: "close" };

export type FromStorageThread =
  | { op: "started"; url: string; root: { accessKey: string; secretKey: string }; generatedRoot: boolean }
  | { op: "failed"; message: string }
  | { op: "closed"; error?: string };

/** The running storage as main.ts uses it. */
export interface StorageThread {
  url: string;
  root: { accessKey: string; secretKey: string };
  generatedRoot: boolean;
  /** Stops the listener, lets in-flight requests finish, flushes and closes the store, then ends the thread. */
  close(): Promise<void>;
}

/**
 * Starts the storage in a Worker and resolves once it listens. Rejects (and ends the worker) when the storage
 * cannot start, with the storage's own error message.
 */
export function startStorageThread(options: StorageThreadOptions): Promise<StorageThread> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), {
    type: "module",
    name: "embedded-storage",
  });
  const { promise: started, resolve, reject } = Promise.withResolvers<StorageThread>();
  let running = false;
  let closing: PromiseWithResolvers<void> | null = null;
  worker.onmessage = (event: MessageEvent<FromStorageThread>) => {
    const message = event.data;
    if (message.op === "started") {
      running = true;
      resolve({ url: message.url, root: message.root, generatedRoot: message.generatedRoot, close });
    } else if (message.op === "failed") {
      worker.terminate();
      reject(new Error(`the embedded storage did not start: ${message.message}`));
    } else if (message.op === "closed") {
      worker.terminate();
      if (message.error) {
        closing?.reject(new Error(`the embedded storage did not close cleanly: ${message.error}`));
      } else closing?.resolve();
    }
  };
  worker.onerror = (event) => {
    if (!running) {
      // The module did not load or threw before answering: Deck must not start without its storage.
      event.preventDefault();
      worker.terminate();
      reject(new Error(`the embedded storage did not start: ${event.message}`));
    } else if (closing) {
      event.preventDefault();
      worker.terminate();
      closing.reject(new Error(`the embedded storage failed while closing: ${event.message}`));
    }
    // Running: left unhandled, so the error ends the process as it would with the storage on this thread.
  };
  const close = (): Promise<void> => {
    if (!closing) {
      closing = Promise.withResolvers<void>();
      worker.postMessage({ op: "close" } satisfies ToStorageThread);
    }
    return closing.promise;
  };
  worker.postMessage({ op: "start", options } satisfies ToStorageThread);
  return started;
}
