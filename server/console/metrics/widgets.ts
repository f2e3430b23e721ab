/**
 * The widgets' queries: the console's fixed Grafana-style widget list (part 2 §4.5) with current MinIO
 * metric names (RELEASE.2023-08 and later: cluster usage totals, `drive` instead of `disk`), the v0.10
 * rate windows, and the source bugs fixed (internode, syscall and IO widgets query both directions instead
 * of one expression twice). `$__query` becomes `job="<job id>"` (plus extra labels); `$__rate_interval`
 * becomes a window that spans several samples of the source (prometheus.ts, history_source.ts).
 */
import { PANELS, type WidgetKind } from "../../lib/contract/dashboard.ts";

export interface WidgetTargetDef {
  expr: string;
  legendFormat: string;
  /** Step the widget asks for when the browser gives none (seconds). */
  step?: number;
}

export interface WidgetDef {
  id: number;
  title: string;
  type: WidgetKind;
  /** Grafana's reduceOptions.calcs[0]: how a stat reduces its series to one number. */
  calc?: "mean" | "last" | "lastNotNull";
  targets: WidgetTargetDef[];
}

const stat = (id: number, calc: WidgetDef["calc"], expr: string, legendFormat = "", step = 60) => ({
  id,
  type: "stat" as const,
  calc,
  targets: [{ expr, legendFormat, step }],
});
const graph = (id: number, ...targets: [string, string][]) => ({
  id,
  type: "graph" as const,
  targets: targets.map(([expr, legendFormat]) => ({ expr, legendFormat })),
});

const DEFINITIONS: Omit<WidgetDef, "title">[] = [
  stat(1, "mean", "time() - max(minio_node_process_starttime_seconds{$__query})", "{{instance}}"),
  stat(65, "last", "sum by (instance) (minio_s3_traffic_received_bytes{$__query})", "{{instance}}"),
  stat(64, "last", "sum by (instance) (minio_s3_traffic_sent_bytes{$__query})"),
  stat(53, "mean", "minio_cluster_nodes_online_total{$__query}"),
  stat(69, "mean", "minio_cluster_nodes_offline_total{$__query}"),
  stat(9, "mean", "minio_cluster_drive_online_total{$__query}", "Total online drives in MinIO Cluster"),
  stat(78, "mean", "minio_cluster_drive_offline_total{$__query}"),
  stat(80, "last", "minio_heal_time_last_activity_nano_seconds{$__query}", "{{server}}"),
  stat(81, "last", "minio_usage_last_activity_nano_seconds{$__query}", "{{server}}"),
  stat(66, "lastNotNull", "minio_cluster_bucket_total{$__query}", "", 100),
  stat(44, "lastNotNull", "minio_cluster_usage_object_total{$__query}"),
  stat(61, "last", "sum(minio_node_file_descriptor_open_total{$__query})"),
  stat(62, "last", "sum without (server,instance) (minio_node_go_routine_total{$__query})"),
  {
    id: 50,
    type: "gauge",
    calc: "lastNotNull",
    targets: [
      {
        expr: "topk(1, sum(minio_cluster_capacity_usable_total_bytes{$__query}) by (instance))",
        legendFormat: "Total Usable",
        step: 300,
      },
      {
        expr: "topk(1, sum(minio_cluster_capacity_usable_free_bytes{$__query}) by (instance))",
        legendFormat: "Usable Free",
        step: 300,
      },
      {
        expr:
          "topk(1, sum(minio_cluster_capacity_usable_total_bytes{$__query}) by (instance)) - topk(1, sum(minio_cluster_capacity_usable_free_bytes{$__query}) by (instance))",
        legendFormat: "Used Space",
        step: 300,
      },
    ],
  },
  {
    id: 52,
    type: "bargauge",
    calc: "mean",
    targets: [{
      expr: "minio_cluster_objects_size_distribution{$__query}",
      legendFormat: "{{range}}",
      step: 300,
    }],
  },
  graph(68, ["minio_cluster_usage_total_bytes{$__query}", "Used Capacity"]),
  graph(63, [
    "sum by (server) (rate(minio_s3_traffic_received_bytes{$__query}[$__rate_interval]))",
    "Data Received [{{server}}]",
  ]),
  graph(70, [
    "sum by (server) (rate(minio_s3_traffic_sent_bytes{$__query}[$__rate_interval]))",
    "Data Sent [{{server}}]",
  ]),
  graph(60, ["sum by (server,api) (rate(minio_s3_requests_total{$__query}[$__rate_interval]))", "{{api}}"]),
  graph(71, [
    "sum by (server,api) (rate(minio_s3_requests_errors_total{$__query}[$__rate_interval]))",
    "{{api}}",
  ]),
  graph(
    17,
    [
      "rate(minio_inter_node_traffic_sent_bytes{$__query}[$__rate_interval])",
      "Internode Bytes Sent [{{server}}]",
    ],
    [
      "rate(minio_inter_node_traffic_received_bytes{$__query}[$__rate_interval])",
      "Internode Bytes Received [{{server}}]",
    ],
  ),
  graph(73, ["rate(minio_node_io_rchar_bytes{$__query}[$__rate_interval])", "Node RChar [{{server}}]"], [
    "rate(minio_node_io_wchar_bytes{$__query}[$__rate_interval])",
    "Node WChar [{{server}}]",
  ]),
  graph(76, ["minio_node_process_resident_memory_bytes{$__query}", "Memory Used [{{server}}]"]),
  graph(77, [
    "rate(minio_node_process_cpu_total_seconds{$__query}[$__rate_interval])",
    "CPU Usage Rate [{{server}}]",
  ]),
  graph(
    11,
    ["rate(minio_node_syscall_read_total{$__query}[$__rate_interval])", "Read Syscalls [{{server}}]"],
    ["rate(minio_node_syscall_write_total{$__query}[$__rate_interval])", "Write Syscalls [{{server}}]"],
  ),
  graph(8, ["minio_node_file_descriptor_open_total{$__query}", "Open FDs [{{server}}]"]),
  graph(82, ["minio_node_drive_free_inodes{$__query}", "Free Inodes [{{server}}:{{drive}}]"]),
  graph(74, ["minio_node_drive_used_bytes{$__query}", "Used Capacity [{{server}}:{{drive}}]"]),
];

/** Every widget, titled as its panel (the browser matches widgets to panels by title). */
export const WIDGETS: WidgetDef[] = DEFINITIONS.map((d) => {
  const panel = PANELS.find((p) => p.id === d.id);
  if (!panel) throw new Error(`widget ${d.id} has no panel`);
  return { ...d, title: panel.title };
});

export const widgetById = (id: number) => WIDGETS.find((w) => w.id === id);

/** `job="minio-job"` plus any extra matchers (CONSOLE_PROMETHEUS_EXTRA_LABELS), for `$__query`. */
export function querySelector(jobId: string, extraLabels: string): string {
  const job = `job="${jobId.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  return extraLabels ? `${job},${extraLabels}` : job;
}

/** A widget expression ready to run: placeholders replaced. */
export function expandExpr(expr: string, selector: string, rateInterval: string): string {
  return expr.replaceAll("$__query", selector).replaceAll("$__rate_interval", rateInterval);
}

/** Metric names the widgets read; the on-box history keeps only these. */
export function metricNamesUsed(extra: string[] = []): Set<string> {
  const names = new Set<string>(extra);
  for (const widget of WIDGETS) {
    for (const target of widget.targets) {
      for (const m of target.expr.matchAll(/([a-z_:][a-z0-9_:]*)\{\$__query\}/g)) {
        names.add(m[1]);
      }
    }
  }
  return names;
}
