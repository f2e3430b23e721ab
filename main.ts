/**
 * Deck's entry point: load configuration, start the embedded storage server when no external one is
 * configured, build the console app and serve it. `deno task start` builds assets first and calls main();
 * the compiled binary runs this module directly.
 */
import { createApp, createFetchHandler } from "./server/app.ts";
import { ConfigError, loadConfig } from "./server/config.ts";
import type { AppDeps, StorageEndpoint } from "./server/deps.ts";
import { createLogger } from "./server/log.ts";
import { createPageRenderer } from "./server/render/page.tsx";
import { LoginThrottle } from "./server/session/login_throttle.ts";
import { createSessionKey } from "./server/session/token.ts";
import { startEmbeddedStorage } from "./server/storage/server.ts";

/** Starts the console; resolves when the server has shut down after SIGINT/SIGTERM. */
export async function main(args: string[]): Promise<void> {
  let config;
  try {
    config = loadConfig(Deno.env.toObject(), args);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Deck cannot start: ${error.message}`);
    Deno.exit(2);
  }
  const log = createLogger(config.logLevel);
  const shutdown: (() => Promise<void>)[] = [];

  let storage: StorageEndpoint;
  let credentialsHint: string;
  if (config.minioServer) {
    storage = { url: config.minioServer, region: config.minioRegion };
    credentialsHint = `Sign in with an access key and secret key of ${config.minioServer}.`;
  } else {
    const credentialsFile = `${config.dataDir}/.deck/root-credentials.json`;
    const embedded = await startEmbeddedStorage({
      dataDir: config.dataDir,
      hostname: config.storage.hostname,
      port: config.storage.port,
      rootUser: config.root?.accessKey,
      rootPassword: config.root?.secretKey,
      log,
    });
    shutdown.push(() => embedded.close());
    storage = { url: embedded.url, region: config.minioRegion };
    if (config.root) {
      credentialsHint = "Sign in with MINIO_ROOT_USER and MINIO_ROOT_PASSWORD.";
    } else if (embedded.generatedRoot) {
      // Printed once, on the start that generated them; later starts only say where they are.
      credentialsHint = `Generated root credentials (kept in ${credentialsFile}, mode 0600):\n` +
        `  access key: ${embedded.root.accessKey}\n  secret key: ${embedded.root.secretKey}`;
    } else {
      credentialsHint = `Sign-in credentials are in ${credentialsFile}.`;
    }
    console.log(`Embedded storage server (S3, admin, STS) at ${embedded.url}, data in ${config.dataDir}`);
  }

  const render = createPageRenderer({ subpath: config.subpath });
  const deps: AppDeps = {
    config,
    log,
    render,
    storage,
    fetch: globalThis.fetch,
    now: Date.now,
    sessionKey: await createSessionKey(config.sessionKey),
    loginThrottle: new LoginThrottle(),
  };
  const app = createApp(deps);
  const tls = config.tls
    ? { cert: await Deno.readTextFile(config.tls.certFile), key: await Deno.readTextFile(config.tls.keyFile) }
    : {};
  const server = Deno.serve({
    hostname: config.hostname,
    port: config.port,
    ...tls,
    onListen: ({ hostname, port }) => {
      const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
      console.log(`Deck console: ${config.tls ? "https" : "http"}://${shown}:${port}${config.subpath}`);
      console.log(credentialsHint);
    },
  }, createFetchHandler(app, config.subpath));

  const stop = () => {
    log.info("shutting down");
    server.shutdown();
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await server.finished;
  for (const close of shutdown) await close();
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
}

if (import.meta.main) await main(Deno.args);
