/**
 * Replication benchmark (issue 15): three storages as their own processes, a replicating source, its target,
 * and a plain server without replication. 2,000 PUTs of 4 KiB into each of source and plain, in alternating
 * rounds so drift in the machine's load hits both alike. Goal: PUT throughput with replication ≥ 80% of
 * without. Reported: replication lag p50/p99 under those PUTs (queued at commit → the target's answer, as the
 * source's replication metrics measure it), the lag of one 256 MiB object (PUT acknowledged → the source
 * reports it COMPLETED, polled every 20 ms), and, as the bound on two cores, the CPU each process spent per
 * PUT: replication costs the source a read and a send per PUT and the target a durable write; of the source's,
 * what its send thread (at nice 10) spent.
 * Run: npx -y deno@2.9.6 task bench replication
 */
import { setRemoteTarget } from "../../server/lib/s3/admin/buckets.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { headObject } from "../../server/lib/s3/ops/objects.ts";
import { putBucketReplication } from "../../server/lib/s3/ops/replication.ts";
import { spawnStorage } from "../../tests/storage_process.ts";
import { cpuMs, emit, freePort, loadAverage, percentile, workerThreadsCpuMs } from "./measure.ts";

const COUNT = 2000;
const ROUNDS = 20;
const CONCURRENCY = 8;
const BIG = 256 * 1024 * 1024;
const root = { accessKey: "benchadmin", secretKey: "benchadmin-secret-key" };
const dir = await Deno.makeTempDir({ prefix: "deck-replication-bench-" });

