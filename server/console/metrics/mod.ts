/**
 * The dashboard's metrics: which source answers the widgets (an external Prometheus when
 * CONSOLE_PROMETHEUS_URL is set, else Deck's own sampler and on-box history), the widget list and details of
 * api-index §3, and the basic dashboard's trends. Built once in main.ts (and by tests), closed on shutdown.
 */
import type {
  DashboardTrends,
  MetricsSourceInfo,
  WidgetDetails,
  WidgetSummary,
} from "../../lib/contract/dashboard.ts";
import type { AppConfig } from "../config/config.ts";
import { ApiError } from "../http/errors.ts";
import type { Logger } from "../../lib/http/log.ts";
import { MetricsHistory } from "./history.ts";
import { createHistorySource } from "./history_source.ts";
import { createPrometheusSource } from "./prometheus.ts";
import { Sampler } from "./sampler.ts";
import { SourceError, type SourceState, type WidgetSource } from "./source.ts";
import { metricNamesUsed, widgetById, WIDGETS } from "./widgets.ts";
import { loadTrends, TREND_METRICS } from "./trends.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
// Installs the per-request language (English outside a request) for the texts below.
import "../render/i18n.ts";

export interface MetricsServiceOptions {
  config: AppConfig;
  /** Storage origin the sampler reads /minio/v2/metrics/* from ("" in operator mode: nothing to sample). */
  storageUrl: string;
  /** Bearer token for the storage's metrics endpoints (null: none). */
  storageToken: () => Promise<string | null>;
  fetch: typeof fetch;
  log: Logger;
  /** Where the history is saved; null keeps it in memory only (tests). */
  historyFile: string | null;
  /** Sampling interval of the on-box history (tests shorten it). */
  sampleIntervalMs?: number;
  now?: () => number;
}

export interface WidgetRange {
  start?: number;
  end?: number;
  step?: number;
}

export interface MetricsService {
  readonly source: WidgetSource;
  /** The history and its sampler when Deck samples itself (null with Prometheus). */
  readonly sampler: Sampler | null;
  readonly history: MetricsHistory | null;
  info(): MetricsSourceInfo;
  state(): SourceState;
  widgetList(): WidgetSummary[];
  widgetDetails(id: number, range: WidgetRange): Promise<WidgetDetails>;
  /** Request, traffic and usage trends for the basic dashboard; null when the source cannot answer. */
  trends(): Promise<DashboardTrends | null>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Prometheus refuses range queries with more points than this per series. */
const MAX_POINTS = 11_000;
const DEFAULT_WINDOW_SECONDS = 15 * 60;
const TRENDS_TIMEOUT_MS = 1_500;

/** Validates start/end/step query strings (epoch seconds, step in seconds); throws 400 with what is wrong. */
export function parseWidgetRange(query: Record<string, string | undefined>): WidgetRange {
  const read = (name: string, min: number): number | undefined => {
    const text = query[name];
    if (text === undefined || text === "") return undefined;
    const value = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value) || value < min) {
      throw ApiError.badRequest(`invalid ${name}`, `${name} must be a number of seconds, got "${text}"`);
    }
    return value;
  };
  const range = { start: read("start", 0), end: read("end", 0), step: read("step", 1) };
  if (range.start !== undefined && range.end !== undefined && range.end < range.start) {
    throw ApiError.badRequest("invalid time range", "the end time is before the start time");
  }
  return range;
}

function summary(widget: (typeof WIDGETS)[number]): WidgetSummary {
  return {
    id: widget.id,
    title: widget.title,
    type: widget.type,
    options: { reduceOptions: { calcs: widget.calc ? [widget.calc] : [] } },
  };
}

