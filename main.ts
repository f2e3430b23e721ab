/**
 * Deck's entry point: load configuration, start the embedded storage server (on its own thread,
 * server/storage/thread.ts) when no external one is configured, build the console app and serve it.
 * `deno task start` builds assets first and calls main(); the compiled binary runs this module directly.
 */
import "./server/console/production_mode.ts"; // first: React reads NODE_ENV when it loads
import { createApp, createFetchHandler } from "./server/console/app.ts";
import { type AppConfig, ConfigError, loadConfig } from "./server/console/config.ts";
import { SETTINGS } from "./server/console/config_settings.ts";
import type { AppDeps, LogSearchEndpoint, OperatorDeps, StorageEndpoint } from "./server/console/deps.ts";
import { K8sClient } from "./server/console/k8s/client.ts";
import { resolveCluster } from "./server/console/k8s/connection.ts";
import { createLogger, type Logger } from "./server/lib/http/log.ts";
import { createPageRenderer } from "./server/console/render/page.tsx";
import { LoginThrottle } from "./server/console/session/login_throttle.ts";
import { createSessionKey } from "./server/console/session/token.ts";
import { startStorageThread } from "./server/storage/thread.ts";
import {
  connectStorageAudit,
  disconnectStorageAudit,
  startBuiltinLogSearch,
} from "./server/start/log_search.ts";
import { createMetricsService } from "./server/console/metrics/mod.ts";
import { prometheusBearerToken } from "./server/lib/s3/prometheus_token.ts";
import { forwardingKey } from "./server/lib/s3/forwarded_client.ts";
import { LicenseStore } from "./server/console/services/license.ts";
import { listen, type Listener, ListenError } from "./server/lib/http/listener.ts";
import { keepRunningOnUncaughtErrors } from "./server/lib/http/last_resort.ts";

/**
 * Ends a start that cannot go on with one line and exit status 1, no stack trace. An address that cannot be
 * had names the setting that chose it: `Deck cannot start: CONSOLE_PORT: 0.0.0.0:9090 is already in use`.
 */
function cannotStart(error: unknown, setting?: string): never {
  const reason = error instanceof Error ? error.message : String(error);
  const named = error instanceof ListenError && setting ? `${setting}: ` : "";
  console.error(`Deck cannot start: ${named}${reason}`);
  Deno.exit(1);
}

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
  const server = await start(config, log, shutdown).catch((error) => cannotStart(error));
  // From here on an error nothing caught is logged and Deck keeps serving (requests answer 500 themselves).
  keepRunningOnUncaughtErrors("deck");

  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  const stop = () => {
    log.info("shutting down");
    server.shutdown().then(finish, finish);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await finished;
  for (const close of shutdown) await close();
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
}

/** Where the console's storage is, how to tell the user to sign in, and what only some modes have. */
interface Backend {
  storage: StorageEndpoint;
  credentialsHint: string;
  /** The embedded storage thread, when Deck runs its own. */
  embedded: { url: string; root: { accessKey: string; secretKey: string } } | null;
  /** The token the on-box metrics sampler scrapes with (none: the server must allow public metrics). */
  metricsToken: () => Promise<string | null>;
  operator?: OperatorDeps;
}

/** Connects to Kubernetes (operator mode), names the external server, or starts the embedded storage. */
async function startBackend(
  config: AppConfig,
  log: Logger,
  shutdown: (() => Promise<void>)[],
): Promise<Backend> {
  const configuredToken = () => Promise.resolve(config.metricsBearerToken || null);
  if (config.operator) {
    // Operator mode manages tenants on Kubernetes: no storage server of its own.
    const cluster = await resolveCluster(config.operator, Deno.env.toObject());
    const operator = {
      k8s: new K8sClient(cluster.connection),
      config: config.operator,
      serviceAccountToken: cluster.serviceAccountToken,
    };
    shutdown.push(() => Promise.resolve(operator.k8s.close()));
    return {
      storage: { url: "", region: "" },
      credentialsHint:
        `Operator mode: Kubernetes API server ${cluster.connection.baseUrl} (from ${cluster.source}). Sign in with a service-account token.`,
      embedded: null,
      metricsToken: configuredToken,
      operator,
    };
  }
  if (config.minioServer) {
    return {
      storage: { url: config.minioServer, region: config.minioRegion },
      credentialsHint: `Sign in with an access key and secret key of ${config.minioServer}.`,
      embedded: null,
      metricsToken: configuredToken,
    };
  }
  const credentialsFile = `${config.dataDir}/.deck/root-credentials.json`;
  // On its own thread (a Worker), so the storage's share of each request runs on the second core.
  const embedded = await startStorageThread({
    dataDir: config.dataDir,
    hostname: config.storage.hostname,
    port: config.storage.port,
    rootUser: config.root?.accessKey,
    rootPassword: config.root?.secretKey,
    prometheusAuthType: config.storagePrometheusAuth,
    kmsSecretKey: config.kmsSecretKey || undefined,
    logLevel: config.logLevel,
    timeouts: config.timeouts,
    lifecycle: config.lifecycle,
  }, { log }).catch((error) => cannotStart(error, SETTINGS.storageAddress.env));
  shutdown.push(() => embedded.close());
  console.log(`Embedded storage server (S3, admin, STS) at ${embedded.url}, data in ${config.dataDir}`);
  const token = prometheusBearerToken(embedded.root);
  return {
    // The console vouches for each sign-in's client address to the storage it started (forwarded_client.ts).
    storage: {
      url: embedded.url,
      region: config.minioRegion,
      embedded: true,
      forwardingKey: await forwardingKey(embedded.root),
    },
    credentialsHint: config.root
      ? "Sign in with MINIO_ROOT_USER and MINIO_ROOT_PASSWORD."
      : embedded.generatedRoot
      // Printed once, on the start that generated them; later starts only say where they are.
      ? `Generated root credentials (kept in ${credentialsFile}, mode 0600):\n` +
        `  access key: ${embedded.root.accessKey}\n  secret key: ${embedded.root.secretKey}`
      : `Sign-in credentials are in ${credentialsFile}.`,
    embedded,
    metricsToken: () => token,
  };
}

