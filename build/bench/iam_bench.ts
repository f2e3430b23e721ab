/**
 * IAM benchmarks (issue 4), with 5,000 users (in 10 groups) and 500 policies on the embedded server:
 *  - server time of the /users page and of GET /api/v1/users, p50 and p99, against the storage server's own
 *    list-users admin call measured in the same run (what the console adds on top of the storage);
 *  - JS gzip shipped on /users and /policies/{name} (budget ≤ 150 KB each) against the original console's 614 KB.
 * Run: npx -y deno@2.9.6 task bench iam
 */
import {
  addCannedPolicy,
  addUser,
  listUsers,
  setPolicy,
  updateGroupMembers,
} from "../../server/lib/s3/admin/iam.ts";
import { signInAsRoot, startStack } from "../../tests/helpers.ts";
import { assetBytes, emitJsBudget } from "./assets.ts";
import { emitLatency, inBatches, timed } from "./measure.ts";

const USERS = 5000;
const POLICIES = 500;

const stack = await startStack();
try {
  const admin = stack.admin;
  await inBatches(
    POLICIES,
    16,
    (i) =>
      addCannedPolicy(
        admin,
        `policy-${String(i).padStart(3, "0")}`,
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [{
            Effect: "Allow",
            Action: ["s3:GetObject"],
            Resource: [`arn:aws:s3:::bucket-${i}/*`],
          }],
        }),
      ),
  );
  await inBatches(USERS, 16, async (i) => {
    const name = `user-${String(i).padStart(5, "0")}`;
    await addUser(admin, name, `secret-${i}-long`);
    await setPolicy(admin, [`policy-${String(i % POLICIES).padStart(3, "0")}`], name, false);
  });
  for (let g = 0; g < 10; g++) {
    const members = Array.from(
      { length: USERS / 10 },
      (_, k) => `user-${String(g * (USERS / 10) + k).padStart(5, "0")}`,
    );
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
  emitLatency("GET /api/v1/users", "5,000 users", api, storageList, "storage list-users admin call");
  emitLatency("/users page", "5,000 users", page, storageList, "storage list-users admin call");

  for (const path of ["/users", "/policies/policy-001"]) {
    const html = await (await client.request("GET", path)).text();
    const { js } = await assetBytes(stack.consoleUrl, html);
    emitJsBudget(path, js, 150);
  }
} finally {
  await stack.close();
}
