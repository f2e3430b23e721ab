/**
 * Live streams end when their session does, over real WebSockets against the embedded storage: a trace or
 * watch opened before sign-out, before the account was disabled (through the console or outside it), before
 * the session expired or before the account lost the stream's permission closes with the code the page
 * explains (4001 session ended, 4003 access removed), instead of delivering for as long as the tab is open.
 */
import assert from "node:assert/strict";
import { STREAM_CLOSE } from "../../server/lib/contract/tools.ts";
import { setPolicy, setUserStatus } from "../../server/lib/s3/admin/iam.ts";
import * as s3 from "../../server/lib/s3/mod.ts";
import { ConsoleClient, createUser, signIn, signInAsRoot, startStack, type TestStack } from "../helpers.ts";
import { type Opened, openSocket } from "./socket_client.ts";
import { within } from "../eventually.ts";

/** The close event, or a failure naming what did not happen within `ms` (an upper bound, not a wait). */
const closedWithin = (socket: Opened, ms: number, what: string): Promise<CloseEvent> =>
  within(`the stream to close ${what}`, socket.closed, ms);

/** A user allowed to trace and watch, signed in through the console, with a trace open. */
async function tracing(stack: TestStack, name: string): Promise<{ client: ConsoleClient; trace: Opened }> {
  await createUser(stack, name, `${name}-secret-1`, [{ name: "consoleAdmin" }]);
  const client = await signIn(stack, name, `${name}-secret-1`);
  const trace = await openSocket(stack, client.cookie, "/ws/trace?calls=s3&threshold=0&onlyErrors=no");
  // The stream is live: a request made now is delivered.
  await s3.putObject(stack.admin, "lifetime", `${name}.txt`, "x");
  await trace.next((m) => m.api === "s3.PutObject" && String(m.path).endsWith(`/${name}.txt`));
  return { client, trace };
}

Deno.test("live streams close when their session ends, with a code the page explains", async (t) => {
  const stack = await startStack();
  try {
    await s3.makeBucket(stack.admin, "lifetime");
    const root = await signInAsRoot(stack);
    // Open for the whole test: every check it goes through must leave a standing session's stream alone.
    const standing = await openSocket(stack, root.cookie, "/ws/trace?calls=s3&threshold=0&onlyErrors=no");

    await t.step("sign-out closes the trace with 4001", async () => {
      const { client, trace } = await tracing(stack, "leaver");
      const res = await client.request("POST", "/api/v1/logout");
      assert.equal(res.status, 200);
      await res.body?.cancel();
      const closed = await closedWithin(trace, 10_000, "after sign-out");
      assert.equal(closed.code, STREAM_CLOSE.sessionEnded);
      assert.equal(closed.reason, "session ended");
    });

    await t.step("disabling the user through the console closes its trace with 4001", async () => {
      const { trace } = await tracing(stack, "disabled-here");
      await root.json("PUT", "/api/v1/user?name=disabled-here", { status: "disabled", groups: [] }, 200);
      assert.equal((await closedWithin(trace, 10_000, "after disabling")).code, STREAM_CLOSE.sessionEnded);
    });

    await t.step("disabling the user outside the console (admin API) closes it too", async () => {
      const { trace } = await tracing(stack, "disabled-elsewhere");
      await setUserStatus(stack.admin, "disabled-elsewhere", "disabled");
      // Another replica's change is seen when the live answer (3 s) is renewed at the next check (2 s).
      assert.equal(
        (await closedWithin(trace, 15_000, "after mc-style disable")).code,
        STREAM_CLOSE.sessionEnded,
      );
    });

    await t.step("deleting the user closes its watch with 4001", async () => {
      await createUser(stack, "deleted", "deleted-secret-1", [{ name: "consoleAdmin" }]);
      const client = await signIn(stack, "deleted", "deleted-secret-1");
      const watch = await openSocket(stack, client.cookie, "/ws/watch/lifetime");
      await s3.putObject(stack.admin, "lifetime", "watched.txt", "x");
      await watch.next((m) => m.Path === "lifetime/watched.txt");
      const res = await root.request("DELETE", "/api/v1/user?name=deleted");
      assert.equal(res.status, 204, await res.text());
      assert.equal((await closedWithin(watch, 10_000, "after deleting")).code, STREAM_CLOSE.sessionEnded);
    });

    await t.step("losing the stream's permission closes it with 4003", async () => {
      const { trace } = await tracing(stack, "demoted");
      await setPolicy(stack.admin, ["readwrite"], "demoted", false);
      const closed = await closedWithin(trace, 15_000, "after the policy change");
      assert.equal(closed.code, STREAM_CLOSE.accessRemoved);
      assert.match(closed.reason, /admin:ServerTrace/);
    });

    await t.step("the stream of a session that stands was never closed and still delivers", async () => {
      await s3.putObject(stack.admin, "lifetime", "later.txt", "x");
      const ended = standing.closed.then((e) =>
        Promise.reject(new Error(`closed with ${e.code} ${e.reason}`))
      );
      await Promise.race([standing.next((m) => String(m.path).endsWith("/later.txt")), ended]);
      standing.close();
      assert.equal((await standing.closed).code, 1000, "closed by the test, not the console");
    });

    await t.step("an expired session's stream closes with 4001", async () => {
      const { trace } = await tracing(stack, "expiring");
      const realNow = stack.deps.now;
      // The console's clock moves past every session's lifetime (last step: the standing stream ends too);
      // the storage's credentials are still valid.
      stack.deps.now = () => Date.now() + stack.deps.config.sessionSeconds * 1000;
      try {
        const closed = await closedWithin(trace, 10_000, "after expiry");
        assert.equal(closed.code, STREAM_CLOSE.sessionEnded);
        assert.equal(closed.reason, "session expired");
      } finally {
        stack.deps.now = realNow;
      }
    });
  } finally {
    await stack.close();
  }
});
