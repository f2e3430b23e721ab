/**
 * Runs in a Worker (see thread.ts): starts the embedded storage with the options the host sent, answers
 * with its address and root credentials, answers the host's heartbeat, and closes it (listener, streams,
 * store) when asked. An error nothing in the thread caught is logged and the storage keeps serving.
 */
import { ListenError } from "../lib/http/listen_error.ts";
import { keepRunningOnUncaughtErrors } from "../lib/http/last_resort.ts";
import { createLogger } from "../lib/http/log.ts";
import { compactWhenIdle, type IdleCompaction } from "../lib/http/idle_compaction.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "./server.ts";
import type { FromStorageThread, ToStorageThread } from "./thread.ts";

const port = self as unknown as {
  onmessage: (event: MessageEvent<ToStorageThread>) => void;
  postMessage(message: FromStorageThread): void;
  close(): void;
};

keepRunningOnUncaughtErrors("embedded storage");

let storage: EmbeddedStorage | null = null;
let starting: Promise<unknown> | null = null;
let compaction: IdleCompaction | null = null;

port.onmessage = (event) => {
  const message = event.data;
  if (message.op === "ping") {
    port.postMessage({ op: "pong" });
  } else if (message.op === "start") {
    const { logLevel, ...options } = message.options;
    starting = startEmbeddedStorage({ ...options, log: createLogger(logLevel) }).then((started) => {
      storage = started;
      // The start-up's heap is given back once this thread goes quiet (see idle_compaction.ts).
      compaction = compactWhenIdle();
      port.postMessage({
        op: "started",
        url: started.url,
        root: started.root,
        generatedRoot: started.generatedRoot,
      });
    }, (error) => {
      port.postMessage({
        op: "failed",
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof ListenError ? { address: error.address, reason: error.reason } : {}),
      });
      port.close();
    });
  } else if (message.op === "close") {
    (async () => {
      await starting;
      compaction?.stop();
      try {
        await storage?.close();
        port.postMessage({ op: "closed" });
      } catch (error) {
        port.postMessage({ op: "closed", error: error instanceof Error ? error.message : String(error) });
      }
      port.close();
    })();
  }
};
