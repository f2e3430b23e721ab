/**
 * Deck's entry point: load configuration, start the embedded storage server (on its own thread,
 * server/storage/thread.ts) when no external one is configured, build the console app and serve it.
 * `deno task start` builds assets first and calls main(); the compiled binary runs this module directly.
 */
import "./server/production_mode.ts"; // first: React reads NODE_ENV when it loads
import { createApp, createFetchHandler } from "./server/app.ts";
import { ConfigError, loadConfig } from "./server/config.ts";
import type { AppDeps, LogSearchEndpoint, OperatorDeps, StorageEndpoint } from "./server/deps.ts";
import { K8sClient } from "./server/k8s/client.ts";
import { resolveCluster } from "./server/k8s/connection.ts";
import { createLogger } from "./server/log.ts";
import { createPageRenderer } from "./server/render/page.tsx";
import { LoginThrottle } from "./server/session/login_throttle.ts";
import { createSessionKey } from "./server/session/token.ts";
import { startStorageThread } from "./server/storage/thread.ts";
import {
  connectStorageAudit,
  disconnectStorageAudit,
  startBuiltinLogSearch,
} from "./server/services/log_search_setup.ts";
import { createMetricsService } from "./server/metrics/mod.ts";
import { prometheusBearerToken } from "./server/s3/prometheus_token.ts";
import { forwardingKey } from "./server/s3/forwarded_client.ts";
import { LicenseStore } from "./server/services/license.ts";
import { listen } from "./server/http_server.ts";

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
  let embeddedStorage: { url: string; root: { accessKey: string; secretKey: string } } | null = null;
  // The on-box metrics sampler signs its scrapes with the embedded root credentials, or uses the configured
  // token for an external server (none: the server must allow public metrics).
  let metricsToken: () => Promise<string | null> = () => Promise.resolve(config.metricsBearerToken || null);
  let operator: OperatorDeps | undefined;
  if (config.operator) {
    // Operator mode manages tenants on Kubernetes: no storage server of its own.
    const cluster = await resolveCluster(config.operator, Deno.env.toObject());
    operator = {
      k8s: new K8sClient(cluster.connection),
      config: config.operator,
      serviceAccountToken: cluster.serviceAccountToken,
    };
    shutdown.push(() => Promise.resolve(operator!.k8s.close()));
    storage = { url: "", region: "" };
    credentialsHint =
      `Operator mode: Kubernetes API server ${cluster.connection.baseUrl} (from ${cluster.source}). Sign in with a service-account token.`;
  } else if (config.minioServer) {
    storage = { url: config.minioServer, region: config.minioRegion };
    credentialsHint = `Sign in with an access key and secret key of ${config.minioServer}.`;
  } else {
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
    }).catch((error) => {
      console.error(`Deck cannot start: ${error instanceof Error ? error.message : error}`);
      Deno.exit(1);
    });
    shutdown.push(() => embedded.close());
    embeddedStorage = embedded;
    const token = prometheusBearerToken(embedded.root);
    metricsToken = () => token;
    // The console vouches for each sign-in's client address to the storage it started (forwarded_client.ts).
    storage = {
      url: embedded.url,
      region: config.minioRegion,
      embedded: true,
      forwardingKey: await forwardingKey(embedded.root),
    };
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

  let logSearch: LogSearchEndpoint | null = null;
  if (config.logSearch.queryUrl) {
    logSearch = {
      url: config.logSearch.queryUrl,
      token: config.logSearch.queryToken,
      fetch: globalThis.fetch,
    };
  } else if (config.logSearch.builtin && !config.operator) {
    const builtin = await startBuiltinLogSearch(config.logSearch.builtin, config.dataDir);
    // Closed after the storage (pushed earlier), so no delivery meets a closed service.
    shutdown.push(() => builtin.close());
    logSearch = builtin.endpoint;
    if (embeddedStorage) {
      await connectStorageAudit(embeddedStorage, builtin.server.ingestUrl);
      console.log(`Audit log search at ${builtin.server.url} receives the embedded storage's audit records`);
    } else {
      console.log(
        `Audit log search at ${builtin.server.url}: point the storage's audit_webhook at ${builtin.server.url}/api/ingest?token=<CONSOLE_LOG_SEARCH_AUDIT_TOKEN>`,
      );
    }
  }
  if (!config.logSearch.builtin && embeddedStorage) await disconnectStorageAudit(embeddedStorage);

  const render = createPageRenderer({
    subpath: config.subpath,
    product: config.operator ? "Deck Operator" : "Deck",
  });
  const metrics = createMetricsService({
    config,
    storageUrl: storage.url,
    storageToken: metricsToken,
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
    storage,
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
    operator,
  };
  const app = createApp(deps);
  const tls = config.tls
    ? { cert: await Deno.readTextFile(config.tls.certFile), key: await Deno.readTextFile(config.tls.keyFile) }
    : {};
  const server = await listen({
    hostname: config.hostname,
    port: config.port,
    tls: config.tls ? tls as { cert: string; key: string } : null,
    timeouts: config.timeouts,
  }, createFetchHandler(app, config.subpath));
  const { hostname, port } = server.addr;
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  console.log(`Deck console: ${config.tls ? "https" : "http"}://${shown}:${port}${config.subpath}`);
  console.log(credentialsHint);

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

if (import.meta.main) await main(Deno.args);
