/**
 * Lifecycle scanner benchmarks, in one run on one in-process embedded storage:
 *  - versions evaluated per second by a paced scan (the default: 1 ms slices, resting as long as each slice)
 *    over 100,000 objects under a rule that matches them all and is not due, vs the same scan unpaced
 *    (reported; pacing gives half the thread to clients, so about 50% is expected);
 *  - client PUT latency p99 (4 KiB objects, another bucket) while scans run back to back, vs the same PUTs
 *    with no scan running (goal: at most 2x).
 * The 100,000 objects are put into the bucket's index directly (no bytes, no records log) to keep the
 * benchmark short: the scan reads only the index.
 * Run: npx -y deno@2.9.6 run -A build/bench/lifecycle_bench.ts
 */
import { DEFAULT_LISTENER_TIMEOUTS, listen } from "../../server/lib/http/listener.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { putBucketLifecycle } from "../../server/lib/s3/ops/lifecycle.ts";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { LifecycleScanner } from "../../server/storage/lifecycle/scanner.ts";
import { openEmbeddedStorage } from "../../server/storage/server.ts";
import { emit, percentile } from "./measure.ts";
import type { ObjectRecord } from "../../server/storage/core/records.ts";

const OBJECTS = 100_000;
const PUTS = 600;
const ROUNDS = 6;

const dir = await Deno.makeTempDir({ prefix: "deck-bench-lifecycle-" });
// No background scans: the benchmark runs them itself.
const opened = await openEmbeddedStorage({ dataDir: dir, lifecycle: { intervalMs: 0 } });
const server = await listen(
  { hostname: "127.0.0.1", port: 0, timeouts: DEFAULT_LISTENER_TIMEOUTS },
  opened.handler,
);
const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
const client = new S3Client({ endpoint: url, credentials: opened.root });
try {
  await makeBucket(client, "many");
  await makeBucket(client, "puts");
  await putBucketLifecycle(client, "many", [{
    id: "far",
    status: "Enabled",
    prefix: "obj/",
    expiration: { days: 100_000 },
  }]);
  const state = opened.store.bucket("many");
  const now = new Date().toISOString();
  for (let i = 0; i < OBJECTS; i++) {
    const key = `obj/${String(i).padStart(6, "0")}`;
    const record: ObjectRecord = {
      key,
      versions: [{
        versionId: "null",
        size: 4096,
        etag: "0".repeat(32),
        lastModified: now,
        userMetadata: {},
        inline: true,
      }],
    };
    state.objects.set(key, record);
    state.keys.push(key);
  }

  const scanner = (pause: number) =>
    new LifecycleScanner(opened.store, opened.lifecycle.backends, opened.lifecycle.tiers, {
      intervalMs: 0,
      pause,
    });
  const rate = async (pause: number) => {
    const s = scanner(pause);
    const started = performance.now();
    await s.scan();
    return s.stats.versionsScanned / ((performance.now() - started) / 1000);
  };
  await rate(0); // warm-up
  // Alternating rounds, medians: one scan takes well under a second, so the machine's load moves single ones.
  const rates = { paced: [] as number[], unpaced: [] as number[] };
  for (let round = 0; round < 5; round++) {
    rates.unpaced.push(await rate(0));
    rates.paced.push(await rate(1));
  }
  const [paced, unpaced] = [percentile(rates.paced, 50), percentile(rates.unpaced, 50)];
  emit({
    name: "lifecycle scan, versions evaluated per second (100,000 objects)",
    deck: paced,
    baseline: unpaced,
    unit: "versions/s",
    ratio: paced / unpaced,
    goal: "(reported)",
    pass: true,
    baselineName: "same scan unpaced",
  });

  const body = new Uint8Array(4096).fill(7);
  const putLatencies = async (label: string, count: number) => {
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await putObject(client, "puts", `${label}/${i}`, body);
      samples.push(performance.now() - started);
    }
    return samples;
  };
  await putLatencies("warm", PUTS / ROUNDS);
  // Quiet and busy phases alternate, so the machine's changing load falls on both alike.
  const quiet: number[] = [];
  const busy: number[] = [];
  let scans = 0;
  for (let round = 0; round < ROUNDS; round++) {
    quiet.push(...await putLatencies(`quiet${round}`, PUTS / ROUNDS));
    let scanning = true;
    const background = (async () => {
      const s = scanner(1);
      while (scanning) {
        await s.scan();
        scans++;
      }
    })();
    busy.push(...await putLatencies(`busy${round}`, PUTS / ROUNDS));
    scanning = false;
    await background;
  }
  if (scans === 0) throw new Error("no scan completed during the PUTs");
  const [p99Busy, p99Quiet] = [percentile(busy, 99), percentile(quiet, 99)];
  emit({
    name: `client PUT p99 during scans (${scans} scans over ${PUTS} PUTs)`,
    deck: p99Busy,
    baseline: p99Quiet,
    unit: "ms",
    ratio: p99Busy / p99Quiet,
    goal: "≤ 2x",
    pass: p99Busy / p99Quiet <= 2,
    baselineName: "same PUTs, no scan",
  });
  const [p50Busy, p50Quiet] = [percentile(busy, 50), percentile(quiet, 50)];
  emit({
    name: "client PUT p50 during scans",
    deck: p50Busy,
    baseline: p50Quiet,
    unit: "ms",
    ratio: p50Busy / p50Quiet,
    goal: "(reported)",
    pass: true,
    baselineName: "same PUTs, no scan",
  });
} finally {
  await server.shutdown();
  await opened.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