const targetProcess = await spawnStorage(`${dir}/target`, await freePort(), root);
const sourceProcess = await spawnStorage(`${dir}/source`, await freePort(), root);
const plainProcess = await spawnStorage(`${dir}/plain`, await freePort(), root);
try {
  const target = new S3Client({ endpoint: targetProcess.url, credentials: root });
  const source = new S3Client({ endpoint: sourceProcess.url, credentials: root });
  const plain = new S3Client({ endpoint: plainProcess.url, credentials: root });
  for (const [client, bucket] of [[target, "copy"], [source, "bench"], [plain, "bench"]] as const) {
    await makeBucket(client, bucket);
    await putBucketVersioning(client, bucket, { status: "Enabled" });
  }
  const arn = await setRemoteTarget(source, "bench", {
    sourcebucket: "bench",
    endpoint: new URL(targetProcess.url).host,
    secure: false,
    credentials: root,
    targetbucket: "copy",
    type: "replication",
  });
  await putBucketReplication(source, "bench", {
    role: "",
    rules: [{
      id: "all",
      status: "Enabled",
      priority: 1,
      destinationBucket: arn,
      deleteMarkerReplication: true,
      deleteReplication: true,
      replicaModifications: true,
      existingObjectReplication: false,
    }],
  });
  const metrics = async () =>
    await (await source.send({ method: "GET", bucket: "bench", query: { "replication-metrics": "" } }))
      .json();
  const drained = async (timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const m = await metrics();
      if (m.pendingReplicationCount === 0 && m.failedReplicationCount === 0) return m;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("replication did not catch up");
  };

  const body = new Uint8Array(4096).fill(7);
  const putMany = async (client: S3Client, prefix: string, count: number) => {
    const started = performance.now();
    for (let i = 0; i < count; i += CONCURRENCY) {
      await Promise.all(
        Array.from(
          { length: Math.min(CONCURRENCY, count - i) },
          (_, j) => putObject(client, "bench", `${prefix}${String(i + j).padStart(6, "0")}`, body),
        ),
      );
    }
    return performance.now() - started;
  };
  await putMany(plain, "warm/", 200);
  await putMany(source, "warm/", 200);
  await drained(60_000);
  const warmSamples =
    (Object.values((await metrics()).Stats)[0] as { latencyMs: { samples: number } }).latencyMs.samples;

  let plainMs = 0;
  let sourceMs = 0;
  const pairRatios: number[] = [];
  const load = [loadAverage()];
  const cpuBefore = [
    cpuMs(plainProcess.child.pid),
    cpuMs(sourceProcess.child.pid),
    cpuMs(targetProcess.child.pid),
    workerThreadsCpuMs(sourceProcess.child.pid),
  ];
  for (let round = 0; round < ROUNDS; round++) {
    const first = round % 2 === 0;
    const a = first ? await putMany(plain, `r${round}/`, COUNT / ROUNDS) : 0;
    const b = await putMany(source, `r${round}/`, COUNT / ROUNDS);
    const c = first ? a : await putMany(plain, `r${round}/`, COUNT / ROUNDS);
    plainMs += c;
    sourceMs += b;
    pairRatios.push(c / b);
  }
  const afterPuts = performance.now();
  const caughtUp = await drained(120_000);
  const drainMs = performance.now() - afterPuts;
  load.push(loadAverage());
  const plainCpu = (cpuMs(plainProcess.child.pid) - cpuBefore[0]) / COUNT;
  const sourceCpu = (cpuMs(sourceProcess.child.pid) - cpuBefore[1]) / COUNT;
  const targetCpu = (cpuMs(targetProcess.child.pid) - cpuBefore[2]) / COUNT;
  const sendThreadCpu = (workerThreadsCpuMs(sourceProcess.child.pid) - cpuBefore[3]) / COUNT;
  const stats =
    (Object.values(caughtUp.Stats)[0] as { latencyMs: { p50: number; p99: number; samples: number } })
      .latencyMs;
  const plainOps = COUNT / (plainMs / 1000);
  const sourceOps = COUNT / (sourceMs / 1000);
  const ratio = percentile(pairRatios, 50);

  // One 256 MiB object: the PUT, then the time until the source reports it COMPLETED on the target.
  const chunk = new Uint8Array(1024 * 1024).fill(42);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= BIG) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  const putStarted = performance.now();
  const big = await putObject(source, "bench", "big.bin", stream, { size: BIG });
  const acked = performance.now();
  while (
    (await headObject(source, "bench", "big.bin", { versionId: big.versionId })).headers.get(
      "x-amz-replication-status",
    ) !== "COMPLETED"
  ) {
    if (performance.now() - acked > 300_000) throw new Error("the big object never replicated");
    await new Promise((r) => setTimeout(r, 20));
  }
  const bigLag = performance.now() - acked;
  const bigPut = acked - putStarted;

  emit({
    name: "2,000 PUTs of 4 KiB, bucket replicating to a second server (ratio: median of 20 paired rounds)",
    deck: sourceOps,
    baseline: plainOps,
    unit: "ops/s",
    ratio,
    goal: "≥ 80% of without replication",
    pass: ratio >= 0.8,
    baselineName: "same PUTs, server without replication",
  });
  emit({
    name:
      `Replication lag p50 under those PUTs (queued → on the target; over all ${stats.samples} replicated PUTs, ${warmSamples} of them warm-up)`,
    deck: stats.p50,
    baseline: sourceMs / COUNT * CONCURRENCY,
    unit: "ms",
    ratio: stats.p50 / (sourceMs / COUNT * CONCURRENCY),
    goal: "(reported)",
    pass: true,
    baselineName: "mean PUT latency",
  });
  emit({
    name: "Replication lag p99 under those PUTs",
    deck: stats.p99,
    baseline: sourceMs / COUNT * CONCURRENCY,
    unit: "ms",
    ratio: stats.p99 / (sourceMs / COUNT * CONCURRENCY),
    goal: "(reported)",
    pass: true,
    baselineName: "mean PUT latency",
  });
  emit({
    name: "Time from the last PUT until the target had everything",
    deck: drainMs,
    baseline: sourceMs,
    unit: "ms",
    ratio: drainMs / sourceMs,
    goal: "(reported)",
    pass: true,
    baselineName: "time the replicated PUTs took",
  });
  emit({
    name: "Replication lag of one 256 MiB object (PUT acknowledged → COMPLETED)",
    deck: bigLag,
    baseline: bigPut,
    unit: "ms",
    ratio: bigLag / bigPut,
    goal: "(reported)",
    pass: true,
    baselineName: "its PUT",
  });
  emit({
    name: "Bound: source CPU per PUT, including reading and sending its replica",
    deck: sourceCpu,
    baseline: plainCpu,
    unit: "ms",
    ratio: sourceCpu / plainCpu,
    goal: "(reported)",
    pass: true,
    baselineName: "server without replication",
  });
  emit({
    name: "Of which the replication send thread (runs at nice 10), per PUT",
    deck: sendThreadCpu,
    baseline: sourceCpu,
    unit: "ms",
    ratio: sendThreadCpu / sourceCpu,
    goal: "(reported)",
    pass: true,
    baselineName: "source CPU per PUT",
  });
  emit({
    name: "Bound: target CPU per replica received",
    deck: targetCpu,
    baseline: plainCpu,
    unit: "ms",
    ratio: targetCpu / plainCpu,
    goal: "(reported)",
    pass: true,
    baselineName: "server without replication, per PUT",
  });
  // What CPU alone allows: a PUT with replication costs the source its PUT plus a send, and here the target's
  // write shares the same two cores.
  emit({
    name:
      "Bound: throughput ratio CPU allows when the source's CPU is the limit (plain ÷ source CPU per PUT)",
    deck: plainCpu / sourceCpu,
    baseline: 0.8,
    unit: "",
    ratio: plainCpu / sourceCpu / 0.8,
    goal: "(reported)",
    pass: true,
    baselineName: "goal",
  });
  emit({
    name: "Bound: the same when source and target share the machine's CPU (plain ÷ (source + target))",
    deck: plainCpu / (sourceCpu + targetCpu),
    baseline: 0.8,
    unit: "",
    ratio: plainCpu / (sourceCpu + targetCpu) / 0.8,
    goal: "(reported)",
    pass: true,
    baselineName: "goal",
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
} finally {
  for (const p of [targetProcess, sourceProcess, plainProcess]) p.child.kill("SIGTERM");
  await Promise.all([targetProcess.child.status, sourceProcess.child.status, plainProcess.child.status]);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
