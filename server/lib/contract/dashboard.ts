/** The dashboard's wire types and the widget dashboard's panel configuration (api-index §3, spec 1 Dashboard). */

export interface DriveInfo {
  uuid: string;
  state: string;
  endpoint: string;
  drivePath: string;
  rootDisk: boolean;
  healing: boolean;
  model: string;
  totalSpace: number;
  usedSpace: number;
  availableSpace: number;
}

export interface ServerInfo {
  state: string;
  endpoint: string;
  uptime: number;
  version: string;
  commitID: string;
  poolNumber: number;
  network: Record<string, string>;
  drives: DriveInfo[];
}

export interface AdminInfo {
  buckets: number;
  objects: number;
  usage: number;
  servers: ServerInfo[];
}

/** Grafana panel type of a widget, as the widget calls report it (api-index §3). */
export type WidgetKind = "stat" | "gauge" | "graph" | "bargauge";

/** How the browser draws a widget (spec 1 §3 widget config). */
export type PanelType = "singleValue" | "linearGraph" | "barChart" | "pieChart" | "singleRep";

/** How a panel shows numbers: sizes, rates, durations, counts, or a fraction of one CPU as a percentage. */
export type ValueFormat =
  | "bytes"
  | "bytesPerSecond"
  | "perSecond"
  | "seconds"
  | "nanoseconds"
  | "number"
  | "percent";

/** One entry of `widgets` in GET /api/v1/admin/info. */
export interface WidgetSummary {
  id: number;
  title: string;
  type: WidgetKind;
  options: { reduceOptions: { calcs: string[] } };
}

/** Where the widgets' numbers come from, stated on the page. */
export interface MetricsSourceInfo {
  kind: "prometheus" | "history";
  /** One sentence for the page, e.g. "Prometheus at http://prom:9090 (job minio-job)". */
  description: string;
}

/** GET /api/v1/admin/info with a metrics source: the basic fields plus the widget list. */
export interface AdminInfoWithWidgets extends AdminInfo {
  widgets?: WidgetSummary[];
  metricsSource?: MetricsSourceInfo;
}

export interface WidgetResultSeries {
  metric: Record<string, string>;
  /** `[epoch seconds, "value"]` pairs, as Prometheus' query_range returns them. */
  values: [number, string][];
}

export interface WidgetTarget {
  legendFormat: string;
  resultType: "matrix";
  result: WidgetResultSeries[];
}

/** GET /api/v1/admin/info/widgets/{id}/ */
export interface WidgetDetails extends WidgetSummary {
  targets: WidgetTarget[];
}

/** A panel of the widget dashboard (spec 1 §3): which widget, how it is drawn, its grid slot. */
export interface PanelConfig {
  id: number;
  title: string;
  type: PanelType;
  /** `panel-N`, the key of its saved layout item. */
  layoutIdentifier: string;
  format: ValueFormat;
}

/** One item of the saved grid layout (spec 1 §3), in grid units: 8 columns, rows of ROW_HEIGHT px. */
export interface LayoutItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW: number;
  moved: boolean;
  static: boolean;
}

export const GRID_COLUMNS = 8;
export const GRID_MAX_WIDTH = 1920;
/** A sixth of the 480 px panel height the spec's floor/cap rule always lands on (spec 1 §9). */
export const ROW_HEIGHT = 80;

/** Widget ids per tab, in the spec's order (spec 1 §9). */
export const DASHBOARD_TABS: { name: "Summary" | "Traffic" | "Resources"; ids: number[] }[] = [
  { name: "Summary", ids: [1, 64, 65, 68, 52, 44, 61, 80, 81, 66, 62, 53, 63, 50, 69, 70, 9, 78] },
  { name: "Traffic", ids: [60, 71, 17, 73] },
  { name: "Resources", ids: [76, 77, 11, 8, 82, 74] },
];

