/**
 * Metrics benchmarks (issue 17):
 *  - JS gzip of the widget dashboard's heaviest tab (Summary: every chart type, so frappe-charts loads), goal
 *    ≤ 200 KB, against the original console's 614 KB of JS on every page;
 *  - server time of the dashboard page with the widgets and of one widget call, against the basic view;
 *  - the sampler's CPU per minute (a scrape every 15 s, the storage's rendering included) against one core;
 *  - the history's memory after 24 h of simulated samples against its stated bound, and its file size;
 *  - small-PUT throughput with metrics collection on (request sink + a scrape every second, 15x the real
 *    rate) against off (no sink, no scrapes), goal ≥ 95%.
 * Run: npx -y deno@2.9.6 task bench metrics
 */
import { gzipSync } from "node:zlib";
import { loadConfig } from "../../server/console/config/config.ts";
import { silentLogger } from "../../server/lib/http/log.ts";
import { MetricsHistory } from "../../server/console/metrics/history.ts";
import { createMetricsService } from "../../server/console/metrics/mod.ts";
import { metricNamesUsed } from "../../server/console/metrics/widgets.ts";
import { TREND_METRICS } from "../../server/console/metrics/trends.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { getObject, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { prometheusBearerToken } from "../../server/lib/s3/prometheus_token.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { manifest } from "../../static/gen/manifest.ts";
import { signInAsRoot, startStack } from "../../tests/helpers.ts";
import { emitJsBudget } from "./assets.ts";
import { emit, percentile } from "./measure.ts";
const KB = 1024;

/** User + system CPU seconds of this process (Linux /proc, 100 ticks per second). */
async function cpuSeconds(): Promise<number> {
  const stat = await Deno.readTextFile("/proc/self/stat");
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

/** Gzip bytes of the files a page with the widget dashboard loads for its Summary tab. */
async function summaryTabJs(base: string): Promise<number> {
  const files = new Set<string>([manifest.client, ...manifest.islands.MetricsDashboard]);
  const pending = [...files];
  let total = 0;
  const seen = new Set<string>();
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const body = new Uint8Array(await (await fetch(`${base}/static/${file}`)).arrayBuffer());
    total += gzipSync(body, { level: 9 }).length;
    const text = new TextDecoder().decode(body);
    // Static imports, and the dashboard's own dynamic import of frappe-charts (its charts load on Summary).
    for (const m of text.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) pending.push(m[1]);
    if (manifest.islands.MetricsDashboard.includes(file)) {
      for (const m of text.matchAll(/import\("\.\/([^"]+\.js)"\)/g)) {
        pending.push(m[1]);
      }
    }
  }
  return total;
}

async function pageTimes(request: () => Promise<Response>, rounds: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    const res = await request();
    await res.text();
    if (res.status !== 200) throw new Error(`answered ${res.status}`);
    samples.push(performance.now() - t);
  }
  return samples;
}

// 1. Page weight and server time.
{
  const stack = await startStack({ metricsIntervalMs: 1000 });
  try {
    const client = await signInAsRoot(stack);
    await makeBucket(stack.admin, "bench");
    for (let i = 0; i < 20; i++) await putObject(stack.admin, "bench", `o${i}`, new Uint8Array(1000));
    const js = await summaryTabJs(stack.consoleUrl);
    emitJsBudget("/dashboard widgets (Summary tab, charts loaded)", js, 200);
    const widgets = await pageTimes(() => client.request("GET", "/dashboard"), 200);
    const basic = await pageTimes(() => client.request("GET", "/dashboard?view=basic"), 200);
    emit({
      name: "Dashboard page with widgets, server time p50",
      deck: percentile(widgets, 50),
      baseline: percentile(basic, 50),
      unit: "ms",
      ratio: percentile(widgets, 50) / percentile(basic, 50),
      goal: "(reported)",
      pass: true,
      baselineName: "basic view with trends, p50",
    });
    const widget = await pageTimes(() => client.request("GET", "/api/v1/admin/info/widgets/60/"), 200);
    emit({
      name: "One widget call (request rate, on-box history) p50",
      deck: percentile(widget, 50),
      baseline: percentile(basic, 50),
      unit: "ms",
      ratio: percentile(widget, 50) / percentile(basic, 50),
      goal: "(reported)",
      pass: true,
      baselineName: "basic view with trends, p50",
    });
  } finally {
    await stack.close();
  }
}

