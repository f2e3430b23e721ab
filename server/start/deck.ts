/**
 * Deck's composition root: starts what Deck runs side by side (the embedded storage, or the connection to an
 * external one or to Kubernetes; the audit log search; the metrics sampler), builds the console's
 * dependencies from them once, and serves the console. main.ts, the test stack and the Kubernetes stand-in's
 * tenants all start Deck here, so what tests run is what production runs.
 */
import { createApp, createFetchHandler } from "../console/app/app.ts";
import type { AppConfig } from "../console/config/config.ts";
import { SETTINGS } from "../console/config/settings.ts";
import type { AppDeps } from "../console/deps.ts";
import type { LogSearchEndpoint, StorageEndpoint } from "../console/config/endpoints.ts";
import type { OperatorDeps } from "../console/k8s/connection.ts";
import { createMetricsService } from "../console/metrics/mod.ts";
import { createPageRenderer } from "../console/render/page.tsx";
import { LicenseStore } from "../console/license/store.ts";
import { JobManager, type JobsDeps } from "../console/services/jobs.ts";
import { LoginThrottle } from "../console/session/login_throttle.ts";
import { createSessionKey } from "../console/session/token.ts";
import { listen } from "../lib/http/listener.ts";
import type { Logger } from "../lib/http/log.ts";
import { startStorageThread } from "../storage/thread.ts";
import { startBackend, type StorageRunner } from "./backend.ts";
import { startAuditSearch } from "./log_search.ts";
import { fetchTrusting } from "../lib/http/trusted_cas.ts";
import { storageTrust } from "./storage_trust.ts";
import { naming } from "./start_error.ts";

export interface DeckOptions {
  log: Logger;
  /** The process environment: operator mode finds an in-cluster Kubernetes API server there. */
  env?: Record<string, string | undefined>;
  /** Runs the embedded storage (default: on a thread of its own, supervised). */
  runStorage?: StorageRunner;
  /** Sampling interval of the on-box metrics history (tests shorten it). */
  metricsSampleMs?: number;
  /**
   * Test seam: changes what the console is given before it is built, to show it a world other than the one
   * started (a storage address that is down, a public storage URL known only once the storage listens).
   */
  adjustDeps?: (deps: AppDeps) => AppDeps;
  /** Job tuning for tests and benchmarks. */
  jobs?: ConsoleParts["jobs"];
}

export interface Deck {
  /** Where the console listens. */
  addr: Deno.NetAddr;
  /** The console's address for people: `http://localhost:9090/` on a wildcard address, with the subpath. */
  url: string;
  deps: AppDeps;
  /** What to tell the person who started Deck, one line each: addresses, then how to sign in. */
  notices: string[];
  /** Stops the console, then the sampler (saving its history), the storage and the log search. */
  close(): Promise<void>;
}

/** What the console is built from, besides its configuration: what startDeck started or found. */
export interface ConsoleParts {
  log: Logger;
  storage: StorageEndpoint;
  /** The token the on-box metrics sampler scrapes with (none: the server must allow public metrics). */
  metricsToken: () => Promise<string | null>;
  logSearch?: LogSearchEndpoint | null;
  operator?: OperatorDeps;
  metricsSampleMs?: number;
  /** How the console calls the storage: trusting its CA (storage_trust.ts); the global fetch by default. */
  storageFetch?: typeof fetch;
  /** Job tuning for tests and benchmarks (concurrency, the multipart copy threshold). */
  jobs?: Pick<JobsDeps, "concurrency" | "multipartAbove" | "partSize">;
}

