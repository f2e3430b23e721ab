import assert from "node:assert/strict";
import { MetricsHistory } from "../history.ts";
import { expandExpr, querySelector, WIDGETS } from "../widgets.ts";
import { evaluateRange, type Series, type SeriesSource } from "./evaluate.ts";
import { parsePromQL, PromQLError } from "./parse.ts";

const sourceOf = (series: Series[]): SeriesSource => ({
  lookback: 300,
  select: (name, matchers, from, to) =>
    series
      .filter((s) =>
        s.labels.__name__ === name &&
        matchers.every((m) => (m.op === "=" ? s.labels[m.label] === m.value : true))
      )
      .map((s) => ({ labels: s.labels, points: s.points.filter((p) => p.t >= from && p.t <= to) })),
});

const counter = (labels: Record<string, string>, values: number[], every = 15, from = 1000) => ({
  labels,
  points: values.map((v, i) => ({ t: from + i * every, v })),
});

Deno.test("promql: every widget expression parses once its placeholders are filled", () => {
  for (const widget of WIDGETS) {
    for (const target of widget.targets) {
      parsePromQL(expandExpr(target.expr, querySelector("minio-job", 'cluster="a"'), "240s"));
    }
  }
});

Deno.test("promql: unsupported syntax is refused with what is wrong", () => {
  assert.throws(
    () => parsePromQL("histogram_quantile(0.9, x)"),
    (e) => e instanceof PromQLError && /histogram_quantile/.test(e.message),
  );
  assert.throws(() => parsePromQL("rate(x)"), /range selector/);
  assert.throws(() => parsePromQL('x{job="a"'), PromQLError);
  assert.throws(() => parsePromQL("x[5q]"), /duration/);
});

Deno.test("promql: rate over a counter with a reset, extrapolated as Prometheus does", () => {
  // 1 per second for 60 s, a restart to 0, then 1 per second again: 90 increments over the 105 s sampled.
  const values = [0, 15, 30, 45, 60, 0, 15, 30];
  const series = [counter({ __name__: "c_total", job: "j", api: "put" }, values)];
  const [row] = evaluateRange(parsePromQL('rate(c_total{job="j"}[240s])'), sourceOf(series), 1105, 1105, 60);
  assert.deepEqual(row.metric, { job: "j", api: "put" }, "rate drops the metric name");
  // The series starts at 0 inside the window, so nothing is extrapolated before it: 90 / 240 s.
  assert.equal(row.values[0][1], "0.375");
  const increase = evaluateRange(parsePromQL("increase(c_total[240s])"), sourceOf(series), 1105, 1105, 60);
  assert.equal(increase[0].values[0][1], "90");
  // Starting above zero, the window start is extrapolated half a sample spacing back: 45 × (52.5 / 45).
  const late = [counter({ __name__: "c_total", job: "j" }, [100, 115, 130, 145])];
  const extrapolated = evaluateRange(parsePromQL("increase(c_total[240s])"), sourceOf(late), 1045, 1045, 60);
  assert.ok(
    Math.abs(Number(extrapolated[0].values[0][1]) - 45 * (52.5 / 45)) < 1e-9,
    extrapolated[0].values[0][1],
  );
});

Deno.test("promql: aggregation, topk, time() and vector arithmetic keep Prometheus' labels", () => {
  const series = [
    counter({ __name__: "m", job: "j", server: "a", api: "get" }, [1, 2]),
    counter({ __name__: "m", job: "j", server: "a", api: "put" }, [10, 20]),
    counter({ __name__: "m", job: "j", server: "b", api: "put" }, [100, 200]),
    counter({ __name__: "t", job: "j", instance: "i" }, [500, 500]),
    counter({ __name__: "f", job: "j", instance: "i" }, [200, 300]),
  ];
  const src = sourceOf(series);
  const at = (q: string) =>
    evaluateRange(parsePromQL(q), src, 1015, 1015, 1).map((r) => [r.metric, r.values[0][1]]);
  assert.deepEqual(at("sum by (server) (m)"), [[{ server: "a" }, "22"], [{ server: "b" }, "200"]]);
  assert.deepEqual(at("sum without (server,instance) (m)"), [[{ api: "get", job: "j" }, "2"], [{
    api: "put",
    job: "j",
  }, "220"]]);
  assert.deepEqual(at("count(count by (api) (m))"), [[{}, "2"]]);
  assert.deepEqual(at("topk(1, sum(m) by (server))"), [[{ server: "b" }, "200"]]);
  assert.deepEqual(at("topk(1, sum(t) by (instance)) - topk(1, sum(f) by (instance))"), [[
    { instance: "i" },
    "200",
  ]]);
  assert.deepEqual(at("time() - max(t)"), [[{}, "515"]]);
  assert.deepEqual(at('max by (api) (m{server!="b"})').map(([l]) => l), [{ api: "get" }, { api: "put" }]);
});

Deno.test("promql: a range query has one point per step and respects the 5-minute lookback", () => {
  const series = [counter({ __name__: "g", job: "j" }, [1, 2, 3], 15, 1000)];
  const [row] = evaluateRange(parsePromQL("g"), sourceOf(series), 1000, 1400, 100);
  assert.deepEqual(
    row.values.map(([t]) => t),
    [1000, 1100, 1200, 1300],
    "1400 is more than 300 s after the last sample",
  );
  assert.deepEqual(row.values.map(([, v]) => v), ["1", "3", "3", "3"]);
  assert.deepEqual(row.metric, { __name__: "g", job: "j" }, "a plain selector keeps its name");
});

Deno.test("history: rings keep an hour fine and a day coarse; memory is bounded by the series cap", () => {
  const history = new MetricsHistory({ maxSeries: 3 });
  const start = 1_700_000_000;
  for (let i = 0; i < 24 * 240; i++) {
    const t = start + i * 15;
    history.append(t, [
      { labels: { __name__: "a", job: "j" }, value: i },
      { labels: { __name__: "b", job: "j" }, value: 2 * i },
      { labels: { __name__: "c", job: "j", n: String(i % 2) }, value: 1 },
      { labels: { __name__: "d", job: "j" }, value: 1 },
    ]);
  }
  assert.equal(history.fine.count, 240);
  assert.equal(history.coarse.count, 288);
  assert.equal(history.seriesCount, 3, "at most maxSeries series");
  assert.ok(history.droppedSeries > 0);
  assert.ok(history.sampleBytes <= 3 * (240 + 288) * 8, "each series costs at most its two rings");
  const end = start + (24 * 240 - 1) * 15;
  assert.equal(history.tierFor(end - 900), "fine");
  assert.equal(history.tierFor(end - 6 * 3600), "coarse");
  const coarse = history.select("coarse", "a", [], end - 86400, end);
  assert.ok(coarse[0].points.length >= 287, "a day of 5-minute points");
  const restored = new MetricsHistory();
  restored.restore(JSON.parse(JSON.stringify(history.toJSON())), end);
  assert.deepEqual(
    restored.select("fine", "b", [], 0, end),
    history.select("fine", "b", [], 0, end),
    "the saved file round-trips",
  );
});
