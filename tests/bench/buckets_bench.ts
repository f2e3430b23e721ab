/**
 * Bucket benchmarks (issue 5), with 2,000 buckets on the embedded server:
 *  - server time of the /buckets page and of GET /api/v1/buckets, p50 and p99, against the storage server's
 *    own account-info call (the list's source) measured in the same run;
 *  - JS gzip shipped on /buckets and on a bucket's summary (budget ≤ 150 KB) against the original's 614 KB.
 * Run: npx -y deno@2.9.6 task bench buckets
 */
import { accountInfo } from "../../server/s3/admin/info.ts";
import { makeBucket } from "../../server/s3/mod.ts";
import { signInAsRoot, startStack } from "../helpers.ts";
import { assetBytes } from "./assets.ts";
import { emit, percentile } from "./measure.ts";

const BUCKETS = 2000;
const ORIGINAL_CONSOLE_JS = 614 * 1024;

async function timed(samples: number, work: () => Promise<void>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const stack = await startStack();
try {
  for (let i = 0; i < BUCKETS; i += 16) {
    await Promise.all(Array.from({ length: Math.min(16, BUCKETS - i) }, (_, j) => makeBucket(stack.admin, `bucket-${String(i + j).padStart(4, "0")}`)));
  }
  const client = await signInAsRoot(stack);
  const storage = await timed(30, async () => void await accountInfo(stack.admin));
  const api = await timed(30, async () => {
    const body = await (await client.request("GET", "/api/v1/buckets")).json();
    if (body.buckets.length !== BUCKETS) throw new Error(`listed ${body.buckets.length}`);
  });
  const page = await timed(30, async () => {
    const res = await client.request("GET", "/buckets");
    await res.text();
    if (res.status !== 200) throw new Error(`/buckets answered ${res.status}`);
  });
  const baseline = "storage account-info call";
  emit({ name: "GET /api/v1/buckets p50 (2,000 buckets)", deck: api.p50, baseline: storage.p50, unit: "ms", ratio: api.p50 / storage.p50, goal: "(reported)", pass: true, baselineName: baseline });
  emit({ name: "GET /api/v1/buckets p99 (2,000 buckets)", deck: api.p99, baseline: storage.p99, unit: "ms", ratio: api.p99 / storage.p99, goal: "(reported)", pass: true, baselineName: `${baseline}, p99` });
  emit({ name: "/buckets page p50 (2,000 buckets)", deck: page.p50, baseline: storage.p50, unit: "ms", ratio: page.p50 / storage.p50, goal: "(reported)", pass: true, baselineName: baseline });
  emit({ name: "/buckets page p99 (2,000 buckets)", deck: page.p99, baseline: storage.p99, unit: "ms", ratio: page.p99 / storage.p99, goal: "(reported)", pass: true, baselineName: `${baseline}, p99` });
  for (const path of ["/buckets", "/buckets/bucket-0001/summary"]) {
    const html = await (await client.request("GET", path)).text();
    const { js } = await assetBytes(stack.consoleUrl, html);
    emit({ name: `JS gzip, ${path}`, deck: js / 1024, baseline: ORIGINAL_CONSOLE_JS / 1024, unit: "KB", ratio: js / ORIGINAL_CONSOLE_JS, goal: "≤ 150 KB", pass: js <= 150 * 1024, baselineName: "original console, every page" });
  }
} finally {
  await stack.close();
}
