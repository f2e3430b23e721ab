/**
 * The delivery thread's entry: runs a DeliveryHost and answers the main thread's messages (see
 * delivery_thread.ts for the protocol). Client libraries, queue stores and sends all live here, so the
 * thread that serves S3 requests only matches events and passes their JSON on. The host is made by the start
 * message, which comes first and names the certificates its targets trust besides the system's.
 */
/// <reference lib="deno.worker" />
import { lowerThisThreadsPriority } from "../core/background_thread.ts";
import type { ToWorker } from "./delivery_thread.ts";
import { DeliveryHost } from "./host.ts";

lowerThisThreadsPriority();

let host: DeliveryHost;

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.op) {
    case "start":
      host = new DeliveryHost(
        (level, text, context) => self.postMessage({ op: "log", level, message: text, context }),
        message.caCerts,
      );
      return;
    case "deliver":
      for (const [keys, line] of message.batch) host.deliver(keys, line);
      return;
    case "apply":
      await host.apply(message.specs);
      return self.postMessage({ op: "done", id: message.id });
    case "status":
      return self.postMessage({ op: "done", id: message.id, value: await host.status() });
    case "stats":
      return self.postMessage({ op: "done", id: message.id, value: host.stats() });
    case "close":
      await host.close();
      return self.postMessage({ op: "done", id: message.id });
  }
};
