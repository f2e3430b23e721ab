/**
 * Turns a widget's series (GET /admin/info/widgets/{id}) into what each panel type draws: one reduced number
 * (Grafana's mean / last / lastNotNull), time-aligned line series with their legends, the size-range bars,
 * the capacity split, or a number with its trend. Pure functions, shared by the island and its tests.
 */
import { formatBytes, formatDuration, formatNumber } from "../lib/format.ts";
import { currentLocale, type MessageKey, t } from "../lib/i18n/t.ts";
import {
  SIZE_RANGE_LABELS,
  type ValueFormat,
  type WidgetDetails,
  type WidgetResultSeries,
} from "../../server/lib/contract/dashboard.ts";

/** Reduces one series to a number by the widget's calc; null when it has no values. */
export function reduceValues(values: [number, string][], calc: string | undefined): number | null {
  const numbers = [...values].sort((a, b) => a[0] - b[0]).map(([, v]) => Number(v));
  if (numbers.length === 0) return null;
  if (calc === "mean") return numbers.reduce((a, b) => a + b, 0) / numbers.length;
  if (calc === "lastNotNull") {
    for (let i = numbers.length - 1; i >= 0; i--) if (Number.isFinite(numbers[i])) return numbers[i];
    return null;
  }
  return numbers[numbers.length - 1];
}

/** The stat value of a widget: its first target's first series, reduced. */
export function statValue(details: WidgetDetails): number | null {
  const series = details.targets[0]?.result[0];
  return series ? reduceValues(series.values, details.options.reduceOptions.calcs[0]) : null;
}

/**
 * The series names MinIO's widgets define (server/console/metrics/widgets.ts), in the page's language: the
 * widget API keeps MinIO's English legend formats, as its clients expect.
 */
const LEGENDS: Record<string, MessageKey> = {
  "Total online drives in MinIO Cluster": "monitoring.legend.totalOnlineDrives",
  "Total Usable": "monitoring.legend.totalUsable",
  "Usable Free": "monitoring.legend.usableFree",
  "Used Space": "monitoring.legend.usedSpace",
  "Used Capacity": "monitoring.legend.usedCapacity",
  "Data Received [{{server}}]": "monitoring.legend.dataReceived",
  "Data Sent [{{server}}]": "monitoring.legend.dataSent",
  "Internode Bytes Sent [{{server}}]": "monitoring.legend.internodeSent",
  "Internode Bytes Received [{{server}}]": "monitoring.legend.internodeReceived",
  "Node RChar [{{server}}]": "monitoring.legend.nodeRChar",
  "Node WChar [{{server}}]": "monitoring.legend.nodeWChar",
  "Memory Used [{{server}}]": "monitoring.legend.memoryUsed",
  "CPU Usage Rate [{{server}}]": "monitoring.legend.cpuUsageRate",
  "Read Syscalls [{{server}}]": "monitoring.legend.readSyscalls",
  "Write Syscalls [{{server}}]": "monitoring.legend.writeSyscalls",
  "Open FDs [{{server}}]": "monitoring.legend.openFds",
};

/**
 * Fills `{{label}}` from the series' labels, in a known format's translation; unknown labels become empty
 * (Grafana's legend format).
 */
export function legendLabel(metric: Record<string, string>, legendFormat: string): string {
  if (!legendFormat) {
    return Object.entries(metric).filter(([k]) => k !== "__name__").map(([k, v]) => `${k}="${v}"`).join(
      ", ",
    ) || metric.__name__ || "value";
  }
  const shown = LEGENDS[legendFormat] ? t(LEGENDS[legendFormat]) : legendFormat;
  return shown.replace(/\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g, (_, name) => metric[name] ?? "")
    .trim();
}

export interface LineData {
  /** Epoch seconds of every point, ascending. */
  times: number[];
  series: { name: string; values: number[] }[];
}

/**
 * Every target's series on one time axis, sorted by legend. A series missing a point repeats its previous
 * value (its first value before it starts), so no false drops to zero are drawn.
 */
export function lineData(details: WidgetDetails): LineData {
  const timeSet = new Set<number>();
  const raw: { name: string; points: Map<number, number> }[] = [];
  for (const target of details.targets) {
    for (const series of target.result as WidgetResultSeries[]) {
      const points = new Map(series.values.map(([t, v]) => [t, Number(v)] as [number, number]));
      points.forEach((_, t) => timeSet.add(t));
      raw.push({ name: legendLabel(series.metric, target.legendFormat), points });
    }
  }
  const times = [...timeSet].sort((a, b) => a - b);
  raw.sort((a, b) => a.name.localeCompare(b.name));
  const series = raw.map(({ name, points }) => {
    const first = times.map((t) => points.get(t)).find((v) => v !== undefined) ?? 0;
    let last = first;
    return { name, values: times.map((t) => (last = points.get(t) ?? last)) };
  });
  return { times, series };
}

