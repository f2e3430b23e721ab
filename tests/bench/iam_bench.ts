/**
 * IAM benchmarks (issue 4), with 5,000 users (in 10 groups) and 500 policies on the embedded server:
 *  - server time of the /users page and of GET /api/v1/users, p50 and p99, against the storage server's own
 *    list-users admin call measured in the same run (what the console adds on top of the storage);
 *  - JS gzip shipped on /users and /policies/{name} (budget ≤ 150 KB each) against the original console's 614 KB.
 * Run: npx -y deno@2.9.6 task bench iam
 */
import { addCannedPolicy, addUser, listUsers, setPolicy, updateGroupMembers } from "../../server/s3/admin/iam.ts";
import { signInAsRoot, startStack } from "../helpers.ts";
import { assetBytes } from "./assets.ts";
import { emit, percentile } from "./measure.ts";

const USERS = 5000;
const POLICIES = 500;
const ORIGINAL_CONSOLE_JS = 614 * 1024;

async function inBatches(count: number, size: number, work: (i: number) => Promise<void>) {
  for (let i = 0; i < count; i += size) await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => work(i + j)));
}

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
  const admin = stack.admin;
  await inBatches(POLICIES, 16, (i) =>
    addCannedPolicy(admin, `policy-${String(i).padStart(3, "0")}`, JSON.stringify({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: [`arn:aws:s3:::bucket-${i}/*`] }],
    })));
  await inBatches(USERS, 16, async (i) => {
    const name = `user-${String(i).padStart(5, "0")}`;
    await addUser(admin, name, `secret-${i}-long`);
    await setPolicy(admin, [`policy-${String(i % POLICIES).padStart(3, "0")}`], name, false);
  });
  for (let g = 0; g < 10; g++) {
    const members = Array.from({ length: USERS / 10 }, (_, k) => `user-${String(g * (USERS / 10) + k).padStart(5, "0")}`);
    await updateGroupMembers(admin, { group: `group-${g}`, members, isRemove: false });
  }

  const client = await signInAsRoot(stack);
  const storageList = await timed(20, async () => void await listUsers(admin));
  const api = await timed(20, async () => {
    const res = await client.request("GET", "/api/v1/users");
    const body = await res.json();
    if (body.users.length !== USERS) throw new Error(`listed ${body.users.length}`);
  });
  const page = await timed(20, async () => {
    const res = await client.request("GET", "/users");
    await res.text();
    if (res.status !== 200) throw new Error(`/users answered ${res.status}`);
  });
  const baseline = `storage list-users p50 ${storageList.p50.toFixed(1)} ms`;
  emit({ name: "GET /api/v1/users p50 (5,000 users)", deck: api.p50, baseline: storageList.p50, unit: "ms", ratio: api.p50 / storageList.p50, goal: "(reported)", pass: true, baselineName: "storage list-users admin call" });
  emit({ name: "GET /api/v1/users p99 (5,000 users)", deck: api.p99, baseline: storageList.p99, unit: "ms", ratio: api.p99 / storageList.p99, goal: "(reported)", pass: true, baselineName: "storage list-users admin call, p99" });
  emit({ name: "/users page p50 (5,000 users)", deck: page.p50, baseline: storageList.p50, unit: "ms", ratio: page.p50 / storageList.p50, goal: "(reported)", pass: true, baselineName: baseline });
  emit({ name: "/users page p99 (5,000 users)", deck: page.p99, baseline: storageList.p99, unit: "ms", ratio: page.p99 / storageList.p99, goal: "(reported)", pass: true, baselineName: "storage list-users admin call, p99" });

  for (const path of ["/users", "/policies/policy-001"]) {
    const html = await (await client.request("GET", path)).text();
    const { js } = await assetBytes(stack.consoleUrl, html);
    emit({ name: `JS gzip, ${path}`, deck: js / 1024, baseline: ORIGINAL_CONSOLE_JS / 1024, unit: "KB", ratio: js / ORIGINAL_CONSOLE_JS, goal: "≤ 150 KB", pass: js <= 150 * 1024, baselineName: "original console, every page" });
  }
} finally {
  await stack.close();
}
