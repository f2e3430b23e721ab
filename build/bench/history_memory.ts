/**
 * Helper of metrics_bench.ts, run in its own process with --v8-flags=--expose-gc: builds 24 h of history
 * from the sample set in the file named by argv[0] (one append per 15 s, values moving) and prints the JS
 * memory it retains (JS heap plus ArrayBuffer backing stores, which live outside the heap), measured after
 * full collections, as JSON {heapBytes, sampleBytes, series}.
 */
import { type LabeledValue, MetricsHistory } from "../../server/console/metrics/history.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");
const samples: LabeledValue[] = JSON.parse(await Deno.readTextFile(Deno.args[0]));
gc();
const used = () => Deno.memoryUsage().heapUsed + Deno.memoryUsage().external;
const before = used();
const history = new MetricsHistory();
const start = Math.floor(Date.now() / 1000) - 86_400;
for (let i = 0; i < 86_400 / 15; i++) {
  history.append(start + i * 15, samples.map((s) => ({ labels: s.labels, value: s.value + i })));
}
gc();
gc();
console.log(
  JSON.stringify({
    heapBytes: used() - before,
    sampleBytes: history.sampleBytes,
    series: history.seriesCount,
  }),
);