/** The 28 panels: title (the key widgets are matched by, case-insensitively), drawing and format. */
export const PANELS: PanelConfig[] = [
  { id: 1, title: "Uptime", type: "singleValue", layoutIdentifier: "panel-0", format: "seconds" },
  {
    id: 65,
    title: "Total S3 Traffic Inbound",
    type: "singleValue",
    layoutIdentifier: "panel-1",
    format: "bytes",
  },
  {
    id: 64,
    title: "Total S3 Traffic Outbound",
    type: "singleValue",
    layoutIdentifier: "panel-2",
    format: "bytes",
  },
  {
    id: 53,
    title: "Total Online Servers",
    type: "singleValue",
    layoutIdentifier: "panel-3",
    format: "number",
  },
  {
    id: 69,
    title: "Total Offline Servers",
    type: "singleValue",
    layoutIdentifier: "panel-4",
    format: "number",
  },
  { id: 9, title: "Total Online Drives", type: "singleValue", layoutIdentifier: "panel-5", format: "number" },
  {
    id: 78,
    title: "Total Offline Drives",
    type: "singleValue",
    layoutIdentifier: "panel-6",
    format: "number",
  },
  {
    id: 80,
    title: "Time Since Last Heal Activity",
    type: "singleValue",
    layoutIdentifier: "panel-7",
    format: "nanoseconds",
  },
  {
    id: 81,
    title: "Time Since Last Scan Activity",
    type: "singleValue",
    layoutIdentifier: "panel-8",
    format: "nanoseconds",
  },
  { id: 66, title: "Number of Buckets", type: "singleRep", layoutIdentifier: "panel-9", format: "number" },
  { id: 44, title: "Number of Objects", type: "singleRep", layoutIdentifier: "panel-10", format: "number" },
  { id: 61, title: "Total Open FDs", type: "singleRep", layoutIdentifier: "panel-11", format: "number" },
  { id: 62, title: "Total Goroutines", type: "singleRep", layoutIdentifier: "panel-12", format: "number" },
  {
    id: 50,
    title: "Current Usable Capacity",
    type: "pieChart",
    layoutIdentifier: "panel-13",
    format: "bytes",
  },
  {
    id: 52,
    title: "Object size distribution",
    type: "barChart",
    layoutIdentifier: "panel-14",
    format: "number",
  },
  { id: 68, title: "Data Usage Growth", type: "linearGraph", layoutIdentifier: "panel-15", format: "bytes" },
  {
    id: 63,
    title: "S3 API Data Received Rate",
    type: "linearGraph",
    layoutIdentifier: "panel-16",
    format: "bytesPerSecond",
  },
  {
    id: 70,
    title: "S3 API Data Sent Rate",
    type: "linearGraph",
    layoutIdentifier: "panel-17",
    format: "bytesPerSecond",
  },
  {
    id: 60,
    title: "S3 API Request Rate",
    type: "linearGraph",
    layoutIdentifier: "panel-18",
    format: "perSecond",
  },
  {
    id: 71,
    title: "S3 API Request Error Rate",
    type: "linearGraph",
    layoutIdentifier: "panel-19",
    format: "perSecond",
  },
  {
    id: 17,
    title: "Internode Data Transfer",
    type: "linearGraph",
    layoutIdentifier: "panel-20",
    format: "bytesPerSecond",
  },
  { id: 73, title: "Node IO", type: "linearGraph", layoutIdentifier: "panel-21", format: "bytesPerSecond" },
  { id: 76, title: "Node Memory Usage", type: "linearGraph", layoutIdentifier: "panel-22", format: "bytes" },
  { id: 77, title: "Node CPU Usage", type: "linearGraph", layoutIdentifier: "panel-23", format: "percent" },
  { id: 11, title: "Node Syscalls", type: "linearGraph", layoutIdentifier: "panel-24", format: "perSecond" },
  {
    id: 8,
    title: "Node File Descriptors",
    type: "linearGraph",
    layoutIdentifier: "panel-25",
    format: "number",
  },
  {
    id: 82,
    title: "Drives Free Inodes",
    type: "linearGraph",
    layoutIdentifier: "panel-26",
    format: "number",
  },
  {
    id: 74,
    title: "Drive Used Capacity",
    type: "linearGraph",
    layoutIdentifier: "panel-27",
    format: "bytes",
  },
];

const item = (n: number, x: number, y: number, w: number, h: number, minW = 1): LayoutItem => ({
  i: `panel-${n}`,
  x,
  y,
  w,
  h,
  minW,
  moved: false,
  static: false,
});

/**
 * The default grid, one item per panel. Each tab draws only its own panels, so positions are per tab.
 * Summary: two rows of single values, the counters with their trends, capacity and sizes, then the graphs.
 */
