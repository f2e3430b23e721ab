/**
 * The metric families of MinIO's v2 endpoints (part 2 §4.3, current-release names), built from the store's
 * usage pass, the request counters, the data directory's filesystem and /proc:
 *
 *   cluster  capacity, drives, nodes, usage and size distributions, S3 requests/errors/TTFB/traffic,
 *            inter-node traffic, process and runtime of this node, software version; also this node's drive
 *            figures (MinIO served them here until RELEASE.2023-08; keeping them lets one scrape job feed
 *            every dashboard widget of a single-node server)
 *   node     this node's drives and process, plus the standard process collector (`minio_process_*`)
 *   bucket   per-bucket usage, distributions, quota, traffic, requests and TTFB (at most 100 buckets)
 */
import { family, type MetricFamily, type Sample, single } from "./exposition.ts";
import type { ProcessStats } from "./process_stats.ts";
import { type ApiCounters, type RequestCounters, TTFB_BOUNDS } from "./request_counters.ts";
import { SIZE_RANGES, type UsageFigures, type UsageSnapshot, VERSION_RANGES } from "./usage_scan.ts";

export interface DriveFigures {
  path: string;
  total: number;
  free: number;
  used: number;
  freeInodes: number;
  totalInodes: number;
}

/** Everything one render needs, gathered before building families. */
export interface MetricsInputs {
  server: string;
  version: string;
  now: number;
  startedAt: number;
  usage: UsageSnapshot;
  drive: DriveFigures;
  counters: RequestCounters;
  process: ProcessStats;
  /** Hard quota per bucket (bytes), for buckets that have one. */
  quotas: Map<string, number>;
}

/** The bucket endpoint reports at most this many buckets, as MinIO does. */
export const MAX_REPORTED_BUCKETS = 100;

const perRange = (
  ranges: { name: string }[],
  counts: number[],
  extra: Record<string, string> = {},
): Sample[] => ranges.map((r, i) => ({ labels: { ...extra, range: r.name }, value: counts[i] }));

function perApi(
  apis: Map<string, ApiCounters>,
  pick: (c: ApiCounters) => number,
  extra: Record<string, string> = {},
): Sample[] {
  return [...apis].map(([api, c]) => ({ labels: { ...extra, api }, value: pick(c) }));
}

function ttfbSamples(apis: Map<string, ApiCounters>, extra: Record<string, string> = {}): Sample[] {
  const out: Sample[] = [];
  for (const [api, counters] of apis) {
    const cumulative = counters.cumulativeTtfb();
    TTFB_BOUNDS.forEach((bound, i) =>
      out.push({ labels: { ...extra, api, le: bound.toFixed(3) }, value: cumulative[i] })
    );
    out.push({ labels: { ...extra, api, le: "+Inf" }, value: cumulative[TTFB_BOUNDS.length] });
  }
  return out;
}

function driveFamilies(i: MetricsInputs): MetricFamily[] {
  const at = (value: number): Sample[] => [{ labels: { drive: i.drive.path }, value }];
  return [
    family("minio_node_drive_used_bytes", "gauge", "Bytes used on the drive", at(i.drive.used), i.server),
    family(
      "minio_node_drive_free_bytes",
      "gauge",
      "Bytes available on the drive",
      at(i.drive.free),
      i.server,
    ),
    family(
      "minio_node_drive_total_bytes",
      "gauge",
      "Size of the drive in bytes",
      at(i.drive.total),
      i.server,
    ),
    family(
      "minio_node_drive_free_inodes",
      "gauge",
      "Free inodes on the drive",
      at(i.drive.freeInodes),
      i.server,
    ),
    family(
      "minio_node_drive_total_inodes",
      "gauge",
      "Inodes of the drive",
      at(i.drive.totalInodes),
      i.server,
    ),
  ];
}

