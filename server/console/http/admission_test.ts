import assert from "node:assert/strict";
import { createAdmission } from "./admission.ts";

/** A piece of work the test finishes by hand; `started` says whether it has begun. */
function manual() {
  const done = Promise.withResolvers<string>();
  let started = false;
  return {
    work: () => {
      started = true;
      return done.promise;
    },
    get started() {
      return started;
    },
    finish: (value: string) => done.resolve(value),
    fail: (error: Error) => done.reject(error),
  };
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("at most `limit` requests work at once; the rest start in the order they came", async () => {
  const admission = createAdmission({ limit: 2, holdMs: 60_000 });
  const jobs = Array.from({ length: 5 }, manual);
  const results = jobs.map((job) => admission.run(job.work));
  await settle();
  assert.deepEqual(jobs.map((job) => job.started), [true, true, false, false, false]);
  assert.deepEqual(admission.state, { working: 2, waiting: 3 });
  jobs[1].finish("b");
  await settle();
  assert.deepEqual(jobs.map((job) => job.started), [true, true, true, false, false]);
  const refused = assert.rejects(results[0], /refused/);
  jobs[0].fail(new Error("refused"));
  await settle();
  assert.deepEqual(
    jobs.map((job) => job.started),
    [true, true, true, true, false],
    "a failure gives its place back",
  );
  for (const [i, job] of jobs.entries()) job.finish(String(i));
  await refused;
  assert.deepEqual(await Promise.all(results.slice(1)), ["b", "2", "3", "4"]);
  assert.deepEqual(admission.state, { working: 0, waiting: 0 });
});

Deno.test("a request that takes longer than holdMs goes on outside the count and lets the next one start", async () => {
  const admission = createAdmission({ limit: 1, holdMs: 20 });
  const slow = manual();
  const next = manual();
  const slowResult = admission.run(slow.work);
  const nextResult = admission.run(next.work);
  await settle();
  assert.equal(next.started, false);
  // No fixed wait: the next request starts when the slow one's place is given back.
  while (!next.started) await new Promise((resolve) => setTimeout(resolve, 5));
  next.finish("next");
  assert.equal(await nextResult, "next");
  slow.finish("slow");
  assert.equal(await slowResult, "slow");
  assert.deepEqual(
    admission.state,
    { working: 0, waiting: 0 },
    "the slow request's end did not give a place twice",
  );
});