export const DEFAULT_LAYOUT: LayoutItem[] = [
  // Summary: single values (uptime, traffic in/out, servers and drives online/offline, heal, scan)
  item(0, 0, 0, 2, 1),
  item(1, 2, 0, 2, 1),
  item(2, 4, 0, 2, 1),
  item(3, 6, 0, 1, 1),
  item(4, 7, 0, 1, 1),
  item(5, 0, 1, 1, 1),
  item(6, 1, 1, 1, 1),
  item(7, 2, 1, 3, 1),
  item(8, 5, 1, 3, 1),
  // Summary: counters with trend, capacity, size distribution
  item(9, 0, 2, 2, 2),
  item(10, 2, 2, 2, 2),
  item(11, 4, 2, 2, 2),
  item(12, 6, 2, 2, 2),
  item(13, 0, 4, 3, 3, 2),
  item(14, 3, 4, 5, 3, 2),
  // Summary: graphs (data usage, received, sent)
  item(15, 0, 10, 8, 3, 2),
  item(16, 0, 7, 4, 3, 2),
  item(17, 4, 7, 4, 3, 2),
  // Traffic
  item(18, 0, 0, 4, 3, 2),
  item(19, 4, 0, 4, 3, 2),
  item(20, 0, 3, 8, 3, 2),
  item(21, 0, 6, 8, 3, 2),
  // Resources
  item(22, 0, 0, 4, 3, 2),
  item(23, 4, 0, 4, 3, 2),
  item(24, 0, 3, 4, 3, 2),
  item(25, 4, 3, 4, 3, 2),
  item(26, 0, 6, 4, 3, 2),
  item(27, 4, 6, 4, 3, 2),
];

/** Spec 1 §9: the chart palette, nine colours readable on light and dark backgrounds. */
export const CHART_PALETTE = [
  "#4F86C6",
  "#E0A526",
  "#2FB67C",
  "#EF6461",
  "#1F9ED1",
  "#B07CC6",
  "#7CC8A4",
  "#E88B5A",
  "#8FA7C0",
];

/** Spec 1 §9: show every Nth time label, by panel width in px. */
export function timeLabelSpacing(panelWidth: number): number {
  if (panelWidth > 400) return 5;
  if (panelWidth > 350) return 10;
  if (panelWidth > 300) return 15;
  if (panelWidth > 250) return 20;
  return 30;
}

/** Spec 1 §7: step is the range in whole minutes, or 15 when the range is under a minute or absent. */
export function widgetStep(start: number | null, end: number | null): number {
  if (start === null || end === null) return 15;
  const minutes = Math.floor((end - start) / 60);
  return minutes < 1 ? 15 : minutes;
}

/** Object-size ranges with their display names (spec 1 §9), both spellings MinIO releases used. */
export const SIZE_RANGE_LABELS: { tags: string[]; label: string }[] = [
  { tags: ["LESS_THAN_1024_B"], label: "Less than 1024B" },
  { tags: ["BETWEEN_1024_B_AND_1_MB", "BETWEEN_1024B_AND_1_MB"], label: "1024B-1MB" },
  { tags: ["BETWEEN_1_MB_AND_10_MB"], label: "1-10MB" },
  { tags: ["BETWEEN_10_MB_AND_64_MB"], label: "10-64MB" },
  { tags: ["BETWEEN_64_MB_AND_128_MB"], label: "64-128MB" },
  { tags: ["BETWEEN_128_MB_AND_512_MB"], label: "128-512MB" },
  { tags: ["GREATER_THAN_512_MB"], label: "Greater than 512MB" },
];

/** Spec 1 §8, shown inside a panel whose data could not be loaded. */
export const WIDGET_ERROR_MESSAGE =
  "Widget information could not be retrieved at this time. Please try again";

/** `[epoch seconds, value]` points of one trend line. */
export type TrendPoint = [number, number];

/** The basic dashboard's sparklines, from the same source as the widgets. */
export interface DashboardTrends {
  /** The span the lines cover, in seconds. */
  windowSeconds: number;
  /** S3 requests per second. */
  requests: TrendPoint[];
  /** S3 bytes received plus sent, per second. */
  traffic: TrendPoint[];
  /** Bytes stored. */
  usage: TrendPoint[];
}
