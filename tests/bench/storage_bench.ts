/**
 * Embedded storage benchmarks, all in one run against the same disk:
 *  - PUT and GET of a 256 MiB object vs writing/reading the same bytes with Deno's file API (goal ≥ 50%);
 *  - 2,000 PUTs of 4 KiB and a LIST of 10,000 keys vs s3rver as a peer (goal ≥ 2x its ops/s);
 *  - peak RSS while uploading 1 GiB vs idle (goal: within 64 MB).
 * Run: npx -y deno@2.9.6 task bench
 */
import S3rver from "s3rver";
import { S3Client } from "../../server/s3/client.ts";
import { getObject, makeBucket, putObject } from "../../server/s3/mod.ts";
import { children, childText, parseXml } from "../../server/s3/xml.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { emit, freePort, rssOf } from "./measure.ts";

const MiB = 1024 * 1024;

function pattern(size: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(MiB).map((_, i) => i & 0xff);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(MiB, size - sent);
      sent += n;
      controller.enqueue(n === MiB ? chunk : chunk.subarray(0, n));
    },
  });
}

async function drain(stream: ReadableStream<Uint8Array> | null): Promise<number> {
  let n = 0;
  if (stream) for await (const c of stream) n += c.length;
  return n;
}

const dir = await Deno.makeTempDir({ prefix: "deck-bench-" });
try {
  // 1. Large object throughput vs the file API.
  const size = 256 * MiB;
  const fileStart = performance.now();
  const file = await Deno.open(`${dir}/plain.bin`, { write: true, create: true });
  await pattern(size).pipeTo(file.writable);
  const sync = await Deno.open(`${dir}/plain.bin`, { read: true });
  await sync.sync();
  sync.close();
  const fileWrite = size / MiB / ((performance.now() - fileStart) / 1000);
  const readStart = performance.now();
  await drain((await Deno.open(`${dir}/plain.bin`)).readable);
  const fileRead = size / MiB / ((performance.now() - readStart) / 1000);
  await Deno.remove(`${dir}/plain.bin`);

  const storage = await startEmbeddedStorage({ dataDir: `${dir}/deck`, port: 0 });
  const deck = new S3Client({ endpoint: storage.url, credentials: storage.root });
  await makeBucket(deck, "bench");
  const putStart = performance.now();
  await putObject(deck, "bench", "big", pattern(size), { size });
  const deckPut = size / MiB / ((performance.now() - putStart) / 1000);
  const getStart = performance.now();
  await drain((await getObject(deck, "bench", "big")).body);
  const deckGet = size / MiB / ((performance.now() - getStart) / 1000);
  emit({ name: "PUT 256 MiB", deck: deckPut, baseline: fileWrite, unit: "MiB/s", ratio: deckPut / fileWrite, goal: "≥ 50% of file write", pass: deckPut / fileWrite >= 0.5, baselineName: "Deno file write + fsync" });
  emit({ name: "GET 256 MiB", deck: deckGet, baseline: fileRead, unit: "MiB/s", ratio: deckGet / fileRead, goal: "≥ 50% of file read", pass: deckGet / fileRead >= 0.5, baselineName: "Deno file read" });

  // 2. Small objects and listing vs s3rver.
  const peerDir = `${dir}/s3rver`;
  await Deno.mkdir(peerDir);
  const peerServer = new S3rver({ port: await freePort(), address: "127.0.0.1", silent: true, directory: peerDir });
  const info = await peerServer.run();
  const peer = new S3Client({ endpoint: `http://127.0.0.1:${info.port}`, credentials: { accessKey: "S3RVER", secretKey: "S3RVER" } });
  await makeBucket(peer, "bench");
  const small = new Uint8Array(4096).fill(7);
  const putMany = async (client: S3Client, count: number, prefix: string) => {
    const started = performance.now();
    for (let i = 0; i < count; i += 8) {
      await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, j) => putObject(client, "bench", `${prefix}${String(i + j).padStart(6, "0")}`, small)));
    }
    return performance.now() - started;
  };
  // Four alternating rounds of 500 each, so drift in the machine's load hits both servers alike.
  let deckMs = 0;
  let peerMs = 0;
  for (let round = 0; round < 4; round++) {
    deckMs += await putMany(deck, 500, `small/${round}/`);
    peerMs += await putMany(peer, 500, `small/${round}/`);
  }
  const deckPuts = 2000 / (deckMs / 1000);
  const peerPuts = 2000 / (peerMs / 1000);
  emit({ name: "2,000 PUTs of 4 KiB", deck: deckPuts, baseline: peerPuts, unit: "ops/s", ratio: deckPuts / peerPuts, goal: "≥ 2x s3rver", pass: deckPuts / peerPuts >= 2, baselineName: "s3rver 3.7.1" });
  await putMany(deck, 8000, "more/");
  await putMany(peer, 8000, "more/");
  // ListObjects v1 with markers for both: s3rver's v2 continuation tokens use a cipher Deno lacks.
  const listAll = async (client: S3Client) => {
    const started = performance.now();
    let marker = "";
    let count = 0;
    while (true) {
      const root = parseXml(await client.text({ method: "GET", bucket: "bench", query: { marker, "max-keys": 1000 } }));
      const keys = children(root, "Contents").map((c) => childText(c, "Key") ?? "");
      count += keys.length;
      if (childText(root, "IsTruncated") !== "true" || keys.length === 0) break;
      marker = keys[keys.length - 1];
    }
    if (count < 10_000) throw new Error(`listed ${count}`);
    return count / ((performance.now() - started) / 1000);
  };
  const deckList = await listAll(deck);
  const peerList = await listAll(peer);
  emit({ name: "LIST 10,000 keys", deck: deckList, baseline: peerList, unit: "keys/s", ratio: deckList / peerList, goal: "≥ 2x s3rver", pass: deckList / peerList >= 2, baselineName: "s3rver 3.7.1" });
  await peerServer.close();
  await storage.close();

  // 3. Memory while uploading 1 GiB to a separate storage process.
  const port = await freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../server/storage/standalone.ts", import.meta.url).pathname, "--data-dir", `${dir}/rss`, "--address", `127.0.0.1:${port}`],
    env: { MINIO_ROOT_USER: "benchroot", MINIO_ROOT_PASSWORD: "bench-secret-1" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("listening")) text += (await reader.read()).value ?? "";
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  const remote = new S3Client({ endpoint: `http://127.0.0.1:${port}`, credentials: { accessKey: "benchroot", secretKey: "bench-secret-1" } });
  await makeBucket(remote, "rss");
  await new Promise((r) => setTimeout(r, 500));
  const idle = await rssOf(child.pid);
  let peak = idle;
  const sampler = setInterval(async () => (peak = Math.max(peak, await rssOf(child.pid).catch(() => 0))), 20);
  await putObject(remote, "rss", "gig", pattern(1024 * MiB), { size: 1024 * MiB });
  clearInterval(sampler);
  child.kill("SIGTERM");
  await child.status;
  const growth = (peak - idle) / MiB;
  emit({ name: "Peak RSS uploading 1 GiB", deck: peak / MiB, baseline: idle / MiB, unit: "MiB", ratio: peak / idle, goal: "peak within 64 MB of idle", pass: growth <= 64, baselineName: "idle storage process" });
} finally {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
