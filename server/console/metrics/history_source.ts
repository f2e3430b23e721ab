/**
 * Widget queries answered from Deck's own history (history.ts) with the PromQL subset (promql/), so every
 * panel has data with zero setup. A query reads one ring: the fine one when it reaches back to the start of
 * the range, else the coarse one; the newest sample (at most a second old, taken on demand without being
 * stored) is added so the panels reach "now". `$__rate_interval` becomes four samples of the ring read
 * (at least 240 s, as with Prometheus), and instant selectors look back two samples (at least 5 minutes).
 */
import type { MetricsHistory } from "./history.ts";
import {
  evaluateRange,
  labelKey,
  matchesAll,
  type MatrixSeries,
  type Series,
  type SeriesSource,
} from "./promql/evaluate.ts";
import { type Expr, parsePromQL, PromQLError } from "./promql/parse.ts";
import type { Sampler, SampleSet } from "./sampler.ts";
import { SourceError, type WidgetSource } from "./source.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
// Installs the per-request language (English outside a request) for the texts below.
import "../render/i18n.ts";
import { expandExpr, querySelector } from "./widgets.ts";

export interface HistorySourceOptions {
  history: MetricsHistory;
  sampler: Sampler;
  jobId: string;
  storageUrl: string;
  now?: () => number;
}

/** Parsed expressions by text: the widget list is fixed, so this stays small. */
const parsed = new Map<string, Expr>();

function parseCached(text: string): Expr {
  let expr = parsed.get(text);
  if (!expr) {
    expr = parsePromQL(text);
    if (parsed.size < 1000) parsed.set(text, expr);
  }
  return expr;
}

export function createHistorySource(options: HistorySourceOptions): WidgetSource {
  const { history, sampler } = options;
  const selector = querySelector(options.jobId, "");
  const seconds = Math.round(sampler.intervalMs / 1000);
  return {
    kind: "history",
    // Read per request, so it is in the visitor's language.
    get description() {
      return t("monitoring.source.history", { url: options.storageUrl, seconds: String(seconds) });
    },
    state() {
      const status = sampler.status;
      if (status.lastSuccess === null && status.lastError) {
        return { ok: false, problem: t("monitoring.source.unreadable", { error: status.lastError }) };
      }
      return {
        ok: true,
        problem: status.lastError
          ? t("monitoring.source.sampleFailed", { error: status.lastError })
          : undefined,
      };
    },
    async queryRange(template, start, end, step): Promise<MatrixSeries[]> {
      const tier = history.tierFor(start);
      const resolution = Math.max(history.resolution(tier), seconds);
      const rateWindow = `${Math.max(240, 4 * resolution)}s`;
      let expr: Expr;
      try {
        expr = parseCached(expandExpr(template, selector, rateWindow));
      } catch (error) {
        throw new SourceError(
          "The query is not one the on-box history answers",
          error instanceof PromQLError ? error.message : String(error),
        );
      }
      const nowSeconds = (options.now ?? Date.now)() / 1000;
      const fresh = end >= nowSeconds - 2 * seconds ? await sampler.fresh() : null;
      // A sample taken while answering a query that ends "now" belongs to that end, not just after it.
      const live = fresh && fresh.time > end && fresh.time - end <= Math.max(5, seconds)
        ? { ...fresh, time: end }
        : fresh;
      if (!live && history.fine.count === 0) {
        throw new SourceError(
          "No metrics have been sampled yet",
          sampler.status.lastError ?? "the first sample is under way",
        );
      }
      const source: SeriesSource = {
        lookback: Math.max(300, 2 * resolution),
        select(name, matchers, from, to) {
          const series = history.select(tier, name, matchers, from, to);
          if (!live || live.time < from || live.time > to) return series;
          return withLivePoint(series, live, name, matchers, from);
        },
      };
      return evaluateRange(expr, source, start, end, step);
    },
  };
}

/**
 * Adds the live sample's value to each matching series, creating series that appeared since (with the zero
 * their counter had at the previous scrape, when the sampler knows it).
 */
function withLivePoint(
  series: Series[],
  live: SampleSet,
  name: string,
  matchers: Parameters<SeriesSource["select"]>[1],
  from: number,
): Series[] {
  const time = live.time;
  const byKey = new Map(series.map((s) => [labelKey(s.labels), s]));
  const zeroAt = new Map(live.zeros.map((z) => [labelKey(z.labels), z.time]));
  for (const sample of live.samples) {
    if (sample.labels.__name__ !== name || !matchesAll(sample.labels, matchers)) continue;
    const key = labelKey(sample.labels);
    const existing = byKey.get(key);
    if (existing) {
      if (existing.points.at(-1)!.t < time) existing.points.push({ t: time, v: sample.value });
    } else {
      const zero = zeroAt.get(key);
      const points = zero !== undefined && zero >= from && zero < time
        ? [{ t: zero, v: 0 }, { t: time, v: sample.value }]
        : [{ t: time, v: sample.value }];
      const added = { labels: sample.labels, points };
      byKey.set(key, added);
      series.push(added);
    }
  }
  return series;
}
