/**
 * The scanner's counters as Prometheus families on /minio/v2/metrics/cluster and /node. MinIO's own name for
 * versions checked (`minio_node_ilm_versions_scanned`) and for pending removals; Deck's additions say what the
 * scans did, under `minio_node_ilm_*` so one scrape job and one prefix cover them.
 */
import { family, type MetricFamily, single } from "../metrics/exposition.ts";
import type { TierBackends } from "../tiers/remote.ts";
import type { LifecycleScanner } from "./scanner.ts";

export function lifecycleFamilies(
  scanner: LifecycleScanner,
  backends: TierBackends,
  server: string,
): MetricFamily[] {
  const s = scanner.stats;
  return [
    family(
      "minio_node_ilm_versions_scanned",
      "counter",
      "Total number of object versions checked for ilm actions since server start",
      single(s.versionsScanned),
      server,
    ),
    family(
      "minio_node_ilm_objects_scanned",
      "counter",
      "Objects (keys) checked for ilm actions since server start",
      single(s.objectsScanned),
      server,
    ),
    family(
      "minio_node_ilm_scans_total",
      "counter",
      "Lifecycle scans completed since server start",
      single(s.scans),
      server,
    ),
    family(
      "minio_node_ilm_last_scan_seconds",
      "gauge",
      "Duration of the last completed lifecycle scan",
      single(s.lastScanSeconds),
      server,
    ),
    family(
      "minio_node_ilm_expired_versions_total",
      "counter",
      "Object versions expired by lifecycle rules since server start",
      single(s.expired),
      server,
    ),
    family(
      "minio_node_ilm_expired_delete_markers_total",
      "counter",
      "Expired delete markers removed since server start",
      single(s.deleteMarkersRemoved),
      server,
    ),
    family(
      "minio_node_ilm_transitioned_versions_total",
      "counter",
      "Object versions transitioned to a remote tier since server start",
      single(s.transitioned),
      server,
    ),
    family(
      "minio_node_ilm_aborted_uploads_total",
      "counter",
      "Incomplete multipart uploads aborted by lifecycle rules since server start",
      single(s.uploadsAborted),
      server,
    ),
    family(
      "minio_node_ilm_failed_actions_total",
      "counter",
      "Lifecycle actions not carried out (object lock, tier unreachable) since server start",
      single(s.failures),
      server,
    ),
    family(
      "minio_node_ilm_tier_pending_removals",
      "gauge",
      "Remote tier copies waiting to be removed",
      single(backends.pendingRemovals),
      server,
    ),
  ];
}
