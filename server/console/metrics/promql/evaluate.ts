/**
 * Range-query evaluation of the parsed subset (parse.ts) over any series source, with Prometheus' semantics
 * where the widgets can tell the difference: the 5-minute lookback of instant selectors, rate()/increase()
 * with counter resets and extrapolation to the window edges, aggregation grouping, topk keeping its input
 * labels, arithmetic dropping the metric name, and the result as a matrix of `[seconds, "value"]` pairs
 * sorted by label set, the shape /api/v1/query_range returns.
 * https://prometheus.io/docs/prometheus/latest/querying/functions/#rate
 */
import type { Expr, Matcher } from "./parse.ts";

export type Labels = Record<string, string>;

export interface Point {
  /** Seconds since the epoch. */
  t: number;
  v: number;
}

export interface Series {
  labels: Labels;
  /** Ascending by time. */
  points: Point[];
}

/** Where the evaluator reads samples: every series of `name` matching all matchers with points in [from, to]. */
export interface SeriesSource {
  select(name: string, matchers: Matcher[], from: number, to: number): Series[];
  /** How far back an instant selector looks for the latest sample, in seconds (Prometheus: 300). */
  lookback: number;
}

export interface MatrixSeries {
  metric: Labels;
  values: [number, string][];
}

type Sample = { labels: Labels; value: number };
type Value = { type: "scalar"; value: number } | { type: "vector"; samples: Sample[] };

/** Prometheus' float formatting: shortest round-trip decimal, NaN and ±Inf spelled out. */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

export const labelKey = (labels: Labels) =>
  Object.keys(labels).sort().map((k) => `${k}\u0000${labels[k]}`).join("\u0001");

const withoutName = (labels: Labels): Labels => {
  const { __name__: _, ...rest } = labels;
  return rest;
};

/** Index of the last point with t ≤ time, or -1. */
function lastAtOrBefore(points: Point[], time: number): number {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].t <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** rate()/increase() over the points in (end - range, end], as Prometheus extrapolates them. */
function extrapolatedDelta(points: Point[], end: number, range: number, isRate: boolean): number | null {
  const last = lastAtOrBefore(points, end);
  if (last < 0) return null;
  let first = last;
  while (first > 0 && points[first - 1].t > end - range) first--;
  if (points[first].t <= end - range || last - first < 1) return null;
  let delta = 0;
  let previous = points[first].v;
  for (let i = first + 1; i <= last; i++) {
    const v = points[i].v;
    delta += v < previous ? v : v - previous; // a drop is a counter reset: the counter restarted from 0
    previous = v;
  }
  const start = end - range;
  const sampled = points[last].t - points[first].t;
  const average = sampled / (last - first);
  let toStart = points[first].t - start;
  const toEnd = end - points[last].t;
  // A counter cannot have been below zero: do not extrapolate further back than where it would reach 0.
  if (delta > 0 && points[first].v >= 0) {
    const toZero = sampled * (points[first].v / delta);
    if (toZero < toStart) toStart = toZero;
  }
  const threshold = average * 1.1;
  let interval = sampled;
  interval += toStart < threshold ? toStart : average / 2;
  interval += toEnd < threshold ? toEnd : average / 2;
  const extrapolated = delta * (interval / sampled);
  return isRate ? extrapolated / range : extrapolated;
}

function aggregate(node: Extract<Expr, { kind: "aggregate" }>, input: Sample[], param: number): Sample[] {
  const groupLabels = (labels: Labels): Labels => {
    if (node.by) return Object.fromEntries(node.by.filter((l) => l in labels).map((l) => [l, labels[l]]));
    const drop = new Set(["__name__", ...(node.without ?? [])]);
    return node.without ? Object.fromEntries(Object.entries(labels).filter(([k]) => !drop.has(k))) : {};
  };
  const groups = new Map<string, { labels: Labels; samples: Sample[] }>();
  for (const sample of input) {
    const labels = groupLabels(sample.labels);
    const key = labelKey(labels);
    let group = groups.get(key);
    if (!group) groups.set(key, group = { labels, samples: [] });
    group.samples.push(sample);
  }
  const out: Sample[] = [];
  for (const { labels, samples } of groups.values()) {
    const values = samples.map((s) => s.value);
    switch (node.op) {
      case "sum":
        out.push({ labels, value: values.reduce((a, b) => a + b, 0) });
        break;
      case "max":
        out.push({ labels, value: Math.max(...values) });
        break;
      case "min":
        out.push({ labels, value: Math.min(...values) });
        break;
      case "avg":
        out.push({ labels, value: values.reduce((a, b) => a + b, 0) / values.length });
        break;
      case "count":
        out.push({ labels, value: values.length });
        break;
      case "topk":
        out.push(...[...samples].sort((a, b) => b.value - a.value).slice(0, Math.max(0, Math.floor(param))));
        break;
    }
  }
  return out;
}

function arithmetic(op: string, a: number, b: number): number {
  switch (op) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    default:
      return a / b;
  }
}

/** Series of every selector, fetched once for the whole range query. */
type Prefetched = Map<Expr, Series[]>;

