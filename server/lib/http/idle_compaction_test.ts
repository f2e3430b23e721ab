import assert from "node:assert/strict";
import { compactWhenIdle, type HeapFigures, worthCollecting } from "./idle_compaction.ts";

const MiB = 2 ** 20;
const limits = { grownBytes: 2 * MiB, quietBytes: 256 * 1024 };

Deno.test("a thread that grew and then went quiet is worth collecting", () => {
  assert.ok(worthCollecting(40 * MiB, { committed: 60 * MiB, used: 40 * MiB + 1000 }, 50 * MiB, limits));
});

Deno.test("a thread still allocating is not collected, however much it grew", () => {
  assert.ok(!worthCollecting(40 * MiB, { committed: 90 * MiB, used: 43 * MiB }, 50 * MiB, limits));
  // A young-generation collection between two checks is work going on too.
  assert.ok(!worthCollecting(40 * MiB, { committed: 90 * MiB, used: 30 * MiB }, 50 * MiB, limits));
});

Deno.test("a quiet thread that has not grown since its last collection is left alone", () => {
  assert.ok(!worthCollecting(40 * MiB, { committed: 51 * MiB, used: 40 * MiB }, 50 * MiB, limits));
});

Deno.test("after a burst of garbage the heap is collected once and shrinks", async () => {
  const collected = Promise.withResolvers<{ before: HeapFigures; after: HeapFigures }>();
  const compaction = compactWhenIdle({
    checkMs: 20,
    onCollected: (before, after) => collected.resolve({ before, after }),
  });
  // Only so that a broken compaction fails instead of hanging the suite.
  const deadline = setTimeout(() => collected.reject(new Error("no collection within 30 s")), 30_000);
  try {
    // A burst: 40 MiB of short-lived arrays, then nothing.
    let kept = 0;
    for (let i = 0; i < 40; i++) kept += new Array(128 * 1024).fill(i).length;
    assert.equal(kept, 40 * 128 * 1024);
    const first = await collected.promise;
    assert.equal(compaction.collections, 1);
    assert.ok(first.after.used < first.before.used, `used ${first.before.used} → ${first.after.used}`);
    assert.ok(first.after.committed <= first.before.committed);
  } finally {
    clearTimeout(deadline);
    compaction.stop();
  }
});
