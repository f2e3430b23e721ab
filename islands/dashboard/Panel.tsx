/**
 * One widget panel: loads its widget when it appears and again on every Sync, and draws it by type
 * (singleValue, linearGraph, barChart, pieChart, singleRep). A panel that cannot get its data says so
 * with the spec's message, inside the panel; the others carry on.
 */
import { useEffect, useRef, useState } from "react";
import {
  CHART_PALETTE,
  type PanelConfig,
  timeLabelSpacing,
  type WidgetDetails,
} from "../../server/lib/contract/dashboard.ts";
import { dashboardApi, type WidgetQuery } from "../lib/api/dashboard.ts";
import { Sparkline } from "../ui/Sparkline.tsx";
import { type MessageKey, t } from "../lib/i18n/t.ts";
import { BarChart, LineChart, PieChart } from "./charts.tsx";
import type { DragHandle } from "./Grid.tsx";
import {
  axisScale,
  capacitySplit,
  decimal,
  formatValue,
  lineData,
  sizeBars,
  statValue,
  trendOf,
} from "./panel_data.ts";

/** A panel's title in the page's language (its English title is what widgets are matched by). */
export const panelTitle = (panel: PanelConfig) => t(`monitoring.panel.p${panel.id}` as MessageKey);

export interface PanelProps {
  panel: PanelConfig;
  /** The widget id the server listed under this panel's title, or null when it has none. */
  widgetId: number | null;
  query: WidgetQuery;
  /** Changes on every Sync: the panel loads again. */
  syncKey: number;
  handle: DragHandle;
}

/** How often and how long a line still missing samples asks again (about two minutes in all). */
const SAMPLE_RETRY_MS = 4000;
const SAMPLE_RETRIES = 30;

type State = { status: "loading" } | { status: "error" } | { status: "ready"; details: WidgetDetails };

/** Width and height of an element, followed as it changes (the grid and the window resize panels). */
function useSize() {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) =>
      setSize({ width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) })
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, ...size };
}

function Body(
  { panel, details, width, height }: {
    panel: PanelConfig;
    details: WidgetDetails;
    width: number;
    height: number;
  },
) {
  const format = (v: number) => formatValue(v, panel.format);
  switch (panel.type) {
    case "singleValue":
      return (
        <div className="text-xl font-bold truncate" data-testid="panel-value">
          {formatValue(statValue(details), panel.format)}
        </div>
      );
    case "singleRep": {
      const { value, trend } = trendOf(details);
      return (
        <div className="flex flex-col h-full justify-between">
          <div className="text-2xl font-bold" data-testid="panel-value">
            {formatValue(value, panel.format)}
          </div>
          <Sparkline
            values={trend}
            color={CHART_PALETTE[0]}
            label={t("monitoring.dashboard.overRange", { title: panelTitle(panel) })}
            height={Math.max(24, height - 40)}
          />
        </div>
      );
    }
    case "linearGraph": {
      const data = lineData(details);
      if (data.series.length === 0) {
        return (
          <p className="text-sm opacity-70" data-testid="panel-empty">{t("monitoring.dashboard.noData")}</p>
        );
      }
      if (data.times.length === 1) {
        const only = data.series.map((s) => `${s.name}: ${format(s.values[0])}`).join(", ");
        return (
          <p className="text-sm opacity-70" data-testid="panel-empty">
            {t("monitoring.dashboard.oneSample", { values: only })}
          </p>
        );
      }
      // A fraction of a CPU is drawn in percent, so the axis reads 0-100 rather than 0-1; every other
      // axis is drawn in the unit that fits its largest value, which each label names.
      const percent = panel.format === "percent";
      const shown = percent ? 100 : 1;
      const scale = axisScale(Math.max(0, ...data.series.flatMap((s) => s.values)) * shown, panel.format);
      const series = data.series.map((s) => ({
        ...s,
        values: s.values.map((v) => (v * shown) / scale.factor),
      }));
      const tooltip = percent
        ? (v: number) => `${decimal(v * scale.factor, 1)}%`
        : (v: number) => format(v * scale.factor);
      return (
        <LineChart
          times={data.times}
          series={series}
          height={height}
          labelEvery={timeLabelSpacing(width)}
          format={tooltip}
          axisSuffix={scale.suffix}
        />
      );
    }
    case "barChart": {
      const bars = sizeBars(details);
      const scale = axisScale(Math.max(0, ...bars.map((b) => b.value)), "number");
      return (
        <BarChart
          bars={bars.map((b) => ({ ...b, value: b.value / scale.factor }))}
          height={height}
          axisSuffix={scale.suffix}
          format={(v) => formatValue(v * scale.factor, "number")}
        />
      );
    }
    case "pieChart": {
      const split = capacitySplit(details);
      if (!split) {
        return (
          <div className="text-2xl font-bold" data-testid="panel-value">
            {t("monitoring.dashboard.notAvailable")}
          </div>
        );
      }
      const slices = [
        { label: t("monitoring.dashboard.sliceUsed"), value: split.used },
        { label: t("monitoring.dashboard.sliceFree"), value: split.free },
      ];
      // Beside the donut when there is room, under it otherwise.
      const stacked = width < 320;
      return (
        <div className={`flex h-full items-center gap-3 ${stacked ? "flex-col" : ""}`}>
          <div className="flex-1 min-w-0 w-full deck-pie">
            <PieChart slices={slices} height={stacked ? Math.max(80, height - 64) : height} />
          </div>
          {/* A <dl> holds only dt/dd groups (axe-core's definition-list rule): the colour dot sits in the dt, the total after the list. */}
          <div className="text-xs leading-snug shrink-0" data-testid="panel-value">
            <dl>
              {slices.map((s, i) => (
                <div key={s.label} className="flex items-center gap-1">
                  <dt className="flex items-center gap-1">
                    <span
                      className="inline-block w-2 h-2 rounded-full"
                      style={{ background: CHART_PALETTE[i] }}
                      aria-hidden="true"
                    />
                    {s.label}
                  </dt>
                  <dd className="font-bold">{formatValue(s.value, "bytes")}</dd>
                </div>
              ))}
            </dl>
            <div className="opacity-70">
              {t("monitoring.dashboard.ofTotal", { total: formatValue(split.total, "bytes") })}
            </div>
          </div>
        </div>
      );
    }
  }
}