/** The Audit Logs source: an external log search, or the built-in one fed by the embedded storage. */
async function startAuditSearch(
  config: AppConfig,
  backend: Backend,
  shutdown: (() => Promise<void>)[],
): Promise<LogSearchEndpoint | null> {
  const { embedded } = backend;
  if (!config.logSearch.builtin) {
    // Nothing keeps posting to an endpoint that is gone.
    if (embedded) await disconnectStorageAudit(embedded);
    const { queryUrl, queryToken } = config.logSearch;
    return queryUrl ? { url: queryUrl, token: queryToken, fetch: globalThis.fetch } : null;
  }
  if (config.operator) return null;
  const builtin = await startBuiltinLogSearch(config.logSearch.builtin, config.dataDir, config.timeouts)
    .catch((error) => cannotStart(error, SETTINGS.logSearchAddress.env));
  // Closed after the storage (pushed earlier), so no delivery meets a closed service.
  shutdown.push(() => builtin.close());
  if (embedded) {
    await connectStorageAudit(embedded, builtin.server.ingestUrl);
    console.log(`Audit log search at ${builtin.server.url} receives the embedded storage's audit records`);
  } else {
    console.log(
      `Audit log search at ${builtin.server.url}: point the storage's audit_webhook at ${builtin.server.url}/api/ingest?token=<CONSOLE_LOG_SEARCH_AUDIT_TOKEN>`,
    );
  }
  return builtin.endpoint;
}

/** Starts the storage (unless external), the log search and the console's listener; `shutdown` collects their ends. */
async function start(config: AppConfig, log: Logger, shutdown: (() => Promise<void>)[]): Promise<Listener> {
  const backend = await startBackend(config, log, shutdown);
  const logSearch = await startAuditSearch(config, backend, shutdown);
  const render = createPageRenderer({
    subpath: config.subpath,
    product: config.operator ? "Deck Operator" : "Deck",
  });
  const metrics = createMetricsService({
    config,
    storageUrl: backend.storage.url,
    storageToken: backend.metricsToken,
    fetch: globalThis.fetch,
    log,
    historyFile: `${config.dataDir}/.deck/metrics-history.json`,
  });
  await metrics.start();
  shutdown.unshift(() => metrics.close()); // saves the history while the storage is still up
  const deps: AppDeps = {
    config,
    log,
    render,
    storage: backend.storage,
    fetch: globalThis.fetch,
    now: Date.now,
    sessionKey: await createSessionKey(config.sessionKey),
    loginThrottle: new LoginThrottle(),
    logSearch,
    metrics,
    license: new LicenseStore({
      configured: config.subnetLicense,
      publicKeyFile: config.subnetPublicKeyFile,
      file: `${config.dataDir}/.deck/subnet-license`,
      now: Date.now,
    }),
    operator: backend.operator,
  };
  const tls = config.tls
    ? { cert: await Deno.readTextFile(config.tls.certFile), key: await Deno.readTextFile(config.tls.keyFile) }
    : null;
  const server = await listen({
    hostname: config.hostname,
    port: config.port,
    tls,
    timeouts: config.timeouts,
  }, createFetchHandler(createApp(deps), config.subpath)).catch((error) =>
    cannotStart(error, SETTINGS.port.env)
  );
  const { hostname, port } = server.addr;
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  console.log(`Deck console: ${config.tls ? "https" : "http"}://${shown}:${port}${config.subpath}`);
  console.log(backend.credentialsHint);
  return server;
}

if (import.meta.main) await main(Deno.args);