/** The console's dependencies; the metrics sampler is built, not started (startDeck starts it). */
export async function consoleDeps(config: AppConfig, parts: ConsoleParts): Promise<AppDeps> {
  const sessionKey = await createSessionKey(config.sessionKey);
  const fetch = parts.storageFetch ?? globalThis.fetch;
  return {
    config,
    log: parts.log,
    render: createPageRenderer({
      subpath: config.subpath,
      product: config.operator ? "Deck Operator" : "Deck",
    }),
    storage: parts.storage,
    fetch,
    now: Date.now,
    sessionKey,
    loginThrottle: new LoginThrottle(),
    logSearch: parts.logSearch ?? null,
    metrics: createMetricsService({
      config,
      storageUrl: parts.storage.url,
      storageToken: parts.metricsToken,
      fetch: parts.storageFetch ?? globalThis.fetch,
      log: parts.log,
      historyFile: `${config.dataDir}/.deck/metrics-history.json`,
      sampleIntervalMs: parts.metricsSampleMs,
    }),
    license: new LicenseStore({
      configured: config.subnetLicense,
      publicKeyFile: config.subnetPublicKeyFile,
      file: `${config.dataDir}/.deck/subnet-license`,
      now: Date.now,
    }),
    jobs: new JobManager({
      storage: parts.storage,
      fetch,
      now: Date.now,
      sessionKey,
      dataDir: config.dataDir,
      log: parts.log,
      ...parts.jobs,
    }),
    operator: parts.operator,
  };
}

/**
 * Starts Deck as `config` says and serves the console. Rejects when something cannot start (a StartError
 * naming the setting when an address is taken), after stopping whatever had already started.
 */
export async function startDeck(config: AppConfig, options: DeckOptions): Promise<Deck> {
  const { log } = options;
  // In the order they stop: the sampler saves its history while the storage is still up, and the log search
  // stops after the storage, so no delivery meets a closed service.
  const ends: (() => Promise<void>)[] = [];
  const stop = async () => {
    const failures: unknown[] = [];
    for (const end of ends.splice(0)) await end().catch((error) => failures.push(error));
    if (failures.length) throw new AggregateError(failures, "Deck did not stop cleanly");
  };
  try {
    const runStorage = options.runStorage ?? ((settings) => startStorageThread(settings, { log }));
    const storageFetch = fetchTrusting(await storageTrust(config));
    const backend = await startBackend(config, options.env ?? {}, runStorage, storageFetch);
    ends.push(() => backend.close());
    // Only once the storage has accepted the data directory (its format, say) may the log search write there.
    const audit = await startAuditSearch(config, backend.embedded, storageFetch);
    ends.push(() => audit.close());
    const built = await consoleDeps(config, {
      log,
      storage: backend.storage,
      metricsToken: backend.metricsToken,
      logSearch: audit.endpoint,
      operator: backend.operator,
      metricsSampleMs: options.metricsSampleMs,
      storageFetch,
      jobs: options.jobs,
    });
    const deps = options.adjustDeps?.(built) ?? built;
    await deps.metrics.start();
    ends.unshift(() => deps.metrics.close());
    // Jobs stop (after their objects in flight) before the storage does, and resume at the next start.
    await deps.jobs.start();
    ends.unshift(() => deps.jobs.close());
    const tls = config.tls
      ? {
        cert: await Deno.readTextFile(config.tls.certFile),
        key: await Deno.readTextFile(config.tls.keyFile),
      }
      : null;
    const server = await listen(
      { hostname: config.hostname, port: config.port, tls, timeouts: config.timeouts },
      createFetchHandler(createApp(deps), config.subpath),
    ).catch(naming(SETTINGS.port.env));
    ends.unshift(() => server.shutdown());
    await audit.connected;
    const { hostname, port } = server.addr;
    const wildcard = hostname === "0.0.0.0" || hostname === "::";
    const shown = wildcard ? "localhost" : hostname.includes(":") ? `[${hostname}]` : hostname;
    const url = `${config.tls ? "https" : "http"}://${shown}:${port}${config.subpath}`;
    return {
      addr: server.addr,
      url,
      deps,
      notices: [...backend.notices.started, ...audit.notices, `Deck console: ${url}`, backend.notices.signIn],
      close: stop,
    };
  } catch (error) {
    await stop().catch(() => {}); // the start's own error is the one to report
    throw error;
  }
}
