/**
 * frappe-charts, loaded only in the browser and only when a chart panel is shown: the library touches
 * `document` when it is imported, so it is imported inside an effect (never during server rendering), once,
 * into its own chunk. Charts are redrawn when their data or size changes and destroyed on unmount.
 */
import { useEffect, useRef } from "react";
import { CHART_PALETTE } from "../../server/lib/contract/dashboard.ts";
import { formatDateTime, formatTimeOfDay } from "../lib/format.ts";
import { t } from "../lib/i18n/t.ts";

interface FrappeChart {
  destroy?: () => void;
  unbindWindowEvents?: () => void;
}
type FrappeModule = { Chart: new (parent: HTMLElement, options: Record<string, unknown>) => FrappeChart };

let loading: Promise<FrappeModule> | null = null;
// The ES module build: the package's "browser" entry is a UMD bundle without named exports.
const loadFrappe =
  () => (loading ??= import("frappe-charts/dist/frappe-charts.min.esm.js") as unknown as Promise<
    FrappeModule
  >);

/**
 * frappe writes y-axis labels of fractional intervals with binary floating-point noise (0.07500000000000001,
 * clipped to "0000001") and knows no units: whenever it (re)draws, each bare number is rewritten with three
 * significant digits and the axis' unit (values arrive already scaled to it, panel_data.ts axisScale).
 */
function tidyAxisLabels(root: HTMLElement, suffix: string): void {
  for (const text of root.querySelectorAll<SVGTextElement>(".y.axis text")) {
    const raw = text.textContent ?? "";
    if (!/^-?\d+(\.\d+)?$/.test(raw)) continue;
    const tidy = `${Number(Number(raw).toPrecision(3))}${suffix}`;
    if (tidy !== raw) text.textContent = tidy;
  }
}

/** Draws one frappe chart; `options` without `height`, which the panel decides. */
function Chart(
  { options, height, testId, axisSuffix = "" }: {
    options: Record<string, unknown>;
    height: number;
    testId: string;
    axisSuffix?: string;
  },
) {
  const ref = useRef<HTMLDivElement>(null);
  const key = JSON.stringify(options);
  useEffect(() => {
    let chart: FrappeChart | null = null;
    let cancelled = false;
    const element = ref.current;
    const labels = new MutationObserver(() => element && tidyAxisLabels(element, axisSuffix));
    loadFrappe().then(({ Chart }) => {
      if (cancelled || !element) return;
      element.replaceChildren();
      chart = new Chart(element, { ...options, height, animate: false, truncateLegends: true });
      tidyAxisLabels(element, axisSuffix);
      labels.observe(element, { childList: true, subtree: true });
    }).catch((error) => console.warn("charts could not load", error));
    return () => {
      cancelled = true;
      labels.disconnect();
      chart?.unbindWindowEvents?.();
      chart?.destroy?.();
      ref.current?.replaceChildren();
    };
  }, [key, height, axisSuffix]);
  return <div ref={ref} className="deck-chart" data-testid={testId} />;
}

/** `14:05`, or `03-07 14:05` over a range longer than a day: the console's date format, cut short. */
const timeLabel = (seconds: number, long: boolean) =>
  long ? formatDateTime(seconds * 1000, "dayAndTime") : formatTimeOfDay(seconds * 1000);

export interface LineChartProps {
  times: number[];
  series: { name: string; values: number[] }[];
  height: number;
  /** Show a time label on every Nth point (spec 1 §9 spacing rule). */
  labelEvery: number;
  format: (value: number) => string;
  /** What each value-axis label ends in (" GiB", "k/s"); the values are in that unit. */
  axisSuffix: string;
}

/**
 * frappe gives the tooltip only the axis label, and a hidden label must still name its point: it is the
 * point's index written in zero-width characters, invisible on the axis, decoded for the tooltip.
 */
const hiddenLabel = (i: number) => "\u2060" + i.toString(2).replace(/0/g, "\u200b").replace(/1/g, "\u200c");
const indexOfHidden = (label: string) =>
  label.startsWith("\u2060")
    ? parseInt(label.slice(1).replace(/\u200b/g, "0").replace(/\u200c/g, "1"), 2)
    : -1;

/** frappe's y axis breaks (NaN paths) on values below 0.01: two decimals are all a chart line can show anyway. */
const plottable = (v: number) => Math.round(v * 100) / 100;

export function LineChart({ times, series, height, labelEvery, format, axisSuffix }: LineChartProps) {
  const long = times.length > 1 && times[times.length - 1] - times[0] > 86_400;
  const labels = times.map((t, i) => (i % labelEvery === 0 ? timeLabel(t, long) : hiddenLabel(i)));
  const options = {
    type: "line",
    data: { labels, datasets: series.map((s) => ({ name: s.name, values: s.values.map(plottable) })) },
    colors: series.map((_, i) => CHART_PALETTE[i % CHART_PALETTE.length]),
    axisOptions: { xIsSeries: true, xAxisMode: "tick", yAxisMode: "span" },
    lineOptions: { hideDots: 1, regionFill: 1 },
    tooltipOptions: {
      formatTooltipY: (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? format(v) : ""),
      formatTooltipX: (label: string) => {
        const i = indexOfHidden(label);
        return i >= 0 && times[i] !== undefined ? timeLabel(times[i], long) : label;
      },
    },
  };
  return <Chart options={options} height={height} testId="line-chart" axisSuffix={axisSuffix} />;
}

export function BarChart({ bars, height, axisSuffix, format }: {
  bars: { label: string; value: number }[];
  height: number;
  axisSuffix: string;
  /** A bar's value (in the axis' unit) as its tooltip says it. */
  format: (value: number) => string;
}) {
  const options = {
    type: "bar",
    data: {
      labels: bars.map((b) => b.label),
      datasets: [{ name: t("monitoring.dashboard.objectsSeries"), values: bars.map((b) => b.value) }],
    },
    colors: [CHART_PALETTE[0]],
    barOptions: { spaceRatio: 0.4 },
    axisOptions: { xAxisMode: "tick" },
    tooltipOptions: { formatTooltipY: (v: unknown) => (typeof v === "number" ? format(v) : "") },
  };
  return <Chart options={options} height={height} testId="bar-chart" axisSuffix={axisSuffix} />;
}

export function PieChart({ slices, height }: { slices: { label: string; value: number }[]; height: number }) {
  const options = {
    type: "donut",
    data: { labels: slices.map((s) => s.label), datasets: [{ values: slices.map((s) => s.value) }] },
    colors: slices.map((_, i) => CHART_PALETTE[i % CHART_PALETTE.length]),
    maxSlices: slices.length,
  };
  return <Chart options={options} height={height} testId="pie-chart" />;
}
