/**
 * Live tools benchmarks (issue 13):
 *  - trace under load: 2,000 small PUTs with a trace open in the console (over its WebSocket relay) against
 *    the same PUTs without (goal ≥ 80% of the throughput), and the end-to-end latency from a PUT's response to
 *    its trace message reaching the socket, p50 and p99;
 *  - the same with a Storage + OS trace open (every store and file-system call of each PUT traced), and the
 *    cost of those hooks with no trace open: ns per hooked call against the bare call, times the hooked
 *    calls a PUT makes, as a share of a PUT's time (goal: nil, ≤ 0.1%);
 *  - audit search over 1,000,000 records on SQLite and on PostgreSQL: ingest rate, and a filtered page of 100
 *    (bucket, API name, object prefix, with and without a time range) p50 and p99 (goal ≤ 100 ms), beside the
 *    same store's unfiltered newest page as the baseline;
 *  - relay memory with a stalled browser over 60 s of trace: the console's peak RSS growth against the same
 *    60 s of load with a browser that reads.
 * Run: npx -y deno@2.9.6 task bench tools   (BENCH_AUDIT_ROWS=100000 for a quicker audit run; the storage/os
 * trace part alone: npx -y deno@2.9.6 run -A build/bench/tools_bench.ts trace-calls)
 */
import postgres from "postgres";
import { createLogSearchService } from "../../server/logsearch/service.ts";
import { openAuditStore } from "../../server/logsearch/store.ts";
import * as s3 from "../../server/lib/s3/mod.ts";
import type { RequestRecord } from "../../server/storage/streams/requests.ts";
import { relayStats } from "../../server/console/ws/relay.ts";
import { osCall, STORAGE_CALL, traceCall } from "../../server/storage/streams/calls.ts";
import { signInAsRoot, startStack, type TestStack } from "../../tests/helpers.ts";
import { emit, percentile } from "./measure.ts";

const PUTS = 2000;
const CONCURRENCY = 8;
const AUDIT_ROWS = Number(Deno.env.get("BENCH_AUDIT_ROWS") ?? 1_000_000);
const STALL_SECONDS = Number(Deno.env.get("BENCH_STALL_SECONDS") ?? 60);
const PG_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** PUTs `count` small objects with `CONCURRENCY` in flight; returns ops/s and each PUT's response time. */
async function puts(
  stack: TestStack,
  prefix: string,
  count: number,
): Promise<{ opsPerSecond: number; doneAt: Map<string, number> }> {
  const body = new Uint8Array(1024).fill(7);
  const doneAt = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) {
      const key = `${prefix}/${next++}`;
      await s3.putObject(stack.admin, "bench", key, body);
      doneAt.set(`/bench/${key}`, performance.now());
    }
  }));
  return { opsPerSecond: count / ((performance.now() - started) / 1000), doneAt };
}

/** Opens the console's trace relay as a browser would; records when each path's message arrives. */
async function openTrace(
  stack: TestStack,
  cookie: string,
  path = "/ws/trace?calls=s3&onlyErrors=no",
): Promise<{ arrivals: Map<string, number>; close(): void }> {
  const arrivals = new Map<string, number>();
  const url = stack.consoleUrl.replace(/^http/, "ws") + path;
  // @ts-ignore: Deno's WebSocket takes headers (one line, so the directive covers the whole call)
  const ws = new WebSocket(url, { headers: { cookie, origin: stack.consoleUrl } });
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.path) arrivals.set(message.path, performance.now());
  };
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  for (let i = 0; i < 200 && stack.storage.streams.requests.subscriberCount === 0; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return { arrivals, close: () => ws.close() };
}