function evaluateAt(node: Expr, time: number, data: Prefetched, lookback: number): Value {
  switch (node.kind) {
    case "number":
      return { type: "scalar", value: node.value };
    case "selector": {
      const samples: Sample[] = [];
      for (const series of data.get(node) ?? []) {
        const i = lastAtOrBefore(series.points, time);
        if (i >= 0 && series.points[i].t > time - lookback) {
          samples.push({ labels: series.labels, value: series.points[i].v });
        }
      }
      return { type: "vector", samples };
    }
    case "call": {
      if (node.fn === "time") return { type: "scalar", value: time };
      const selector = node.args[0] as Extract<Expr, { kind: "selector" }>;
      const samples: Sample[] = [];
      for (const series of data.get(selector) ?? []) {
        const value = extrapolatedDelta(series.points, time, selector.range!, node.fn === "rate");
        if (value !== null) samples.push({ labels: withoutName(series.labels), value });
      }
      return { type: "vector", samples };
    }
    case "aggregate": {
      const input = evaluateAt(node.expr, time, data, lookback);
      if (input.type !== "vector") throw new Error(`${node.op}() needs a vector`);
      const param = node.param ? evaluateAt(node.param, time, data, lookback) : null;
      return {
        type: "vector",
        samples: aggregate(node, input.samples, param?.type === "scalar" ? param.value : 1),
      };
    }
    case "binary": {
      const lhs = evaluateAt(node.lhs, time, data, lookback);
      const rhs = evaluateAt(node.rhs, time, data, lookback);
      if (lhs.type === "scalar" && rhs.type === "scalar") {
        return { type: "scalar", value: arithmetic(node.op, lhs.value, rhs.value) };
      }
      if (lhs.type === "scalar" && rhs.type === "vector") {
        return {
          type: "vector",
          samples: rhs.samples.map((s) => ({
            labels: withoutName(s.labels),
            value: arithmetic(node.op, lhs.value, s.value),
          })),
        };
      }
      if (lhs.type === "vector" && rhs.type === "scalar") {
        return {
          type: "vector",
          samples: lhs.samples.map((s) => ({
            labels: withoutName(s.labels),
            value: arithmetic(node.op, s.value, rhs.value),
          })),
        };
      }
      // Vector with vector: one-to-one on every label but the name.
      const right = new Map(
        (rhs as { samples: Sample[] }).samples.map((s) => [labelKey(withoutName(s.labels)), s.value]),
      );
      const samples: Sample[] = [];
      for (const s of (lhs as { samples: Sample[] }).samples) {
        const labels = withoutName(s.labels);
        const other = right.get(labelKey(labels));
        if (other !== undefined) samples.push({ labels, value: arithmetic(node.op, s.value, other) });
      }
      return { type: "vector", samples };
    }
  }
}

function collectSelectors(node: Expr, out: Extract<Expr, { kind: "selector" }>[]): void {
  if (node.kind === "selector") out.push(node);
  else if (node.kind === "call") node.args.forEach((a) => collectSelectors(a, out));
  else if (node.kind === "aggregate") {
    collectSelectors(node.expr, out);
    if (node.param) collectSelectors(node.param, out);
  } else if (node.kind === "binary") {
    collectSelectors(node.lhs, out);
    collectSelectors(node.rhs, out);
  }
}

/** Evaluates `expr` at start, start+step, … ≤ end (seconds); returns the matrix sorted by label set. */
export function evaluateRange(
  expr: Expr,
  source: SeriesSource,
  start: number,
  end: number,
  step: number,
): MatrixSeries[] {
  const selectors: Extract<Expr, { kind: "selector" }>[] = [];
  collectSelectors(expr, selectors);
  const data: Prefetched = new Map();
  for (const selector of selectors) {
    const window = selector.range ?? source.lookback;
    const matchers = selector.matchers.filter((m) => m.label !== "__name__" || m.op !== "=");
    const name = selector.name || selector.matchers.find((m) =>
      m.label === "__name__" && m.op === "="
    )?.value || "";
    data.set(selector, source.select(name, matchers, start - window, end));
  }
  const rows = new Map<string, MatrixSeries>();
  for (let i = 0;; i++) {
    const time = start + i * step;
    if (time > end) break;
    const value = evaluateAt(expr, time, data, source.lookback);
    const samples = value.type === "scalar" ? [{ labels: {}, value: value.value }] : value.samples;
    for (const sample of samples) {
      const key = labelKey(sample.labels);
      let row = rows.get(key);
      if (!row) rows.set(key, row = { metric: sample.labels, values: [] });
      row.values.push([time, formatSampleValue(sample.value)]);
    }
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Whether a series' labels satisfy every matcher (regexes are anchored, as in PromQL). */
export function matchesAll(labels: Labels, matchers: Matcher[]): boolean {
  return matchers.every((m) => {
    const value = labels[m.label] ?? "";
    switch (m.op) {
      case "=":
        return value === m.value;
      case "!=":
        return value !== m.value;
      case "=~":
        return new RegExp(`^(?:${m.value})$`).test(value);
      case "!~":
        return !new RegExp(`^(?:${m.value})$`).test(value);
    }
  });
}
