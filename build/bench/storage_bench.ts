/**
 * Embedded storage benchmarks, all in one run against the same disk:
 *  - PUT and GET of a 256 MiB object vs writing/reading the same bytes with Deno's file API (goal ≥ 50%), the
 *    storage running as its own process (as beside real clients) and the client here; beside them, the rate
 *    of one MD5 stream over the same bytes (reported: a PUT's ETag is their MD5, so it bounds any PUT);
 *  - 2,000 PUTs of 4 KiB and a LIST of 10,000 keys vs s3rver as a peer (goal ≥ 2x its ops/s);
 *  - peak RSS while uploading 1 GiB vs idle (goal: within 64 MB).
 * Run: npx -y deno@2.9.6 task bench
 */
import { createHash } from "node:crypto";
import S3rver from "s3rver";
import { S3Client } from "../../server/lib/s3/client.ts";
import { deleteObject, getObject, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { children, childText, parseXml } from "../../server/lib/s3/xml.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { spawnStorage } from "../../tests/storage_process.ts";
import { drain, emit, freePort, pattern, percentile, rssOf } from "./measure.ts";

const MiB = 1024 * 1024;

/** The storage as its own process, as it runs beside real clients. */
async function storageProcess(dataDir: string) {
  const root = { accessKey: "benchroot", secretKey: "bench-secret-1" };
  const { child, url } = await spawnStorage(dataDir, await freePort(), root);
  return { child, client: new S3Client({ endpoint: url, credentials: root }) };
}

const median = (values: number[]) => percentile(values, 50);
const rate = (bytes: number, startedAt: number) => bytes / MiB / ((performance.now() - startedAt) / 1000);

const dir = await Deno.makeTempDir({ prefix: "deck-bench-" });
try {
  // 1. Memory while uploading 1 GiB, measured first so idle is a storage process that has served nothing.
  const { child, client: remote } = await storageProcess(`${dir}/deck`);
  await makeBucket(remote, "bench");
  await new Promise((r) => setTimeout(r, 500));
  const idle = await rssOf(child.pid);
  let peak = idle;
  const sampler = setInterval(async () => (peak = Math.max(peak, await rssOf(child.pid).catch(() => 0))), 20);
  await putObject(remote, "bench", "gig", pattern(1024 * MiB), { size: 1024 * MiB });
  clearInterval(sampler);
  await deleteObject(remote, "bench", "gig");
  const growth = (peak - idle) / MiB;

  // 2. Large object throughput vs the file API: alternating rounds, each file removed before the next, so
  // both sides start from the same page-cache state; the medians are compared.
  const size = 256 * MiB;
  const samples = {
    fileWrite: [] as number[],
    fileRead: [] as number[],
    put: [] as number[],
    get: [] as number[],
    md5: [] as number[],
  };
  for (let round = 0; round < 5; round++) {
    let started = performance.now();
    const file = await Deno.open(`${dir}/plain.bin`, { write: true, create: true });
    await pattern(size).pipeTo(file.writable);
    const sync = await Deno.open(`${dir}/plain.bin`, { read: true });
    await sync.sync();
    sync.close();
    samples.fileWrite.push(rate(size, started));
    started = performance.now();
    await drain((await Deno.open(`${dir}/plain.bin`)).readable);
    samples.fileRead.push(rate(size, started));
    await Deno.remove(`${dir}/plain.bin`);
    // A PUT's ETag is the MD5 of its bytes, computed in one stream: no upload can outrun this.
    started = performance.now();
    const md5 = createHash("md5");
    for await (const chunk of pattern(size)) md5.update(chunk);
    md5.digest("hex");
    samples.md5.push(rate(size, started));

    started = performance.now();
    await putObject(remote, "bench", "big", pattern(size), { size });
    samples.put.push(rate(size, started));
    started = performance.now();
    await drain((await getObject(remote, "bench", "big")).body);
    samples.get.push(rate(size, started));
    await deleteObject(remote, "bench", "big");
  }
  child.kill("SIGTERM");
  await child.status;
  const [fileWrite, fileRead, deckPut, deckGet, md5Rate] = [
    samples.fileWrite,
    samples.fileRead,
    samples.put,
    samples.get,
    samples.md5,
  ].map(median);
  emit({
    name: "PUT 256 MiB (median of 5)",
    deck: deckPut,
    baseline: fileWrite,
    unit: "MiB/s",
    ratio: deckPut / fileWrite,
    goal: "≥ 50% of file write",
    pass: deckPut / fileWrite >= 0.5,
    baselineName: "Deno file write + fsync",
  });
  emit({
    name: "MD5 of 256 MiB, one stream (median of 5)",
    deck: md5Rate,
    baseline: fileWrite,
    unit: "MiB/s",
    ratio: md5Rate / fileWrite,
    goal: "(reported: bounds PUT)",
    pass: true,
    baselineName: "Deno file write + fsync",
  });
  emit({
    name: "GET 256 MiB (median of 5)",
    deck: deckGet,
    baseline: fileRead,
    unit: "MiB/s",
    ratio: deckGet / fileRead,
    goal: "≥ 50% of file read",
    pass: deckGet / fileRead >= 0.5,
    baselineName: "Deno file read",
  });
  emit({
    name: "Peak RSS uploading 1 GiB",
    deck: peak / MiB,
    baseline: idle / MiB,
    unit: "MiB",
    ratio: peak / idle,
    goal: "peak within 64 MB of idle",
    pass: growth <= 64,
    baselineName: "idle storage process",
  });

  const storage = await startEmbeddedStorage({ dataDir: `${dir}/deck-small`, port: 0 });
  const deck = new S3Client({ endpoint: storage.url, credentials: storage.root });
  await makeBucket(deck, "bench");

  // 2. Small objects and listing vs s3rver.
  const peerDir = `${dir}/s3rver`;
  await Deno.mkdir(peerDir);
  const peerServer = new S3rver({
    port: await freePort(),
    address: "127.0.0.1",
    silent: true,
    directory: peerDir,
  });
  const info = await peerServer.run();
  const peer = new S3Client({
    endpoint: `http://127.0.0.1:${info.port}`,
    credentials: { accessKey: "S3RVER", secretKey: "S3RVER" },
  });
  await makeBucket(peer, "bench");
  const small = new Uint8Array(4096).fill(7);
  const putMany = async (client: S3Client, count: number, prefix: string) => {
    const started = performance.now();
    for (let i = 0; i < count; i += 8) {
      await Promise.all(
        Array.from(
          { length: Math.min(8, count - i) },
          (_, j) => putObject(client, "bench", `${prefix}${String(i + j).padStart(6, "0")}`, small),
        ),
      );
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
  emit({
    name: "2,000 PUTs of 4 KiB",
    deck: deckPuts,
    baseline: peerPuts,
    unit: "ops/s",
    ratio: deckPuts / peerPuts,
    goal: "≥ 2x s3rver",
    pass: deckPuts / peerPuts >= 2,
    baselineName: "s3rver 3.7.1",
  });
  await putMany(deck, 8000, "more/");
  await putMany(peer, 8000, "more/");
  // ListObjects v1 with markers for both: s3rver's v2 continuation tokens use a cipher Deno lacks.
  const listAll = async (client: S3Client) => {
    const started = performance.now();
    let marker = "";
    let count = 0;
    while (true) {
      const root = parseXml(
        await client.text({ method: "GET", bucket: "bench", query: { marker, "max-keys": 1000 } }),
      );
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
  emit({
    name: "LIST 10,000 keys",
    deck: deckList,
    baseline: peerList,
    unit: "keys/s",
    ratio: deckList / peerList,
    goal: "≥ 2x s3rver",
    pass: deckList / peerList >= 2,
    baselineName: "s3rver 3.7.1",
  });
  await peerServer.close();
  await storage.close();
} finally {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
