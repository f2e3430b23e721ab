/**
 * /ws/jobs over a real socket: refused without a session, then the user's own jobs as they change (the
 * first message at once, a running job's progress, its end), and nothing of another user's jobs.
 */
import assert from "node:assert/strict";
import type { JobsMessage, JobView } from "../../server/lib/contract/jobs.ts";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { createUser, signIn, signInAsRoot, startStack } from "../helpers.ts";
import { openSocket } from "./socket_client.ts";

Deno.test("ws/jobs: the user's own jobs, live", async () => {
  const stack = await startStack({ jobs: { concurrency: 1 } });
  try {
    const anonymous = await fetch(`${stack.consoleUrl}/ws/jobs`, {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();

    await makeBucket(stack.admin, "live");
    for (let i = 0; i < 200; i += 20) {
      await Promise.all(
        Array.from(
          { length: 20 },
          (_, j) => putObject(stack.admin, "live", `in/ドキュメント ${i + j}.txt`, "x"),
        ),
      );
    }
    const root = await signInAsRoot(stack);
    await createUser(stack, "other", "other-secret-1", [{ name: "readwrite" }]);
    const other = await signIn(stack, "other", "other-secret-1");
    const rootSocket = await openSocket(stack, root.cookie, "/ws/jobs");
    const otherSocket = await openSocket(stack, other.cookie, "/ws/jobs");
    try {
      assert.deepEqual((await rootSocket.next()) as unknown as JobsMessage, { type: "jobs", jobs: [] });
      const job = await root.json<JobView>("POST", "/api/v1/jobs", {
        kind: "copy",
        source: { bucket: "live", base: "in/", names: ["in/"] },
        destination: { bucket: "live", prefix: "out/" },
      }, 201);
      const mine = (m: Record<string, unknown>) =>
        (m as unknown as JobsMessage).jobs?.find((j) => j.id === job.id);
      const progress = mine(await rootSocket.next((m) => (mine(m)?.done_objects ?? 0) > 0))!;
      assert.equal(progress.kind, "copy");
      const done = mine(await rootSocket.next((m) => mine(m)?.state === "done"))!;
      assert.equal(done.done_objects, 200);
      assert.equal(done.listed, true);
      assert.ok(
        rootSocket.messages.length < 60,
        `updates are throttled: ${rootSocket.messages.length} messages`,
      );
      assert.deepEqual(otherSocket.messages, [{ type: "jobs", jobs: [] }], "another user sees none of it");
    } finally {
      rootSocket.close();
      otherSocket.close();
      await Promise.all([rootSocket.closed, otherSocket.closed]);
    }
  } finally {
    await stack.close();
  }
});
