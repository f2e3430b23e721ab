/**
 * Small PUTs in the production topology (issue 25): Deck started as main.ts starts it, the storage on its own
 * thread and the built-in audit log search receiving every request's audit record, takes 2,000 PUTs of 4 KiB
 * (eight in flight) on its storage port; so does the same program with the log search off, and s3rver, the
 * peer storage_bench.ts compares with. Rounds alternate so drift in the machine's load hits all three alike.
 * Reported: each one's rate against s3rver's, and where Deck's CPU goes per PUT, thread by thread (the main
 * thread runs the console and the log search, the storage has its own), with the log search on against off.
 * The V8 profile of the same run is in docs/benchmark-notes.md with the command that records it.
 * Run: npx -y deno@2.9.6 task bench put_path
 */
import S3rver from "s3rver";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { type Deck, DECK_ROOT, ready, spawnDeck, stop } from "../../tests/deck_process.ts";
import { emit, freePort, loadAverage, threadsCpuMs, untilIdle } from "./measure.ts";

const ROUNDS = 10;
const PER_ROUND = 200;
const COUNT = ROUNDS * PER_ROUND;
const CONCURRENCY = 8;
const small = new Uint8Array(4096).fill(7);
const dir = await Deno.makeTempDir({ prefix: "deck-put-path-bench-" });

async function startDeck(name: string, env: Record<string, string>): Promise<Deck> {
  const deck = spawnDeck(`${dir}/${name}`, { console: await freePort(), storage: await freePort() }, {
    CONSOLE_LOG_LEVEL: "error",
    ...env,
  });
  await ready(deck);
  return deck;
}

/** Milliseconds `count` PUTs take, eight at a time. */
async function putMany(client: S3Client, count: number, prefix: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i += CONCURRENCY) {
    await Promise.all(
      Array.from(
        { length: Math.min(CONCURRENCY, count - i) },
        (_, j) => putObject(client, "bench", `${prefix}${String(i + j).padStart(6, "0")}`, small),
      ),
    );
  }
  return performance.now() - started;
}

const audited = await startDeck("audited", { CONSOLE_LOG_SEARCH_ADDRESS: "127.0.0.1:0" });
const unaudited = await startDeck("unaudited", { CONSOLE_LOG_SEARCH: "off" });
await Deno.mkdir(`${dir}/s3rver`);
const peerServer = new S3rver({
  port: await freePort(),
  address: "127.0.0.1",
  silent: true,
  directory: `${dir}/s3rver`,
});
const pids = { audited: audited.child.pid, unaudited: unaudited.child.pid };
try {
  const info = await peerServer.run();
  const clients = {
    audited: new S3Client({ endpoint: audited.storageUrl, credentials: DECK_ROOT }),
    unaudited: new S3Client({ endpoint: unaudited.storageUrl, credentials: DECK_ROOT }),
    peer: new S3Client({
      endpoint: `http://127.0.0.1:${info.port}`,
      credentials: { accessKey: "S3RVER", secretKey: "S3RVER" },
    }),
  };
  for (const client of Object.values(clients)) {
    await makeBucket(client, "bench");
    await putMany(client, 80, "warm/");
  }
  await untilIdle(pids.audited);
  await untilIdle(pids.unaudited);
  const cpuBefore = { audited: threadsCpuMs(pids.audited), unaudited: threadsCpuMs(pids.unaudited) };
  const ms = { audited: 0, unaudited: 0, peer: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of ["audited", "unaudited", "peer"] as const) {
      ms[side] += await putMany(clients[side], PER_ROUND, `small/${round}/`);
    }
  }
  // The audit records of the last PUTs are still on their way: their cost belongs to the PUTs.
  await untilIdle(pids.audited);
  await untilIdle(pids.unaudited);
  const perPut = (side: keyof typeof pids) => {
    const now = threadsCpuMs(pids[side]);
    const before = cpuBefore[side];
    const micros = (role: keyof typeof now) => ((now[role] - before[role]) / COUNT) * 1000;
    return { main: micros("main"), workers: micros("workers"), v8: micros("v8"), total: micros("total") };
  };
  const cpu = { audited: perPut("audited"), unaudited: perPut("unaudited") };
  const rate = (side: keyof typeof ms) => COUNT / (ms[side] / 1000);
  const load = loadAverage().toFixed(1);
  for (const [name, side] of [["", "audited"], [", log search off", "unaudited"]] as const) {
    emit({
      name: `2,000 PUTs of 4 KiB, production topology${name} (load ${load})`,
      deck: rate(side),
      baseline: rate("peer"),
      unit: "ops/s",
      ratio: rate(side) / rate("peer"),
      goal: "(reported; storage_bench holds the ≥ 2x goal)",
      pass: true,
      baselineName: "s3rver 3.7.1",
    });
  }
  const rows = [
    ["storage thread", "workers"],
    ["main thread (console, log search)", "main"],
    ["V8 helper threads (GC, compiler)", "v8"],
    ["whole process", "total"],
  ] as const;
  for (const [label, role] of rows) {
    emit({
      name: `Deck CPU per PUT, ${label}`,
      deck: cpu.audited[role],
      baseline: cpu.unaudited[role],
      unit: "µs",
      ratio: cpu.audited[role] / Math.max(cpu.unaudited[role], 1),
      goal: "(reported)",
      pass: true,
      baselineName: "the same, log search off",
    });
  }
} finally {
  await peerServer.close();
  await stop(audited);
  await stop(unaudited);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
