/**
 * Lifecycle and tiers wired together for the embedded server (server.ts calls this once): the tier store
 * shared with the admin API, the tier backends the store reads transitioned data through, the scanner, its
 * metric families, the bucket events it publishes and the prediction headers object responses carry.
 */
import type { Logger } from "../../lib/http/log.ts";
import { buildEventRecord } from "../events/records.ts";
import type { Store } from "../fs/store.ts";
import type { MetricFamily } from "../metrics/exposition.ts";
import type { StorageStreams } from "../streams/mod.ts";
import { TierBackends } from "../tiers/remote.ts";
import { tierUsage } from "../tiers/usage.ts";
import { lifecycleFamilies } from "./metrics.ts";
import { lifecyclePredictions } from "./predict.ts";
import { LifecycleScanner, type LifecycleSettings } from "./scanner.ts";
import { TierStore } from "../tiers/store.ts";

/** Lifecycle scans every 5 minutes unless told otherwise (CONSOLE_LIFECYCLE_SCAN_INTERVAL). */
export const DEFAULT_LIFECYCLE: LifecycleSettings = { intervalMs: 5 * 60_000 };

export interface Lifecycle {
  tiers: TierStore;
  backends: TierBackends;
  scanner: LifecycleScanner;
  families(server: string): MetricFamily[];
}

export async function openLifecycle(options: {
  store: Store;
  dataDir: string;
  deploymentId: string;
  streams: StorageStreams;
  /** The server's region, for event records (read when an event is published). */
  region: () => string;
  settings?: LifecycleSettings;
  now?: () => number;
  log?: Logger;
  /** How tiers are called (trusting the certificate directory's CAs); the global fetch when omitted. */
  fetch?: typeof fetch;
}): Promise<Lifecycle> {
  const { store, streams } = options;
  const tiers = await TierStore.open(options.dataDir);
  const backends = await TierBackends.open({
    tiers,
    deploymentId: options.deploymentId,
    dataDir: options.dataDir,
    fetch: options.fetch,
    log: options.log,
  });
  store.tiered = backends;
  tiers.usage = (name) => tierUsage(store, name);
  const scanner = new LifecycleScanner(
    store,
    backends,
    tiers,
    options.settings ?? DEFAULT_LIFECYCLE,
    options.now,
    options.log,
    (name, object) => {
      if (!streams.events.active) return;
      const context = {
        principalId: "",
        sourceIp: "",
        userAgent: "Internal: [ILM]",
        requestId: "",
        region: options.region(),
        deploymentId: options.deploymentId,
        originEndpoint: "",
      };
      streams.events.publish({
        bucket: object.bucket,
        key: object.key,
        eventName: name,
        record: buildEventRecord(name, object.bucket, object, context),
      });
    },
  );
  store.lifecycle = lifecyclePredictions(scanner);
  return { tiers, backends, scanner, families: (server) => lifecycleFamilies(scanner, backends, server) };
}