async function traceUnderLoad() {
  const stack = await startStack();
  try {
    const { cookie } = await signInAsRoot(stack);
    await s3.makeBucket(stack.admin, "bench");
    await puts(stack, "warm", 200);
    // Alternate rounds so a drifting machine load affects both sides alike; keep the median of each.
    const without: number[] = [];
    const withTrace: number[] = [];
    const latencies: number[] = [];
    for (let round = 0; round < 3; round++) {
      without.push((await puts(stack, `plain${round}`, PUTS)).opsPerSecond);
      const trace = await openTrace(stack, cookie);
      const run = await puts(stack, `traced${round}`, PUTS);
      withTrace.push(run.opsPerSecond);
      for (let i = 0; i < 500 && trace.arrivals.size < PUTS; i++) await new Promise((r) => setTimeout(r, 10));
      for (const [path, done] of run.doneAt) {
        const arrived = trace.arrivals.get(path);
        if (arrived !== undefined) latencies.push(Math.max(0, arrived - done));
      }
      trace.close();
      for (let i = 0; i < 200 && stack.storage.streams.requests.subscriberCount > 0; i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const a = percentile(withTrace, 50);
    const b = percentile(without, 50);
    emit({
      name: `${PUTS} PUTs of 1 KiB, trace open in the console`,
      deck: a,
      baseline: b,
      unit: "ops/s",
      ratio: a / b,
      goal: "≥ 80% of without",
      pass: a / b >= 0.8,
      baselineName: "same PUTs, no trace",
    });
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    emit({
      name: `trace latency, PUT response → browser socket, p99 (p50 ${
        p50.toFixed(2)
      } ms, ${latencies.length} of ${3 * PUTS} seen)`,
      deck: p99,
      baseline: p50,
      unit: "ms",
      ratio: p99 / Math.max(p50, 0.001),
      goal: "(reported)",
      pass: true,
      baselineName: "p50",
    });
  } finally {
    await stack.close();
  }
}

/** Waits (bounded) for a condition the server reaches asynchronously. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

async function storageOsTraceUnderLoad() {
  const stack = await startStack();
  try {
    const { cookie } = await signInAsRoot(stack);
    await s3.makeBucket(stack.admin, "bench");
    await puts(stack, "warm", 200);
    const { storageCalls, osCalls } = stack.storage.streams;
    const without: number[] = [];
    const withCalls: number[] = [];
    let callsPerPut = 0;
    for (let round = 0; round < 3; round++) {
      without.push((await puts(stack, `plain${round}`, PUTS)).opsPerSecond);
      const trace = await openTrace(stack, cookie, "/ws/trace?calls=storage,os&onlyErrors=no");
      await until(() => storageCalls.subscriberCount > 0 && osCalls.subscriberCount > 0);
      let counted = 0;
      const stops = [storageCalls.sink(() => counted++), osCalls.sink(() => counted++)];
      withCalls.push((await puts(stack, `calls${round}`, PUTS)).opsPerSecond);
      for (const stop of stops) stop();
      callsPerPut = counted / PUTS;
      trace.close();
      await until(() =>
        storageCalls.subscriberCount === 0 && osCalls.subscriberCount === 0 &&
        stack.storage.streams.requests.subscriberCount === 0
      );
    }
    const a = percentile(withCalls, 50);
    const b = percentile(without, 50);
    emit({
      name: `${PUTS} PUTs of 1 KiB, Storage + OS trace open in the console (${
        callsPerPut.toFixed(1)
      } storage/os records per PUT)`,
      deck: a,
      baseline: b,
      unit: "ops/s",
      ratio: a / b,
      goal: "≥ 80% of without",
      pass: a / b >= 0.8,
      baselineName: "same PUTs, no trace",
    });

    // The hooks with no one tracing: a hub check (storage) or a registry look-up by path (os) per call. The
    // relay lets go of its subscriptions once the socket has closed on both sides, which may take a while.
    for (let i = 0; i < 3000 && (storageCalls.active || osCalls.active); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    if (storageCalls.active || osCalls.active) {
      console.error(
        "storage/os trace hooks: a subscription was still open after 30 s; the no-trace cost row is left out",
      );
      return;
    }
    const N = 2_000_000;
    let sink = 0;
    const work = () => sink++;
    const path = `${stack.storage.store.root}/buckets/bench/records.log`;
    const time = (fn: () => void) => {
      const started = performance.now();
      fn();
      return ((performance.now() - started) * 1e6) / N;
    };
    const samples = { bare: [] as number[], hooked: [] as number[] };
    for (let round = 0; round < 5; round++) {
      samples.bare.push(time(() => {
        for (let i = 0; i < N; i++) work();
      }));
      samples.hooked.push(time(() => {
        for (let i = 0; i < N; i++) {
          i & 1
            ? traceCall(storageCalls, STORAGE_CALL, "storage.WriteMetadata", "bench/k", work, 1)
            : osCall("Write", path, work, 1);
        }
      }));
    }
    if (sink < 0) console.log(sink);
    const hookNs = Math.max(0, percentile(samples.hooked, 50) - percentile(samples.bare, 50));
    const putNs = 1e9 / b;
    const perPut = hookNs * callsPerPut;
    emit({
      name: `tracing hooks with no trace open: ${hookNs.toFixed(1)} ns per hooked call × ${
        callsPerPut.toFixed(1)
      } calls per PUT`,
      deck: perPut,
      baseline: putNs,
      unit: "ns per PUT",
      ratio: perPut / putNs,
      goal: "nil (≤ 0.1% of a PUT)",
      pass: perPut / putNs <= 0.001,
      baselineName: "a PUT's time, no trace",
    });
  } finally {
    await stack.close();
  }
}

const BUCKETS = 100;
const APIS = [
  "PutObject",
  "GetObject",
  "HeadObject",
  "ListObjectsV2",
  "DeleteObject",
  "CopyObject",
  "GetBucketLocation",
  "ListBuckets",
  "CreateMultipartUpload",
  "UploadPart",
];
const DAY_MS = 86_400_000;
const BASE = Date.parse("2026-10-01T00:00:00Z");

/** A deterministic audit entry: 100 buckets, 10 APIs, 30 days of times. */
function entry(n: number) {
  const time = new Date(BASE + Math.floor((n / AUDIT_ROWS) * 30 * DAY_MS));
  return {
    version: "1",
    time: time.toISOString(),
    api: {
      name: APIS[(n * 7) % APIS.length],
      bucket: `bucket-${n % BUCKETS}`,
      object: `dir${n % 37}/file-${n}.bin`,
      status: n % 50 === 0 ? "Not Found" : "OK",
      statusCode: n % 50 === 0 ? 404 : 200,
      timeToResponse: `${1000 + (n % 5000)}ns`,
    },
    remotehost: `10.0.${n % 4}.${n % 200}`,
    requestID: `REQ${n.toString(16).toUpperCase().padStart(12, "0")}`,
    userAgent: n % 3 === 0 ? "aws-cli/2.9" : "MinIO (linux; amd64) minio-go/v7",
    requestHeader: { "Content-Length": String(n % 4096) },
    responseHeader: { "Content-Length": "0" },
  };
}

async function auditSearch(kind: "SQLite" | "PostgreSQL") {
  const dir = await Deno.makeTempDir({ prefix: "deck-bench-audit-" });
  const schema = `deck_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const store = await openAuditStore(
    kind === "SQLite"
      ? { databaseUrl: "", sqlitePath: `${dir}/audit.sqlite` }
      : { databaseUrl: `${PG_URL}?schema=${schema}`, sqlitePath: "" },
  );
  const service = createLogSearchService({ store, auditToken: "a", queryToken: "q", retentionMs: 0 });
  try {
    // Ingest as MinIO delivers with batch_size 1000: NDJSON bodies, a few in flight.
    const started = performance.now();
    const BATCH = 1000;
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < AUDIT_ROWS) {
        const from = next;
        next += BATCH;
        const lines = [];
        for (let n = from; n < Math.min(from + BATCH, AUDIT_ROWS); n++) lines.push(JSON.stringify(entry(n)));
        const res = await service.fetch(
          new Request("http://ls/api/ingest?token=a", { method: "POST", body: lines.join("\n") }),
        );
        if (res.status !== 200) throw new Error(`ingest failed: ${await res.text()}`);
      }
    }));
    const ingestRate = AUDIT_ROWS / ((performance.now() - started) / 1000);
    if (kind === "PostgreSQL") {
      const sql = postgres(PG_URL, { onnotice: () => {} });
      await sql.unsafe(`ANALYZE "${schema}".request_info`);
      await sql.end();
    }
    const timed = async (query: (i: number) => string, rounds: number) => {
      const samples: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const t = performance.now();
        const res = await service.fetch(
          new Request(`http://ls/api/query?token=q&q=reqinfo&pageSize=100&${query(i)}`),
        );
        const rows = await res.json();
        samples.push(performance.now() - t);
        if (!Array.isArray(rows)) throw new Error(`query failed: ${JSON.stringify(rows)}`);
      }
      return samples;
    };
    const filtered = await timed((i: number) => {
      const fp = (k: string, v: string) => `fp=${encodeURIComponent(`${k}:${v}`)}`;
      switch (i % 4) {
        case 0:
          return `${fp("bucket", `bucket-${i % BUCKETS}`)}&pageNo=${i % 3}`;
        case 1:
          return `${fp("bucket", `bucket-${i % BUCKETS}`)}&${fp("api_name", APIS[i % APIS.length])}`;
        case 2:
          return `${fp("object", `dir${i % 37}/file-1*`)}&timeAsc=ok`;
        default:
          return `${fp("bucket", `bucket-${i % BUCKETS}`)}&timeStart=${
            new Date(BASE + (i % 20) * DAY_MS).toISOString()
          }&timeEnd=${new Date(BASE + (i % 20 + 3) * DAY_MS).toISOString()}`;
      }
    }, 200);
    const unfiltered = await timed(() => "", 100);
    const p50 = percentile(filtered, 50);
    const p99 = percentile(filtered, 99);
    const base = percentile(unfiltered, 50);
    const rows = AUDIT_ROWS.toLocaleString("en-US");
    emit({
      name: `audit search, ${rows} records, ${kind}: filtered page of 100, p50`,
      deck: p50,
      baseline: base,
      unit: "ms",
      ratio: p50 / base,
      goal: "≤ 100 ms",
      pass: p50 <= 100,
      baselineName: "unfiltered newest page, p50",
    });
    emit({
      name: `audit search, ${rows} records, ${kind}: filtered page of 100, p99`,
      deck: p99,
      baseline: base,
      unit: "ms",
      ratio: p99 / base,
      goal: "≤ 100 ms",
      pass: p99 <= 100,
      baselineName: "unfiltered newest page, p50",
    });
    emit({
      name: `audit ingest, ${kind} (NDJSON bodies of 1,000)`,
      deck: ingestRate,
      baseline: ingestRate,
      unit: "records/s",
      ratio: 1,
      goal: "(reported)",
      pass: true,
      baselineName: "itself",
    });
  } finally {
    await service.close();
    if (kind === "PostgreSQL") {
      const sql = postgres(PG_URL, { onnotice: () => {} });
      await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await sql.end();
    }
    await Deno.remove(dir, { recursive: true });
  }
}