/** The node's process group, present on both the cluster and the node endpoint. */
function processFamilies(i: MetricsInputs): MetricFamily[] {
  const p = i.process;
  const maybe = (value: number | undefined) => (value === undefined ? [] : single(value));
  return [
    family(
      "minio_node_process_starttime_seconds",
      "gauge",
      "Start time of the server process, in seconds since the Unix epoch",
      single(i.startedAt / 1000),
      i.server,
    ),
    family(
      "minio_node_process_uptime_seconds",
      "gauge",
      "Seconds since the server started",
      single((i.now - i.startedAt) / 1000),
      i.server,
    ),
    family(
      "minio_node_process_resident_memory_bytes",
      "gauge",
      "Resident memory of the server process in bytes",
      single(p.residentBytes),
      i.server,
    ),
    family(
      "minio_node_process_cpu_total_seconds",
      "counter",
      "User and system CPU time of the server process in seconds",
      maybe(p.cpuSeconds),
      i.server,
    ),
    family(
      "minio_node_file_descriptor_open_total",
      "gauge",
      "File descriptors the server process has open",
      maybe(p.openFds),
      i.server,
    ),
    family(
      "minio_node_file_descriptor_limit_total",
      "gauge",
      "Limit on open file descriptors of the server process",
      maybe(p.maxFds),
      i.server,
    ),
    family(
      "minio_node_go_routine_total",
      "gauge",
      "Threads of the server process (the runtime's counterpart of go routines)",
      maybe(p.threads),
      i.server,
    ),
    family(
      "minio_node_syscall_read_total",
      "counter",
      "Read system calls (/proc/[pid]/io syscr)",
      maybe(p.io?.syscr),
      i.server,
    ),
    family(
      "minio_node_syscall_write_total",
      "counter",
      "Write system calls (/proc/[pid]/io syscw)",
      maybe(p.io?.syscw),
      i.server,
    ),
    family(
      "minio_node_io_rchar_bytes",
      "counter",
      "Bytes read, page cache included (/proc/[pid]/io rchar)",
      maybe(p.io?.rchar),
      i.server,
    ),
    family(
      "minio_node_io_wchar_bytes",
      "counter",
      "Bytes written, page cache included (/proc/[pid]/io wchar)",
      maybe(p.io?.wchar),
      i.server,
    ),
    family(
      "minio_node_io_read_bytes",
      "counter",
      "Bytes read from storage (/proc/[pid]/io read_bytes)",
      maybe(p.io?.readBytes),
      i.server,
    ),
    family(
      "minio_node_io_write_bytes",
      "counter",
      "Bytes written to storage (/proc/[pid]/io write_bytes)",
      maybe(p.io?.writeBytes),
      i.server,
    ),
  ];
}

function nodesFamilies(i: MetricsInputs): MetricFamily[] {
  return [
    family("minio_cluster_nodes_online_total", "gauge", "Server nodes online", single(1), i.server),
    family("minio_cluster_nodes_offline_total", "gauge", "Server nodes offline", single(0), i.server),
  ];
}

