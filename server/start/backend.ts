/**
 * What the console talks to, as the configuration says: the Kubernetes API (operator mode), an external
 * MinIO, or Deck's embedded storage, which is started here (on a thread of its own unless the caller runs it
 * otherwise). The console reaches each over the wire only.
 */
import type { AppConfig } from "../console/config/config.ts";
import type { OperatorDeps } from "../console/k8s/connection.ts";
import type { StorageEndpoint } from "../console/config/endpoints.ts";
import { K8sClient } from "../console/k8s/client.ts";
import { resolveCluster } from "../console/k8s/connection.ts";
import { SETTINGS } from "../console/config/settings.ts";
import { forwardingKey } from "../lib/s3/forwarded_client.ts";
import { prometheusBearerToken } from "../lib/s3/prometheus_token.ts";
import type { StorageThread, StorageThreadOptions } from "../storage/thread.ts";
import { embeddedStorageOptions } from "./embedded_options.ts";
import { naming } from "./start_error.ts";
import { checkStorageReachable } from "./storage_trust.ts";

/** Runs the embedded storage: production on a thread of its own; the test stack in its own process. */
export type StorageRunner = (options: StorageThreadOptions) => Promise<StorageThread>;

export interface Backend {
  storage: StorageEndpoint;
  /** The embedded storage, when Deck runs its own. */
  embedded: StorageThread | null;
  /** The token the on-box metrics sampler scrapes with (none: the server must allow public metrics). */
  metricsToken: () => Promise<string | null>;
  operator?: OperatorDeps;
  /** What to tell the person who started Deck: where the storage is and how to sign in. */
  notices: { started: string[]; signIn: string };
  close(): Promise<void>;
}

/**
 * Connects to Kubernetes (operator mode), names the external server, or starts the embedded storage;
 * `storageFetch` is how the console calls the storage (trusting its CA: storage_trust.ts).
 */
export async function startBackend(
  config: AppConfig,
  env: Record<string, string | undefined>,
  runStorage: StorageRunner,
  storageFetch: typeof fetch = globalThis.fetch,
): Promise<Backend> {
  const configuredToken = () => Promise.resolve(config.metricsBearerToken || null);
  if (config.operator) {
    // Operator mode manages tenants on Kubernetes: no storage server of its own.
    const cluster = await resolveCluster(config.operator, env);
    const k8s = new K8sClient(cluster.connection);
    return {
      storage: { url: "", region: "" },
      embedded: null,
      metricsToken: configuredToken,
      operator: { k8s, config: config.operator, serviceAccountToken: cluster.serviceAccountToken },
      notices: {
        started: [],
        signIn:
          `Operator mode: Kubernetes API server ${cluster.connection.baseUrl} (from ${cluster.source}). Sign in with a service-account token.`,
      },
      close: () => Promise.resolve(k8s.close()),
    };
  }
  if (config.minioServer) {
    return {
      storage: { url: config.minioServer, region: config.minioRegion },
      embedded: null,
      metricsToken: configuredToken,
      notices: { started: [], signIn: `Sign in with an access key and secret key of ${config.minioServer}.` },
      close: () => Promise.resolve(),
    };
  }
  return await startEmbedded(config, runStorage, storageFetch);
}

async function startEmbedded(
  config: AppConfig,
  runStorage: StorageRunner,
  storageFetch: typeof fetch,
): Promise<Backend> {
  const embedded = await runStorage(embeddedStorageOptions(config)).catch(
    naming(SETTINGS.storageAddress.env),
  );
  if (config.storage.certsDir) {
    // A certificate the console cannot verify would fail every sign-in later: say so now.
    await checkStorageReachable(embedded.url, storageFetch).catch(async (error) => {
      await embedded.close();
      throw error;
    });
  }
  const token = prometheusBearerToken(embedded.root);
  return {
    // The console vouches for each sign-in's client address to the storage it started (forwarded_client.ts).
    storage: {
      url: embedded.url,
      region: config.minioRegion,
      forwardingKey: await forwardingKey(embedded.root),
    },
    embedded,
    metricsToken: () => token,
    notices: {
      started: [`Embedded storage server (S3, admin, STS) at ${embedded.url}, data in ${config.dataDir}`],
      signIn: signInHint(config, embedded),
    },
    close: () => embedded.close(),
  };
}

function signInHint(config: AppConfig, embedded: StorageThread): string {
  const credentialsFile = `${config.dataDir}/.deck/root-credentials.json`;
  if (config.root) return "Sign in with MINIO_ROOT_USER and MINIO_ROOT_PASSWORD.";
  // Printed once, on the start that generated them; later starts only say where they are.
  if (!embedded.generatedRoot) return `Sign-in credentials are in ${credentialsFile}.`;
  return `Generated root credentials (kept in ${credentialsFile}, mode 0600):\n` +
    `  access key: ${embedded.root.accessKey}\n  secret key: ${embedded.root.secretKey}`;
}