// 2. Sampler cost: CPU of scrapes (client and storage side) over a store with some history of traffic.
const dataDir = await Deno.makeTempDir({ prefix: "deck-metrics-bench-" });
const storage = await startEmbeddedStorage({ dataDir: `${dataDir}/on`, port: 0 });
try {
  const root = new S3Client({ endpoint: storage.url, credentials: storage.root });
  for (let b = 0; b < 10; b++) {
    await makeBucket(root, `bucket-${b}`);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => putObject(root, `bucket-${b}`, `k${i}`, new Uint8Array(512))),
    );
  }
  for (let i = 0; i < 50; i++) await (await getObject(root, "bucket-0", `k${i}`)).arrayBuffer();
  const config = loadConfig({});
  const token = prometheusBearerToken(storage.root);
  const service = createMetricsService({
    config,
    storageUrl: storage.url,
    storageToken: () => token,
    fetch,
    log: silentLogger,
    historyFile: null,
  });
  const sampler = service.sampler!;
  await sampler.fresh(0); // warm up
  const scrapes = 200;
  const cpuBefore = await cpuSeconds();
  for (let i = 0; i < scrapes; i++) await sampler.fresh(0);
  const perScrape = ((await cpuSeconds()) - cpuBefore) / scrapes;
  const perMinute = perScrape * (60_000 / sampler.intervalMs) * 1000;
  emit({
    name: "Sampler CPU per minute (4 scrapes, storage side included)",
    deck: perMinute,
    baseline: 60_000,
    unit: "ms",
    ratio: perMinute / 60_000,
    goal: "≤ 1% of one core",
    pass: perMinute <= 600,
    baselineName: "one CPU core for a minute",
  });

  // 3. Memory after 24 h of simulated history: real sample sets, values moving, one append per 15 s. The
  // retained heap is measured in a process of its own with explicit garbage collection.
  const keep = metricNamesUsed(TREND_METRICS);
  const samples = (await sampler.fresh(0))!.samples.filter((s) => keep.has(s.labels.__name__));
  const samplesFile = `${dataDir}/samples.json`;
  await Deno.writeTextFile(samplesFile, JSON.stringify(samples));
  const measured = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", "build/bench/history_memory.ts", samplesFile],
    stderr: "inherit",
  }).output();
  const { heapBytes, sampleBytes, series } = JSON.parse(new TextDecoder().decode(measured.stdout));
  const history = new MetricsHistory();
  const bound = history.maxSeries * (history.fine.capacity + history.coarse.capacity) * 8;
  emit({
    name: `History after 24 h: retained memory (${series} series)`,
    deck: heapBytes / KB,
    baseline: bound / KB,
    unit: "KB",
    ratio: heapBytes / bound,
    goal: "(reported; sample arrays ≤ bound)",
    pass: sampleBytes <= bound,
    baselineName: "stated bound of the sample arrays, 500 series",
  });
  const start = Math.floor(Date.now() / 1000) - 86_400;
  const cpuAppend = await cpuSeconds();
  for (let i = 0; i < 86_400 / 15; i++) {
    history.append(start + i * 15, samples.map((s) => ({ labels: s.labels, value: s.value + i })));
  }
  const appendSeconds = (await cpuSeconds()) - cpuAppend;
  const file = new TextEncoder().encode(JSON.stringify(history.toJSON())).length;
  emit({
    name: "History file on disk after 24 h",
    deck: file / KB,
    baseline: bound / KB,
    unit: "KB",
    ratio: file / bound,
    goal: "(reported)",
    pass: true,
    baselineName: "stated memory bound",
  });
  emit({
    name: "CPU to record 24 h of samples (5,760 appends)",
    deck: appendSeconds * 1000,
    baseline: 86_400_000,
    unit: "ms",
    ratio: appendSeconds * 1000 / 86_400_000,
    goal: "(reported)",
    pass: true,
    baselineName: "24 h of wall time",
  });
} finally {
  await storage.close();
}

// 4. PUT throughput, metrics collection on vs off: two servers on the same disk, rounds alternating.
{
  const on = await startEmbeddedStorage({ dataDir: `${dataDir}/put-on`, port: 0 });
  const off = await startEmbeddedStorage({ dataDir: `${dataDir}/put-off`, port: 0 });
  off.metrics.close(); // no sink: the request stream has no listener and publishes nothing
  const config = loadConfig({});
  const token = prometheusBearerToken(on.root);
  const service = createMetricsService({
    config,
    storageUrl: on.url,
    storageToken: () => token,
    fetch,
    log: silentLogger,
    historyFile: null,
    sampleIntervalMs: 1000,
  });
  await service.start();
  try {
    const clients = {
      on: new S3Client({ endpoint: on.url, credentials: on.root }),
      off: new S3Client({ endpoint: off.url, credentials: off.root }),
    };
    await makeBucket(clients.on, "puts");
    await makeBucket(clients.off, "puts");
    const body = new Uint8Array(4096);
    const round = async (client: S3Client, prefix: string) => {
      const count = 1500;
      let next = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (next < count) await putObject(client, "puts", `${prefix}-${next++}`, body);
      }));
      return count / ((performance.now() - started) / 1000);
    };
    const rates = { on: [] as number[], off: [] as number[] };
    for (let r = 0; r < 6; r++) {
      for (const mode of r % 2 ? ["on", "off"] as const : ["off", "on"] as const) {
        rates[mode].push(await round(clients[mode], `r${r}`));
      }
    }
    const onRate = percentile(rates.on, 50);
    const offRate = percentile(rates.off, 50);
    emit({
      name: "4 KiB PUTs/s with metrics collection on",
      deck: onRate,
      baseline: offRate,
      unit: "ops/s",
      ratio: onRate / offRate,
      goal: "≥ 95% of off",
      pass: onRate / offRate >= 0.95,
      baselineName: "collection off, same run",
    });
  } finally {
    await service.close();
    await on.close();
    await off.close();
  }
}
await Deno.remove(dataDir, { recursive: true });
