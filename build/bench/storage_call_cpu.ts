/**
 * What one small S3 call costs the embedded storage: CPU time of the storage process (all its threads) per
 * GetBucketPolicy on a bucket without one (a 404, as most of a bucket Summary's reads are), with an audit
 * webhook configured as Deck configures its own log search, and without. A sink here takes the audit batches.
 * Each call is 15,000 requests from 8 concurrent callers after 3,000 to warm up; rounds alternate between
 * checkouts so that a loaded machine weighs on each alike.
 * Run: npx -y deno@2.9.6 run -A build/bench/storage_call_cpu.ts
 * Against an earlier tree as well: DECK_COMPARE_ROOT=/path/to/other/checkout (same command).
 */
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import { setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { spawnStorage } from "../../tests/storage_process.ts";
import { freePort, threadsCpuMs } from "./measure.ts";

const ROUNDS = 3;
const WARM_CALLS = 3000;
const CALLS = 15000;
const CONCURRENCY = 8;
const root = { accessKey: "benchroot", secretKey: "bench-secret-123456" };

const sink = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
  await request.arrayBuffer();
  return new Response("ok");
});

/** Storage CPU µs per call of the checkout at `checkout`. */
async function measure(checkout: string, audited: boolean): Promise<number> {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-call-cpu-" });
  const { child: storage, url } = await spawnStorage(dataDir, await freePort(), root, {}, { checkout });
  try {
    const client = new S3Client({ endpoint: url, credentials: root });
    if (audited) {
      await setConfigKV(
        client,
        `audit_webhook:bench enable=on endpoint=http://127.0.0.1:${sink.addr.port}/ batch_size=100`,
      );
    }
    await makeBucket(client, "bench");
    const calls = async (count: number) => {
      let left = count;
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) {
          const res = await client.send({
            method: "GET",
            bucket: "bench",
            query: { policy: "" },
            allow: [404],
          });
          await res.body?.cancel();
        }
      }));
    };
    await calls(WARM_CALLS);
    const before = threadsCpuMs(storage.pid);
    await calls(CALLS);
    const after = threadsCpuMs(storage.pid);
    return Math.round(((after.total - before.total) / CALLS) * 1000);
  } finally {
    storage.kill();
    await storage.status;
    await Deno.remove(dataDir, { recursive: true });
  }
}

const checkouts: [string, string][] = [["this tree", new URL("../../", import.meta.url).pathname]];
const other = Deno.env.get("DECK_COMPARE_ROOT");
if (other) checkouts.unshift([other, other]);
const results = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, path] of checkouts) {
    for (const audited of [true, false]) {
      const key = `${name}, ${audited ? "audited" : "no audit target"}`;
      results.set(key, [...(results.get(key) ?? []), await measure(path, audited)]);
    }
  }
}
for (const [key, values] of results) {
  console.log(`storage CPU per GetBucketPolicy 404 (${key}): ${values.join(", ")} µs`);
}
await sink.shutdown();
