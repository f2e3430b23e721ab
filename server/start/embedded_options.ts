/**
 * Whether Deck runs its embedded storage, and what it starts it with, read from the console's configuration.
 * Kept apart from backend.ts, which loads the Kubernetes client and the console's modules, so main.ts can
 * start the storage thread before any of that loads.
 */
import type { AppConfig } from "../console/config/config.ts";
import type { StorageThreadOptions } from "../storage/thread.ts";

/** Deck runs its own storage unless it manages tenants (operator mode) or is given an external MinIO. */
export function runsEmbeddedStorage(config: AppConfig): boolean {
  return !config.operator && !config.minioServer;
}

export function embeddedStorageOptions(config: AppConfig): StorageThreadOptions {
  return {
    dataDir: config.dataDir,
    hostname: config.storage.hostname,
    port: config.storage.port,
    certsDir: config.storage.certsDir ?? undefined,
    rootUser: config.root?.accessKey,
    rootPassword: config.root?.secretKey,
    prometheusAuthType: config.storagePrometheusAuth,
    kmsSecretKey: config.kmsSecretKey || undefined,
    logLevel: config.logLevel,
    timeouts: config.timeouts,
    lifecycle: config.lifecycle,
  };
}