/** Synthetic request records published at a steady rate (trace load without disk work muddying RSS). */
function record(n: number): RequestRecord {
  return {
    kind: "s3",
    api: "GetObject",
    time: new Date(),
    method: "GET",
    path: `/bucket/${"p".repeat(400)}/${n}`,
    rawQuery: "",
    host: "h",
    sourceIp: "127.0.0.1",
    userAgent: "ua",
    requestId: String(n),
    bucket: "bucket",
    object: String(n),
    accessKey: "",
    parentUser: "",
    statusCode: 200,
    errorCode: "",
    requestHeaders: { "Content-Length": "0" },
    responseHeaders: {},
    rx: 0,
    tx: 0,
    ttfbNs: 1,
    durationNs: 2,
    aborted: false,
  };
}

/** The heap that survives a full collection (needs --v8-flags=--expose-gc; the bench runs this part in a child that has it). */
function liveHeap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Deno.memoryUsage().heapUsed;
}

/** Publishes trace load for `seconds`; samples the live heap after the first tenth and at the end, and the peak RSS. */
async function loadFor(
  stack: TestStack,
  seconds: number,
): Promise<{ early: number; late: number; peakRss: number }> {
  let peakRss = Deno.memoryUsage().rss;
  let early = 0;
  let n = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    for (let i = 0; i < 200; i++) stack.storage.streams.requests.publish(record(n++));
    peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
    if (!early && performance.now() - started >= seconds * 100) early = liveHeap();
    await new Promise((r) => setTimeout(r, 10));
  }
  return { early, late: liveHeap(), peakRss };
}

