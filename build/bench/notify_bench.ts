/**
 * Event delivery benchmark (issue 14): 2,000 PUTs of 4 KiB into a bucket subscribed to a webhook target
 * (with its on-disk queue, as the console's form requires) and a PostgreSQL target, against the same PUTs
 * into a server with no targets, both storages as their own processes, alternating rounds so drift in the
 * machine's load hits both alike. Goal: throughput with targets ≥ 80% of without. Also reported: delivery
 * latency (PUT acknowledged → event at the webhook receiver / row committed in PostgreSQL), p50 and p99,
 * and events lost (expected 0).
 * Run: npx -y deno@2.9.6 task bench notify
 */
import postgres from "postgres";
import { serviceRestart, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { putBucketNotification } from "../../server/lib/s3/ops/notification.ts";
import { spawnStorage } from "../../tests/storage_process.ts";
import { cpuMs, emit, freePort, loadAverage, percentile, workerThreadsCpuMs } from "./measure.ts";

const COUNT = 2000;
/** Many short alternating rounds: each pair of rounds sees about the same load from the rest of the machine. */
const ROUNDS = 20;
const CONCURRENCY = 8;
const root = { accessKey: "benchadmin", secretKey: "benchadmin-secret-key" };
const run = `deck_bench_${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
const dir = await Deno.makeTempDir({ prefix: "deck-notify-bench-" });

// The receivers: a webhook endpoint in its own process (as a real one would be: it must not take the
// benchmark client's CPU), and a PostgreSQL table that stamps each row as it is committed.
const RECEIVER = `
  const arrivals = new Map();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("port " + port) }, async (req) => {
    if (req.method === "GET") return Response.json(Object.fromEntries(arrivals));
    const text = await req.text();
    const key = JSON.parse('"' + /"Key":"((?:[^"\\\\]|\\\\.)*)"/.exec(text)[1] + '"');
    if (!arrivals.has(key)) arrivals.set(key, Date.now());
    return new Response(null, { status: 200 });
  });`;
const receiver = new Deno.Command(Deno.execPath(), {
  args: ["eval", RECEIVER],
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const receiverLines = receiver.stdout.pipeThrough(new TextDecoderStream()).getReader();
let announced = "";
while (!/port \d+/.test(announced)) announced += (await receiverLines.read()).value ?? "";
receiverLines.releaseLock();
receiver.stdout.cancel().catch(() => {});
const hookUrl = `http://127.0.0.1:${/port (\d+)/.exec(announced)![1]}/events`;
const hookArrivals = async () =>
  new Map(Object.entries(await (await fetch(hookUrl)).json() as Record<string, number>));
const sql = postgres({
  host: "127.0.0.1",
  port: 5432,
  user: "postgres",
  database: "test",
  max: 1,
  onnotice: () => {},
});
await sql.unsafe(
  `CREATE TABLE ${run} (key VARCHAR PRIMARY KEY, value JSONB, received_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())`,
);

