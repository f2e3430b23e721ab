/**
 * The basic dashboard's sparklines: requests per second, traffic per second and bytes stored, read from the
 * widgets' source with the same kind of queries. The span is the last day, or what the on-box history holds
 * while it is younger (at least a minute), in 60 steps.
 */
import type { DashboardTrends, TrendPoint } from "../../lib/contract/dashboard.ts";
import type { MatrixSeries } from "./promql/evaluate.ts";
import type { WidgetSource } from "./source.ts";

const QUERIES = {
  requests: "sum(rate(minio_s3_requests_total{$__query}[$__rate_interval]))",
  traffic:
    "sum(rate(minio_s3_traffic_received_bytes{$__query}[$__rate_interval])) + sum(rate(minio_s3_traffic_sent_bytes{$__query}[$__rate_interval]))",
  usage: "sum(minio_cluster_usage_total_bytes{$__query})",
};

/** Metric names the trends read (the sampler keeps them). */
export const TREND_METRICS = [
  "minio_s3_requests_total",
  "minio_s3_traffic_received_bytes",
  "minio_s3_traffic_sent_bytes",
  "minio_cluster_usage_total_bytes",
];

const DAY = 86_400;
const MINUTE = 60;
const STEPS = 60;

const points = (matrix: MatrixSeries[]): TrendPoint[] =>
  (matrix[0]?.values ?? []).map(([t, v]) => [t, Number(v)]);

/** `historySeconds`: how far back the source holds data (null: as far as asked, e.g. Prometheus). */
export async function loadTrends(
  source: WidgetSource,
  nowSeconds: number,
  historySeconds: number | null,
): Promise<DashboardTrends> {
  const window = historySeconds === null ? DAY : Math.min(DAY, Math.max(MINUTE, Math.ceil(historySeconds)));
  const end = Math.floor(nowSeconds);
  const start = end - window;
  const step = Math.max(1, Math.floor(window / STEPS));
  const [requests, traffic, usage] = await Promise.all(
    Object.values(QUERIES).map((q) => source.queryRange(q, start, end, step)),
  );
  return {
    windowSeconds: window,
    requests: points(requests),
    traffic: points(traffic),
    usage: points(usage),
  };
}