export function clusterFamilies(i: MetricsInputs): MetricFamily[] {
  const u = i.usage.totals;
  const c = i.counters;
  // One drive, no parity: usable capacity is the raw capacity.
  return [
    family(
      "minio_cluster_capacity_raw_total_bytes",
      "gauge",
      "Raw capacity of the online drives in bytes",
      single(i.drive.total),
      i.server,
    ),
    family(
      "minio_cluster_capacity_raw_free_bytes",
      "gauge",
      "Raw free capacity of the online drives in bytes",
      single(i.drive.free),
      i.server,
    ),
    family(
      "minio_cluster_capacity_usable_total_bytes",
      "gauge",
      "Usable capacity of the online drives in bytes",
      single(i.drive.total),
      i.server,
    ),
    family(
      "minio_cluster_capacity_usable_free_bytes",
      "gauge",
      "Usable free capacity of the online drives in bytes",
      single(i.drive.free),
      i.server,
    ),
    family("minio_cluster_drive_online_total", "gauge", "Drives online", single(1), i.server),
    family("minio_cluster_drive_offline_total", "gauge", "Drives offline", single(0), i.server),
    family("minio_cluster_drive_total", "gauge", "Drives in the cluster", single(1), i.server),
    ...nodesFamilies(i),
    family(
      "minio_cluster_bucket_total",
      "gauge",
      "Buckets in the cluster",
      single(i.usage.buckets.size),
      i.server,
    ),
    family(
      "minio_cluster_usage_total_bytes",
      "gauge",
      "Bytes stored in the cluster, all versions",
      single(u.size),
      i.server,
    ),
    family(
      "minio_cluster_usage_object_total",
      "gauge",
      "Objects in the cluster",
      single(u.objects),
      i.server,
    ),
    family(
      "minio_cluster_usage_version_total",
      "gauge",
      "Object versions in the cluster, delete markers excluded",
      single(u.versions),
      i.server,
    ),
    family(
      "minio_cluster_usage_deletemarker_total",
      "gauge",
      "Delete markers in the cluster",
      single(u.deleteMarkers),
      i.server,
    ),
    family(
      "minio_cluster_objects_size_distribution",
      "gauge",
      "Objects per size range across the cluster",
      perRange(SIZE_RANGES, u.sizeDistribution),
      i.server,
    ),
    family(
      "minio_cluster_objects_version_distribution",
      "gauge",
      "Objects per version-count range across the cluster",
      perRange(VERSION_RANGES, u.versionDistribution),
      i.server,
    ),
    family(
      "minio_usage_last_activity_nano_seconds",
      "gauge",
      "Nanoseconds since the usage figures were last computed",
      single((i.now - i.usage.at) * 1e6),
      i.server,
    ),
    family("minio_s3_requests_total", "counter", "S3 requests", perApi(c.apis, (a) => a.requests), i.server),
    family(
      "minio_s3_requests_errors_total",
      "counter",
      "S3 requests that failed with a 4xx or 5xx status",
      perApi(c.apis, (a) => a.errors),
      i.server,
    ),
    family(
      "minio_s3_requests_4xx_errors_total",
      "counter",
      "S3 requests that failed with a 4xx status",
      perApi(c.apis, (a) => a.errors4xx),
      i.server,
    ),
    family(
      "minio_s3_requests_5xx_errors_total",
      "counter",
      "S3 requests that failed with a 5xx status",
      perApi(c.apis, (a) => a.errors5xx),
      i.server,
    ),
    family(
      "minio_s3_requests_canceled_total",
      "counter",
      "S3 requests the client abandoned before the response was complete",
      perApi(c.apis, (a) => a.canceled),
      i.server,
    ),
    family(
      "minio_s3_requests_rejected_auth_total",
      "counter",
      "S3 requests rejected for failed authentication",
      single(c.rejectedAuth),
      i.server,
    ),
    family(
      "minio_s3_requests_rejected_timestamp_total",
      "counter",
      "S3 requests rejected for an invalid timestamp",
      single(c.rejectedTimestamp),
      i.server,
    ),
    family(
      "minio_s3_requests_rejected_invalid_total",
      "counter",
      "S3 requests no operation matched",
      single(c.rejectedInvalid),
      i.server,
    ),
    family(
      "minio_s3_requests_ttfb_seconds_distribution",
      "gauge",
      "Requests per time-to-first-byte bound, cumulative",
      ttfbSamples(c.apis),
      i.server,
    ),
    family(
      "minio_s3_traffic_received_bytes",
      "counter",
      "Bytes received in S3 request bodies",
      single(c.received),
      i.server,
    ),
    family(
      "minio_s3_traffic_sent_bytes",
      "counter",
      "Bytes sent in S3 response bodies",
      single(c.sent),
      i.server,
    ),
    // A single node has no peers; the counters exist so the internode widget shows a true zero.
    family("minio_inter_node_traffic_sent_bytes", "counter", "Bytes sent to peer nodes", single(0), i.server),
    family(
      "minio_inter_node_traffic_received_bytes",
      "counter",
      "Bytes received from peer nodes",
      single(0),
      i.server,
    ),
    family(
      "minio_inter_node_traffic_errors_total",
      "counter",
      "Failed calls to peer nodes",
      single(0),
      i.server,
    ),
    ...processFamilies(i),
    ...driveFamilies(i),
    family("minio_software_version_info", "gauge", "Release of the server (in the version label)", [{
      labels: { version: i.version },
      value: 0,
    }], i.server),
    family("minio_software_commit_info", "gauge", "Commit of the server release (in the commit label)", [{
      labels: { commit: "" },
      value: 0,
    }], i.server),
  ];
}

export function nodeFamilies(i: MetricsInputs): MetricFamily[] {
  const p = i.process;
  const maybe = (value: number | undefined) => (value === undefined ? [] : single(value));
  return [
    ...driveFamilies(i),
    ...processFamilies(i),
    ...nodesFamilies(i),
    // The standard process collector MinIO registers on the node endpoint (namespace "minio").
    family(
      "minio_process_cpu_seconds_total",
      "counter",
      "Total user and system CPU time spent in seconds.",
      maybe(p.cpuSeconds),
      i.server,
    ),
    family("minio_process_open_fds", "gauge", "Number of open file descriptors.", maybe(p.openFds), i.server),
    family(
      "minio_process_max_fds",
      "gauge",
      "Maximum number of open file descriptors.",
      maybe(p.maxFds),
      i.server,
    ),
    family(
      "minio_process_virtual_memory_bytes",
      "gauge",
      "Virtual memory size in bytes.",
      maybe(p.virtualBytes),
      i.server,
    ),
    family(
      "minio_process_resident_memory_bytes",
      "gauge",
      "Resident memory size in bytes.",
      single(p.residentBytes),
      i.server,
    ),
    family(
      "minio_process_start_time_seconds",
      "gauge",
      "Start time of the process since unix epoch in seconds.",
      single(i.startedAt / 1000),
      i.server,
    ),
  ];
}

