/**
 * Jobs benchmarks (issue 28), the console and the storage each in their own process as in production, every
 * baseline from this run against the same storage:
 *  - move of 10,000 objects of 4 KiB between two prefixes as a console job, in objects per second, against
 *    Debian's `aws s3 mv --recursive` between two other prefixes of the same bucket (goal ≥ 2x);
 *  - copy of one 2 GiB object between buckets as a console job, in seconds, against `aws s3 cp` between the
 *    same buckets (reported).
 * The job's time runs from the POST that creates it to the first read that finds it ended (read every 50 ms).
 * Run: npx -y deno@2.9.6 task bench jobs
 */
import type { JobView } from "../../server/lib/contract/jobs.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { listAllObjects, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { awsCli } from "../../tests/storage/awscli.ts";
import { spawnStorage } from "../../tests/storage_process.ts";
import { startBenchConsole } from "./console_process.ts";
import { cpuMs, emit, freePort, pattern } from "./measure.ts";

/** JOBS_BENCH_COUNT shrinks the move for a quick look while tuning; the recorded run uses 10,000. */
const COUNT = Number(Deno.env.get("JOBS_BENCH_COUNT") ?? 10_000);
const SMALL = 4096;
const GiB = 1024 ** 3;
const BIG = 2 * GiB;
const root = { accessKey: "benchroot", secretKey: "bench-secret-1" };
const log = (text: string) => console.error(`  jobs bench: ${text}`);

const dir = await Deno.makeTempDir({ prefix: "deck-bench-jobs-" });
const storage = await spawnStorage(`${dir}/storage`, await freePort(), root);
const admin = new S3Client({ endpoint: storage.url, credentials: root });
const deck = await startBenchConsole(storage.url, root, { CONSOLE_DATA_DIR: `${dir}/console` });
const cli = await awsCli({ storage: { url: storage.url, root } });

/** Runs Debian's AWS CLI against the storage; milliseconds taken. */
async function aws(...args: string[]): Promise<number> {
  const started = performance.now();
  await cli.aws("s3", ...args, "--only-show-errors");
  return performance.now() - started;
}

async function seed(bucket: string, prefix: string) {
  const body = new Uint8Array(SMALL).fill(42);
  let next = 0;
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next < COUNT) {
      await putObject(admin, bucket, `${prefix}${String(next++).padStart(5, "0")}.bin`, body);
    }
  }));
}

const countOf = async (bucket: string, prefix: string) =>
  (await listAllObjects(admin, bucket, { prefix })).objects.length;

try {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await deck.call(path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return await res.json() as T;
  };
  /** Milliseconds from creating the job to seeing it end. */
  const runJob = async (input: unknown): Promise<{ ms: number; job: JobView }> => {
    const started = performance.now();
    let job = await call<JobView>("POST", "/api/v1/jobs", input);
    while (job.state === "running") {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = await call<JobView>("GET", `/api/v1/jobs/${job.id}`);
      if (Deno.env.get("JOBS_BENCH_TRACE")) {
        log(
          `${Math.round(performance.now() - started)} ms: ${job.done_objects} done of ${job.total_objects}`,
        );
      }
    }
    if (job.state !== "done" || job.failed_objects) {
      throw new Error(`job ended ${job.state}: ${JSON.stringify(job.failures)}`);
    }
    return { ms: performance.now() - started, job };
  };

  // 1. Move of 10,000 objects of 4 KiB between prefixes.
  await makeBucket(admin, "moves");
  log(`seeding 2 × ${COUNT} objects of 4 KiB`);
  await seed("moves", "deck-src/");
  await seed("moves", "aws-src/");
  const awsLoad = Deno.loadavg()[0];
  log("aws s3 mv --recursive");
  let storageCpu = cpuMs(storage.child.pid);
  const awsMs = await aws("mv", "--recursive", "s3://moves/aws-src/", "s3://moves/aws-dst/");
  log(`  storage CPU during aws: ${cpuMs(storage.child.pid) - storageCpu} ms`);
  log("console move job");
  const deckLoad = Deno.loadavg()[0];
  storageCpu = cpuMs(storage.child.pid);
  const consoleCpu = cpuMs(deck.pid);
  const move = await runJob({
    kind: "move",
    source: { bucket: "moves", base: "deck-src/", names: ["deck-src/"] },
    destination: { bucket: "moves", prefix: "deck-dst/" },
  });
  log(
    `  storage CPU during the job: ${cpuMs(storage.child.pid) - storageCpu} ms, console ${
      cpuMs(deck.pid) - consoleCpu
    } ms; ${Math.round(move.ms)} ms vs aws ${Math.round(awsMs)} ms`,
  );
  for (
    const [prefix, want] of [["deck-src/", 0], ["deck-dst/", COUNT], ["aws-src/", 0], [
      "aws-dst/",
      COUNT,
    ]] as const
  ) {
    const found = await countOf("moves", prefix);
    if (found !== want) throw new Error(`${prefix} holds ${found} objects, expected ${want}`);
  }
  const deckRate = COUNT / (move.ms / 1000), awsRate = COUNT / (awsMs / 1000);
  log(`load average: ${awsLoad.toFixed(1)} before aws, ${deckLoad.toFixed(1)} before the job`);
  emit({
    name: `Move ${COUNT.toLocaleString("en-US")} objects of 4 KiB between prefixes (console job)`,
    deck: deckRate,
    baseline: awsRate,
    unit: "objects/s",
    ratio: deckRate / awsRate,
    goal: "≥ 2x aws s3 mv --recursive",
    pass: deckRate >= 2 * awsRate,
    baselineName: "aws s3 mv --recursive (Debian awscli) on the same server",
  });

  // 2. Copy of one 2 GiB object between buckets (JOBS_BENCH_BIG=0 leaves it out while tuning).
  if (Deno.env.get("JOBS_BENCH_BIG") === "0") throw new Error("the 2 GiB copy was left out");
  await makeBucket(admin, "copy-from");
  await makeBucket(admin, "copy-to");
  log("writing the 2 GiB object");
  await putObject(admin, "copy-from", "big.bin", pattern(BIG, 7), { size: BIG, unsignedPayload: true });
  log("aws s3 cp");
  const awsCopyMs = await aws("cp", "s3://copy-from/big.bin", "s3://copy-to/aws.bin");
  log("console copy job");
  const copy = await runJob({
    kind: "copy",
    source: { bucket: "copy-from", base: "", names: ["big.bin"] },
    destination: { bucket: "copy-to", prefix: "deck/" },
  });
  emit({
    name: "Copy one 2 GiB object between buckets (console job)",
    deck: copy.ms / 1000,
    baseline: awsCopyMs / 1000,
    unit: "s",
    ratio: awsCopyMs / copy.ms,
    goal: "(reported: time against aws s3 cp)",
    pass: true,
    baselineName: "aws s3 cp s3://copy-from/… s3://copy-to/… (Debian awscli) on the same server",
  });
} finally {
  await deck.close();
  await cli.close();
  storage.child.kill("SIGTERM");
  await storage.child.status;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