/** A size range's name in the page's language: the ranges written as numbers read alike in every language. */
function sizeLabel(label: string): string {
  if (label === "Less than 1024B") return t("monitoring.dashboard.sizeBelow1KiB");
  if (label === "Greater than 512MB") return t("monitoring.dashboard.sizeAbove512MiB");
  return label;
}

/** Object counts per size range, in the spec's order with its names. */
export function sizeBars(details: WidgetDetails): { label: string; value: number }[] {
  const result = details.targets[0]?.result ?? [];
  return SIZE_RANGE_LABELS.map(({ tags, label }) => {
    const series = result.find((r) => tags.includes(r.metric.range));
    return {
      label: sizeLabel(label),
      value: Math.round(series ? reduceValues(series.values, "last") ?? 0 : 0),
    };
  });
}

/** Usable capacity split into used and free (targets: total, free, used). */
export function capacitySplit(details: WidgetDetails): { total: number; free: number; used: number } | null {
  const [total, free] = details.targets.map((
    t,
  ) => (t.result[0] ? reduceValues(t.result[0].values, "lastNotNull") : null));
  if (total === null || total === undefined || free === null || free === undefined) return null;
  return { total, free, used: Math.max(0, total - free) };
}

/** A stat's value and its points for the trend line (a lone point is drawn level). */
export function trendOf(details: WidgetDetails): { value: number | null; trend: number[] } {
  const values = [...(details.targets[0]?.result[0]?.values ?? [])].sort((a, b) => a[0] - b[0]).map(([, v]) =>
    Number(v)
  );
  return { value: statValue(details), trend: values.length === 1 ? [values[0], values[0]] : values };
}

/** How a chart's value axis reads: values are divided by `factor` and each label ends in `suffix`. */
export interface AxisScale {
  factor: number;
  suffix: string;
}

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
const COUNT_UNITS = ["", "k", "M", "G", "T", "P"];

/** The largest step of `base` (1024 or 1000) not above `max`, as its index. */
function stepIndex(max: number, base: number, count: number): number {
  let i = 0;
  while (i < count - 1 && max >= base ** (i + 1)) i++;
  return i;
}

/**
 * The unit a chart's axis is drawn in, chosen by the largest value shown: a 30 GB drive's axis reads
 * "20 GiB … 40 GiB", not frappe's shortened "20 B" (for billions). Percent values arrive already × 100.
 */
export function axisScale(max: number, format: ValueFormat): AxisScale {
  const m = Math.abs(max);
  switch (format) {
    case "bytes":
    case "bytesPerSecond": {
      const i = stepIndex(m, 1024, BYTE_UNITS.length);
      return { factor: 1024 ** i, suffix: ` ${BYTE_UNITS[i]}${format === "bytesPerSecond" ? "/s" : ""}` };
    }
    case "percent":
      return { factor: 1, suffix: "%" };
    case "seconds":
    case "nanoseconds": {
      const seconds = format === "seconds" ? 1 : 1e9;
      const units: [string, number][] = [["d", 86400], ["h", 3600], ["min", 60], ["s", 1], ["ms", 1e-3], [
        "µs",
        1e-6,
      ], ["ns", 1e-9]];
      const [unit, size] = units.find(([, size]) => m >= size * seconds) ?? units[units.length - 1];
      return { factor: size * seconds, suffix: ` ${unit}` };
    }
    default: {
      const i = stepIndex(m, 1000, COUNT_UNITS.length);
      return { factor: 1000 ** i, suffix: `${COUNT_UNITS[i]}${format === "perSecond" ? "/s" : ""}` };
    }
  }
}

/**
 * A number with `digits` decimals in the language's way (German 0,25); English as `toFixed` writes it, and
 * `trim` drops trailing zeros (0.5, not 0.50) as the panels always did.
 */
export function decimal(value: number, digits: number, trim = false): string {
  const locale = currentLocale();
  if (locale === "en") return trim ? Number(value.toFixed(digits)).toString() : value.toFixed(digits);
  return value.toLocaleString(locale, {
    minimumFractionDigits: trim ? 0 : digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  });
}

/** A number as its panel shows it. */
export function formatValue(value: number | null, format: ValueFormat): string {
  if (value === null || !Number.isFinite(value)) return t("monitoring.dashboard.notAvailable");
  switch (format) {
    case "bytes":
      return formatBytes(value);
    case "bytesPerSecond":
      return `${formatBytes(value)}/s`;
    case "perSecond":
      return `${value >= 10 ? formatNumber(value) : decimal(value, 2, true)}/s`;
    case "seconds":
      return formatDuration(value);
    case "nanoseconds":
      return formatDuration(value / 1e9);
    case "percent":
      return `${decimal(value * 100, 1)}%`;
    default:
      return formatNumber(value);
  }
}