const plainProcess = await spawnStorage(`${dir}/plain`, await freePort(), root);
const notifiedProcess = await spawnStorage(`${dir}/notified`, await freePort(), root);
try {
  const plain = new S3Client({ endpoint: plainProcess.url, credentials: root });
  const notified = new S3Client({ endpoint: notifiedProcess.url, credentials: root });
  await makeBucket(plain, "bench");
  await makeBucket(notified, "bench");
  await setConfigKV(notified, `notify_webhook endpoint=${hookUrl} queue_dir=${dir}/queue queue_limit=10000`);
  await setConfigKV(
    notified,
    `notify_postgres connection_string="host=127.0.0.1 port=5432 user=postgres dbname=test sslmode=disable" table=${run} format=namespace`,
  );
  await serviceRestart(notified);
  await putBucketNotification(notified, "bench", [
    { id: "hook", arn: "arn:minio:sqs::_:webhook", events: ["s3:ObjectCreated:*"] },
    { id: "pg", arn: "arn:minio:sqs::_:postgresql", events: ["s3:ObjectCreated:*"] },
  ]);

  const body = new Uint8Array(4096).fill(7);
  const acked = new Map<string, number>();
  const putLatencies: number[] = [];
  const putMany = async (client: S3Client, prefix: string, count: number, record: boolean) => {
    const started = performance.now();
    for (let i = 0; i < count; i += CONCURRENCY) {
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - i) }, async (_, j) => {
        const key = `${prefix}${String(i + j).padStart(6, "0")}`;
        const t0 = performance.now();
        await putObject(client, "bench", key, body);
        if (record) {
          acked.set(`bench/${key}`, Date.now());
          putLatencies.push(performance.now() - t0);
        }
      }));
    }
    return performance.now() - started;
  };
  // Warm both (connections, JIT), then alternate rounds.
  await putMany(plain, "warm/", 200, false);
  await putMany(notified, "warm/", 200, false);
  let plainMs = 0;
  let notifiedMs = 0;
  const pairRatios: number[] = [];
  const load = [loadAverage()];
  const cpuBefore = [cpuMs(plainProcess.child.pid), cpuMs(notifiedProcess.child.pid)];
  const deliveryCpuBefore = workerThreadsCpuMs(notifiedProcess.child.pid);
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which server goes first, so neither always follows the other's leftover work.
    const first = round % 2 === 0;
    const a = first ? await putMany(plain, `r${round}/`, COUNT / ROUNDS, false) : 0;
    const b = await putMany(notified, `r${round}/`, COUNT / ROUNDS, true);
    const c = first ? a : await putMany(plain, `r${round}/`, COUNT / ROUNDS, false);
    plainMs += c;
    notifiedMs += b;
    pairRatios.push(c / b);
  }
  const plainOps = COUNT / (plainMs / 1000);
  const notifiedOps = COUNT / (notifiedMs / 1000);
  // The median of the rounds' ratios: a burst of load from elsewhere on the machine spoils one pair, not all.
  const ratio = percentile(pairRatios, 50);

  // Wait until both targets have everything (or a minute passes: what is missing then counts as lost).
  const deadline = Date.now() + 60_000;
  const expected = COUNT + 200;
  let rows: { key: string; received_at: Date }[] = [];
  let hooked = new Map<string, number>();
  while (Date.now() < deadline) {
    rows = await sql.unsafe(`SELECT key, received_at FROM ${run}`) as unknown as typeof rows;
    hooked = await hookArrivals();
    if (rows.length >= expected && hooked.size >= expected) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  load.push(loadAverage());
  // The plain server does nothing between its rounds; the other's total includes delivering every event.
  const plainCpu = (cpuMs(plainProcess.child.pid) - cpuBefore[0]) / COUNT;
  const notifiedCpu = (cpuMs(notifiedProcess.child.pid) - cpuBefore[1]) / COUNT;
  const deliveryCpu = (workerThreadsCpuMs(notifiedProcess.child.pid) - deliveryCpuBefore) / COUNT;
  const measured = [...acked.keys()];
  const hookLatency = measured.filter((k) => hooked.has(k)).map((k) => hooked.get(k)! - acked.get(k)!);
  const pgArrivals = new Map(rows.map((r) => [r.key, r.received_at.getTime()]));
  const pgLatency = measured.filter((k) => pgArrivals.has(k)).map((k) => pgArrivals.get(k)! - acked.get(k)!);
  const lost = (expected - hooked.size) + (expected - rows.length);
  const putP50 = percentile(putLatencies, 50);
  const putP99 = percentile(putLatencies, 99);

  emit({
    name: "2,000 PUTs of 4 KiB, bucket with webhook + PostgreSQL targets (ratio: median of 20 paired rounds)",
    deck: notifiedOps,
    baseline: plainOps,
    unit: "ops/s",
    ratio,
    goal: "≥ 80% of without targets",
    pass: ratio >= 0.8,
    baselineName: "same PUTs, server without targets",
  });
  emit({
    name: "Storage CPU per PUT, including delivering its events to both targets",
    deck: notifiedCpu,
    baseline: plainCpu,
    unit: "ms",
    ratio: notifiedCpu / plainCpu,
    goal: "(reported)",
    pass: true,
    baselineName: "same PUTs, server without targets",
  });
  emit({
    name: "Of which the delivery thread (runs at nice 10), per PUT",
    deck: deliveryCpu,
    baseline: notifiedCpu,
    unit: "ms",
    ratio: deliveryCpu / notifiedCpu,
    goal: "(reported)",
    pass: true,
    baselineName: "storage CPU per PUT with targets",
  });
  emit({
    name: "Machine load average during the run (1 min, 2 cores)",
    deck: Math.max(...load),
    baseline: navigator.hardwareConcurrency,
    unit: "",
    ratio: Math.max(...load) / navigator.hardwareConcurrency,
    goal: "(reported)",
    pass: true,
    baselineName: "cores",
  });
  emit({
    name: "Delivery latency p50, webhook (ack → received)",
    deck: percentile(hookLatency, 50),
    baseline: putP50,
    unit: "ms",
    ratio: percentile(hookLatency, 50) / putP50,
    goal: "(reported)",
    pass: true,
    baselineName: "PUT latency p50",
  });
  emit({
    name: "Delivery latency p99, webhook (ack → received)",
    deck: percentile(hookLatency, 99),
    baseline: putP99,
    unit: "ms",
    ratio: percentile(hookLatency, 99) / putP99,
    goal: "(reported)",
    pass: true,
    baselineName: "PUT latency p99",
  });
  emit({
    name: "Delivery latency p50, PostgreSQL (ack → row committed)",
    deck: percentile(pgLatency, 50),
    baseline: putP50,
    unit: "ms",
    ratio: percentile(pgLatency, 50) / putP50,
    goal: "(reported)",
    pass: true,
    baselineName: "PUT latency p50",
  });
  emit({
    name: "Delivery latency p99, PostgreSQL (ack → row committed)",
    deck: percentile(pgLatency, 99),
    baseline: putP99,
    unit: "ms",
    ratio: percentile(pgLatency, 99) / putP99,
    goal: "(reported)",
    pass: true,
    baselineName: "PUT latency p99",
  });
  emit({
    name: "Events lost (both targets)",
    deck: lost,
    baseline: expected * 2,
    unit: "events",
    ratio: lost / (expected * 2),
    goal: "0 lost",
    pass: lost === 0,
    baselineName: "events sent",
  });
} finally {
  plainProcess.child.kill("SIGTERM");
  notifiedProcess.child.kill("SIGTERM");
  await Promise.all([plainProcess.child.status, notifiedProcess.child.status]);
  await sql.unsafe(`DROP TABLE IF EXISTS ${run}`);
  await sql.end();
  receiver.kill("SIGTERM");
  await receiver.status;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