export function bucketFamilies(i: MetricsInputs): MetricFamily[] {
  const names = [...i.usage.buckets.keys()].sort().slice(0, MAX_REPORTED_BUCKETS);
  const each = (pick: (u: UsageFigures, name: string) => number): Sample[] =>
    names.map((bucket) => ({ labels: { bucket }, value: pick(i.usage.buckets.get(bucket)!, bucket) }));
  const eachRange = (ranges: { name: string }[], pick: (u: UsageFigures) => number[]) =>
    names.flatMap((bucket) => perRange(ranges, pick(i.usage.buckets.get(bucket)!), { bucket }));
  const traffic = (pick: (b: { received: number; sent: number }) => number) =>
    names.map((bucket) => ({
      labels: { bucket },
      value: pick(i.counters.buckets.get(bucket) ?? { received: 0, sent: 0 }),
    }));
  const apis = (pick: (c: ApiCounters) => number) =>
    names.flatMap((bucket) => perApi(i.counters.buckets.get(bucket)?.apis ?? new Map(), pick, { bucket }));
  const quotas = names.filter((n) => i.quotas.has(n)).map((bucket) => ({
    labels: { bucket },
    value: i.quotas.get(bucket)!,
  }));
  return [
    family(
      "minio_bucket_usage_total_bytes",
      "gauge",
      "Bytes stored in the bucket, all versions",
      each((u) => u.size),
      i.server,
    ),
    family(
      "minio_bucket_usage_object_total",
      "gauge",
      "Objects in the bucket",
      each((u) => u.objects),
      i.server,
    ),
    family(
      "minio_bucket_usage_version_total",
      "gauge",
      "Object versions in the bucket, delete markers excluded",
      each((u) => u.versions),
      i.server,
    ),
    family(
      "minio_bucket_usage_deletemarker_total",
      "gauge",
      "Delete markers in the bucket",
      each((u) => u.deleteMarkers),
      i.server,
    ),
    family(
      "minio_bucket_objects_size_distribution",
      "gauge",
      "Objects per size range in the bucket",
      eachRange(SIZE_RANGES, (u) => u.sizeDistribution),
      i.server,
    ),
    family(
      "minio_bucket_objects_version_distribution",
      "gauge",
      "Objects per version-count range in the bucket",
      eachRange(VERSION_RANGES, (u) => u.versionDistribution),
      i.server,
    ),
    family("minio_bucket_quota_total_bytes", "gauge", "Hard quota of the bucket in bytes", quotas, i.server),
    family(
      "minio_bucket_traffic_received_bytes",
      "counter",
      "Bytes received in S3 request bodies for the bucket",
      traffic((b) => b.received),
      i.server,
    ),
    family(
      "minio_bucket_traffic_sent_bytes",
      "counter",
      "Bytes sent in S3 response bodies for the bucket",
      traffic((b) => b.sent),
      i.server,
    ),
    family(
      "minio_bucket_requests_total",
      "counter",
      "S3 requests on the bucket",
      apis((a) => a.requests),
      i.server,
    ),
    family(
      "minio_bucket_requests_4xx_errors_total",
      "counter",
      "S3 requests on the bucket that failed with a 4xx status",
      apis((a) => a.errors4xx),
      i.server,
    ),
    family(
      "minio_bucket_requests_5xx_errors_total",
      "counter",
      "S3 requests on the bucket that failed with a 5xx status",
      apis((a) => a.errors5xx),
      i.server,
    ),
    family(
      "minio_bucket_requests_canceled_total",
      "counter",
      "S3 requests on the bucket the client abandoned",
      apis((a) => a.canceled),
      i.server,
    ),
    family(
      "minio_bucket_requests_ttfb_seconds_distribution",
      "gauge",
      "Requests on the bucket per time-to-first-byte bound, cumulative",
      names.flatMap((bucket) => ttfbSamples(i.counters.buckets.get(bucket)?.apis ?? new Map(), { bucket })),
      i.server,
    ),
  ];
}
