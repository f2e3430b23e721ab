/**
 * Deck's entry point: reads the configuration, starts Deck (server/start/deck.ts: the embedded storage on its
 * own thread unless an external one is configured, the log search, the console), says where everything is,
 * and stops it all on SIGINT/SIGTERM. `deno task start` builds assets first and calls main(); the compiled
 * binary runs this module directly.
 */
import "./server/console/production_mode.ts"; // first: React reads NODE_ENV when it loads
import { ConfigError, loadConfig } from "./server/console/config/config.ts";
import { createLogger } from "./server/lib/http/log.ts";
import { keepRunningOnUncaughtErrors } from "./server/lib/http/last_resort.ts";
import { startDeck } from "./server/start/deck.ts";

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
  const deck = await startDeck(config, { log, env }).catch(cannotStart);
  for (const line of deck.notices) console.log(line);
  // From here on an error nothing caught is logged and Deck keeps serving (requests answer 500 themselves).
  keepRunningOnUncaughtErrors("deck");

  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  const stop = () => {
    log.info("shutting down");
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
