/**
 * Bucket benchmarks (issue 5), with 2,000 buckets on the embedded server:
 *  - server time of the /buckets page and of GET /api/v1/buckets, p50 and p99, against the storage server's
 *    own account-info call (the list's source) measured in the same run;
 *  - JS gzip shipped on /buckets and on a bucket's summary (budget ≤ 150 KB) against the original's 614 KB.
 * Run: npx -y deno@2.9.6 task bench buckets
 */
import { accountInfo } from "../../server/lib/s3/admin/info.ts";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import { signInAsRoot, startStack } from "../../tests/helpers.ts";
import { assetBytes, emitJsBudget } from "./assets.ts";
import { emitLatency, inBatches, timed } from "./measure.ts";

const BUCKETS = 2000;

const stack = await startStack();
try {
  await inBatches(BUCKETS, 16, (i) => makeBucket(stack.admin, `bucket-${String(i).padStart(4, "0")}`));
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
  emitLatency("GET /api/v1/buckets", "2,000 buckets", api, storage, "storage account-info call");
  emitLatency("/buckets page", "2,000 buckets", page, storage, "storage account-info call");
  for (const path of ["/buckets", "/buckets/bucket-0001/summary"]) {
    const html = await (await client.request("GET", path)).text();
    const { js } = await assetBytes(stack.consoleUrl, html);
    emitJsBudget(path, js, 150);
  }
} finally {
  await stack.close();
}
