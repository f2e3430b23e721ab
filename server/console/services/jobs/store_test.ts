/** The job store forgets ended jobs after their keep time, with their items, and never a running one. */
import assert from "node:assert/strict";
import { type JobRow, JobStore } from "./store.ts";

const DAY = 24 * 3600 * 1000;

function job(id: string, state: JobRow["state"], finished: number | null): JobRow {
  return {
    id,
    owner: "alice",
    spec: { kind: "copy", source: { bucket: "a", base: "", names: ["x/"] }, conflict: "skip" },
    state,
    reason: null,
    created: 0,
    finished,
    listIndex: 0,
    listAfter: "",
    listed: true,
    credentials: "",
  };
}

Deno.test("ended jobs older than the keep time are forgotten with their items; running ones stay", async () => {
  const dir = await Deno.makeTempDir();
  const store = new JobStore(`${dir}/jobs.db`);
  try {
    const now = 100 * DAY;
    store.insertJob(job("old-done", "done", now - 8 * DAY));
    store.insertJob(job("old-running", "running", null));
    store.insertJob(job("old-waiting", "waiting", null));
    store.insertJob(job("recent-stopped", "stopped", now - DAY));
    for (const id of ["old-done", "old-running", "recent-stopped"]) {
      store.addListed(id, [{ key: "x/1", size: 1, etag: "e" }], { index: 1, after: "", listed: true });
    }
    assert.deepEqual(store.forgetEndedBefore(now - 7 * DAY), ["old-done"]);
    assert.deepEqual(store.jobs().map((j) => j.id).sort(), ["old-running", "old-waiting", "recent-stopped"]);
    assert.deepEqual(store.counts("old-done"), [], "its items are gone too");
    assert.equal(store.unfinished("old-running").length, 1, "a running job keeps its items");
    assert.deepEqual(store.forgetEndedBefore(now - 7 * DAY), [], "nothing more to forget");
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