/**
 * A browser that completes the handshake and never reads, while 20,000 trace records a second flow: the
 * console's RSS must level off (the relay's queue and the socket's send buffer are bounded), so its peak
 * over the whole run is compared with its peak after the first tenth of it.
 */
async function relayMemory() {
  const stack = await startStack();
  try {
    const { cookie } = await signInAsRoot(stack);
    const port = Number(new URL(stack.consoleUrl).port);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(
      `GET /ws/trace?calls=s3 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${stack.consoleUrl}\r\nCookie: ${cookie}\r\n\r\n`,
    ));
    for (let i = 0; i < 300 && stack.storage.streams.requests.subscriberCount === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const idleHeap = liveHeap();
    const idleRss = Deno.memoryUsage().rss;
    const { early, late, peakRss } = await loadFor(stack, STALL_SECONDS);
    const [relay] = relayStats();
    conn.close();
    const MB = 1024 * 1024;
    const lateGrowth = (late - idleHeap) / MB;
    const earlyGrowth = (early - idleHeap) / MB;
    emit({
      name:
        `console live heap growth, stalled browser, after ${STALL_SECONDS} s of trace at 20,000 records/s (relay dropped ${
          relay?.dropped ?? 0
        }; peak RSS +${((peakRss - idleRss) / MB).toFixed(0)} MB)`,
      deck: lateGrowth,
      baseline: earlyGrowth,
      unit: "MB",
      ratio: lateGrowth / Math.max(earlyGrowth, 0.1),
      goal: "≤ 1.5× (levels off)",
      pass: lateGrowth <= Math.max(1.5 * earlyGrowth, earlyGrowth + 2),
      baselineName: `after the first ${STALL_SECONDS / 10} s`,
    });
  } finally {
    await stack.close();
  }
}

if (Deno.args[0] === "relay-memory") {
  await relayMemory();
} else if (Deno.args[0] === "trace-calls") {
  await storageOsTraceUnderLoad();
} else {
  await traceUnderLoad();
  await storageOsTraceUnderLoad();
  // The memory part runs in a child process that may force collections, so garbage is not mistaken for growth.
  const child = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", new URL(import.meta.url).pathname, "relay-memory"],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  await Deno.stdout.write(child.stdout);
  await auditSearch("SQLite");
  await auditSearch("PostgreSQL");
}
