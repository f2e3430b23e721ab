/**
 * Deck's entry point: reads the configuration, starts Deck (server/start/deck.ts: the embedded storage on its
 * own thread unless an external one is configured, the log search, the console), says where everything is,
 * and stops it all on SIGINT/SIGTERM. `deno task start` builds assets first and calls main(); the compiled
 * binary runs this module directly.
 */
import { snapshotProcessEnv } from "./server/console/production_mode.ts"; // first: React reads NODE_ENV when it loads
import { ConfigError, loadConfig } from "./server/console/config/config.ts";
import { createLogger } from "./server/lib/http/log.ts";
import { keepRunningOnUncaughtErrors } from "./server/lib/http/last_resort.ts";
import { compactWhenIdle } from "./server/lib/http/idle_compaction.ts";
import { embeddedStorageOptions, runsEmbeddedStorage } from "./server/start/embedded_options.ts";
import { startStorageThread, type StorageThread } from "./server/storage/thread.ts";

/** Ends a start that cannot go on with one line and exit status 1, no stack trace. */
function cannotStart(error: unknown): never {
  console.error(`Deck cannot start: ${error instanceof Error ? error.message : String(error)}`);
  Deno.exit(1);
}

/** Starts Deck; resolves when it has shut down after SIGINT/SIGTERM. */
export async function main(args: string[]): Promise<void> {
  const env = Deno.env.toObject();
  let config;
  try {
    config = loadConfig(env, args);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Deck cannot start: ${error.message}`);
    Deno.exit(2);
  }
  const log = createLogger(config.logLevel);
  // The storage thread loads and opens its data on the other core while this one loads the console.
  let storageStarting: Promise<StorageThread> | null = null;
  if (runsEmbeddedStorage(config)) {
    storageStarting = startStorageThread(embeddedStorageOptions(config), { log });
    storageStarting.catch(() => {}); // startDeck reports a failed start, once it asks for the storage
  }
  // The console's modules load only now, on this thread. By URL: Deno would read a literal import() into the
  // graph it loads before main.ts runs, and the storage thread would start only after all of it.
  await snapshotProcessEnv();
  const deckModule = new URL("./server/start/deck.ts", import.meta.url).href;
  const { startDeck } = await import(deckModule) as typeof import("./server/start/deck.ts");
  const runStorage = storageStarting ? () => storageStarting : undefined;
  const deck = await startDeck(config, { log, env, runStorage }).catch(cannotStart);
  for (const line of deck.notices) console.log(line);
  // From here on an error nothing caught is logged and Deck keeps serving (requests answer 500 themselves).
  keepRunningOnUncaughtErrors("deck");
  // The start-up's heap is given back once the console goes quiet (the storage thread does the same).
  const compaction = compactWhenIdle();

  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  const stop = () => {
    log.info("shutting down");
    compaction.stop();
    deck.close().catch((error) => {
      const causes = error instanceof AggregateError ? error.errors : [error];
      log.error("shutdown failed", { errors: causes.map(String) });
    }).finally(finish);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await finished;
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
}

if (import.meta.main) await main(Deno.args);