export function createMetricsService(options: MetricsServiceOptions): MetricsService {
  const now = options.now ?? Date.now;
  const prometheus = options.config.prometheus;
  let sampler: Sampler | null = null;
  let history: MetricsHistory | null = null;
  let source: WidgetSource;
  if (prometheus) {
    source = createPrometheusSource({ ...prometheus, fetch: options.fetch, now });
  } else if (!options.storageUrl) {
    // Operator mode manages tenants, not one storage server: there is nothing of its own to sample.
    source = {
      kind: "history",
      get description() {
        return t("monitoring.source.none");
      },
      state: () => ({
        ok: false,
        problem: t("monitoring.source.noneProblem"),
      }),
      queryRange: () =>
        Promise.reject(new SourceError("No metrics source", "this console has no storage server of its own")),
    };
  } else {
    history = new MetricsHistory({
      fineResolution: Math.max(1, Math.round((options.sampleIntervalMs ?? 15_000) / 1000)),
    });
    sampler = new Sampler({
      storageUrl: options.storageUrl,
      token: options.storageToken,
      fetch: options.fetch,
      history,
      jobId: options.config.prometheusJobId,
      keep: metricNamesUsed(TREND_METRICS),
      log: options.log,
      intervalMs: options.sampleIntervalMs,
      now,
      historyFile: options.historyFile,
    });
    source = createHistorySource({
      history,
      sampler,
      jobId: options.config.prometheusJobId,
      storageUrl: options.storageUrl,
      now,
    });
  }

  /** Seconds of on-box history held (null with Prometheus, 0 before the first sample). */
  const historyAge = (): number | null => {
    if (!history) return null;
    const oldest = Math.min(history.fine.oldestTime, history.coarse.oldestTime);
    return Number.isFinite(oldest) ? now() / 1000 - oldest : 0;
  };

  return {
    source,
    sampler,
    history,
    info: () => ({ kind: source.kind, description: source.description }),
    state: () => source.state(),
    widgetList: () => WIDGETS.map(summary),
    async widgetDetails(id, range) {
      const widget = widgetById(id);
      if (!widget) throw ApiError.notFound("widget not found", `no widget with id ${id}`);
      const end = range.end ?? Math.floor(now() / 1000);
      let start = range.start ?? end - DEFAULT_WINDOW_SECONDS;
      if (end < start) {
        throw ApiError.badRequest("invalid time range", "the end time is before the start time");
      }
      // No range chosen and a history younger than the default window (Deck just started): show the history
      // there is, at a step that gives it several points, instead of one point at the right edge.
      let defaultStep: number | undefined;
      const age = historyAge();
      if (
        range.start === undefined && range.end === undefined && age !== null && age > 0 && age < end - start
      ) {
        start = Math.max(start, Math.floor(end - age));
        defaultStep = Math.max(1, Math.ceil((end - start) / 30));
      }
      try {
        const targets = await Promise.all(widget.targets.map(async (target) => {
          const step = defaultStep !== undefined
            ? Math.min(defaultStep, range.step ?? defaultStep)
            : range.step ?? target.step ?? 60;
          if ((end - start) / step > MAX_POINTS) {
            throw ApiError.badRequest(
              "invalid step",
              `the range needs more than ${MAX_POINTS} points per series at a step of ${step} s; use a larger step`,
            );
          }
          // Steps count back from the end, so the newest point is "now" (or the chosen end) rather than up
          // to a step earlier: right after start-up that is the only moment with data.
          const alignedStart = end - Math.floor((end - start) / step) * step;
          const result = await source.queryRange(target.expr, alignedStart, end, step);
          return { legendFormat: target.legendFormat, resultType: "matrix" as const, result };
        }));
        return { ...summary(widget), targets };
      } catch (error) {
        if (error instanceof SourceError) throw new ApiError(502, error.message, { detail: error.detail });
        throw error;
      }
    },
    async trends() {
      // The page waits at most this long for its sparklines; a slow source leaves them out.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<null>((
        resolve,
      ) => (timer = setTimeout(() => resolve(null), TRENDS_TIMEOUT_MS)));
      const load = loadTrends(source, now() / 1000, historyAge()).catch((error) => {
        if (error instanceof SourceError) return null;
        throw error;
      });
      try {
        return await Promise.race([load, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    start: async () => await sampler?.start(),
    close: async () => await sampler?.stop(),
  };
}
