/**
 * The embedded storage's Prometheus endpoints at MinIO's paths (part 2 §4.1):
 *
 *   GET /minio/v2/metrics/cluster | node | bucket
 *
 * Authenticated as MinIO does: with auth type "jwt" (default) a bearer token signed for an access key allowed
 * `admin:Prometheus` (bearer.ts); with "public" no authentication. Request figures come from a sink on the
 * server's request stream (request_counters.ts), usage from a cached pass over the index (usage_scan.ts).
 */
import { statfs } from "node:fs/promises";
import type { IdentityAuthority } from "../core/contracts.ts";
import type { Store } from "../fs/store.ts";
import type { Hub } from "../streams/hub.ts";
import type { RequestRecord } from "../streams/requests.ts";
import { verifyMetricsBearer } from "./bearer.ts";
import { EXPOSITION_CONTENT_TYPE, type MetricFamily, renderExposition } from "./exposition.ts";
import {
  bucketFamilies,
  clusterFamilies,
  type DriveFigures,
  type MetricsInputs,
  nodeFamilies,
} from "./families.ts";
import { readProcessStats } from "./process_stats.ts";
import { RequestCounters } from "./request_counters.ts";
import { cachedUsage } from "./usage_scan.ts";

export const METRICS_PATH_PREFIX = "/minio/v2/metrics/";

export type PrometheusAuthType = "jwt" | "public";

export interface MetricsEndpointOptions {
  store: Store;
  authority: IdentityAuthority;
  requests: Hub<RequestRecord>;
  authType: PrometheusAuthType;
  version: string;
  now?: () => number;
  /** More families for the cluster and node endpoints (the lifecycle scanner's counters). */
  extraFamilies?: (server: string) => MetricFamily[];
}

export interface MetricsEndpoint {
  /** Answers a metrics request; null means the caller is not allowed (the front answers 403). */
  handle(request: Request, url: URL): Promise<Response | null>;
  /** The `server` label: the listener's host:port once known (until then the request's host). */
  setServerName(name: string): void;
  /** Stops counting (the request sink is removed). */
  close(): void;
}

const MUTATING = new Set(["PUT", "POST", "DELETE"]);

async function driveFigures(path: string): Promise<DriveFigures> {
  const s = await statfs(path);
  const total = s.blocks * s.bsize;
  return {
    path,
    total,
    free: s.bavail * s.bsize,
    used: total - s.bfree * s.bsize,
    freeInodes: s.ffree,
    totalInodes: s.files,
  };
}

async function quotasOf(store: Store, buckets: Iterable<string>): Promise<Map<string, number>> {
  const quotas = new Map<string, number>();
  for (const bucket of buckets) {
    const text = await store.getDocument(bucket, "quota.json").catch(() => undefined);
    const quota = text ? Number(JSON.parse(text).quota) : 0;
    if (quota > 0) quotas.set(bucket, quota);
  }
  return quotas;
}

export function createMetricsEndpoint(options: MetricsEndpointOptions): MetricsEndpoint {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const counters = new RequestCounters((bucket) => options.store.buckets.has(bucket));
  const usage = cachedUsage(options.store, now);
  let serverName = "";
  const stopSink = options.requests.sink((record) => {
    counters.record(record);
    if (MUTATING.has(record.method) && record.statusCode < 300) usage.markChanged();
  });

  return {
    setServerName: (name) => void (serverName = name),
    close: () => void stopSink(),
    async handle(request, url) {
      const kind = url.pathname.slice(METRICS_PATH_PREFIX.length).replace(/\/+$/, "");
      if (kind !== "cluster" && kind !== "node" && kind !== "bucket") {
        return new Response("404 page not found\n", { status: 404 });
      }
      if (
        options.authType === "jwt" &&
        !(await verifyMetricsBearer(request.headers.get("authorization"), options.authority, now()))
      ) return null;
      counters.prune();
      const snapshot = usage.read();
      const inputs: MetricsInputs = {
        server: serverName || url.host,
        version: options.version,
        now: now(),
        startedAt,
        usage: snapshot,
        drive: await driveFigures(options.store.root),
        counters,
        process: await readProcessStats(),
        quotas: kind === "bucket" ? await quotasOf(options.store, snapshot.buckets.keys()) : new Map(),
      };
      const families = kind === "cluster"
        ? clusterFamilies(inputs)
        : kind === "node"
        ? nodeFamilies(inputs)
        : bucketFamilies(inputs);
      if (kind !== "bucket" && options.extraFamilies) families.push(...options.extraFamilies(inputs.server));
      return new Response(request.method === "HEAD" ? null : renderExposition(families), {
        headers: { "content-type": EXPOSITION_CONTENT_TYPE },
      });
    },
  };
}