export function Panel({ panel, widgetId, query, syncKey, handle }: PanelProps) {
  const [state, setState] = useState<State>({ status: "loading" });
  const [retry, setRetry] = useState(0);
  const body = useSize();
  useEffect(() => setRetry(0), [widgetId, syncKey]);
  useEffect(() => {
    if (widgetId === null) return setState({ status: "error" });
    let current = true;
    // A quiet retry keeps what is drawn until the new answer arrives (no flash of the spinner).
    if (retry === 0) setState({ status: "loading" });
    dashboardApi.widget(widgetId, query)
      .then((details) => current && setState({ status: "ready", details }))
      .catch(() => current && setState({ status: "error" }));
    return () => void (current = false);
  }, [widgetId, syncKey, retry]);
  // Right after start-up a line has no or one sample: the panel says the line comes with the next sample,
  // so it asks again until there are two rather than waiting for the next Sync.
  const waitingForSamples = state.status === "ready" && panel.type === "linearGraph" &&
    lineData(state.details).times.length < 2;
  useEffect(() => {
    if (!waitingForSamples || retry >= SAMPLE_RETRIES) return;
    const timer = setTimeout(() => setRetry((n) => n + 1), SAMPLE_RETRY_MS);
    return () => clearTimeout(timer);
  }, [waitingForSamples, retry]);
  const titleId = `${panel.layoutIdentifier}-title`;
  return (
    <section
      className="card bg-base-100 shadow-sm h-full overflow-hidden"
      aria-labelledby={titleId}
      data-testid="widget-panel"
      data-widget={panel.id}
      data-status={state.status}
    >
      <div className="card-body p-3 gap-1 h-full min-h-0">
        <h3
          id={titleId}
          className="text-xs font-bold uppercase tracking-wide opacity-80 line-clamp-2 break-words cursor-move focus:outline-2 focus:outline-primary"
          tabIndex={0}
          title={t("monitoring.dashboard.panelHandle", { title: panelTitle(panel) })}
          onPointerDown={handle.onPointerDown}
          onKeyDown={handle.onKeyDown}
        >
          {panelTitle(panel)}
        </h3>
        <div ref={body.ref} className="flex-1 min-h-0">
          {state.status === "loading"
            ? (
              <span
                role="status"
                className="loading loading-dots loading-sm opacity-60"
                aria-label={t("monitoring.dashboard.loading")}
              />
            )
            : null}
          {state.status === "error"
            ? (
              <p role="alert" className="text-sm text-error" data-testid="panel-error">
                {t("monitoring.dashboard.widgetError")}
              </p>
            )
            : null}
          {state.status === "ready" && body.width > 0
            ? <Body panel={panel} details={state.details} width={body.width} height={body.height} />
            : null}
        </div>
      </div>
    </section>
  );
}
