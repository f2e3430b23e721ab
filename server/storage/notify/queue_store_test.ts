import assert from "node:assert/strict";
import { QueueStore } from "./queue_store.ts";

Deno.test("queue store: events come back in order, survive a reopen, and leave once acknowledged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deck-queue-" });
  try {
    const store = await QueueStore.open(dir, 100);
    assert.equal(await store.append(['{"n":1}', '{"n":2}']), 0);
    assert.equal(await store.append(['{"n":3}']), 0);
    assert.deepEqual(await store.peek(2), ['{"n":1}', '{"n":2}']);
    await store.ack(1);
    await store.close();

    const reopened = await QueueStore.open(dir, 100);
    assert.equal(reopened.length, 2, "the acknowledged event is gone, the others stayed");
    assert.deepEqual(await reopened.peek(10), ['{"n":2}', '{"n":3}']);
    await reopened.ack(2);
    assert.equal(reopened.length, 0);
    await reopened.close();
    assert.equal(
      (await QueueStore.open(dir, 100).then(async (s) => (await s.close(), s))).length,
      0,
      "nothing is delivered twice after a reopen",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("queue store: the limit refuses (and reports) what does not fit; a torn last line is dropped at open", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deck-queue-" });
  try {
    const store = await QueueStore.open(dir, 3);
    assert.equal(await store.append(["a", "b"]), 0);
    assert.equal(await store.append(["c", "d", "e"]), 2, "two events over the limit are refused");
    assert.deepEqual(await store.peek(5), ["a", "b", "c"]);
    await store.close();
    // A crash in the middle of an append leaves a line without its newline.
    const segment = [...Deno.readDirSync(dir)].find((e) => e.name.endsWith(".log"))!.name;
    await Deno.writeTextFile(`${dir}/${segment}`, '{"cut', { append: true });
    const reopened = await QueueStore.open(dir, 10);
    assert.deepEqual(await reopened.peek(10), ["a", "b", "c"]);
    assert.equal(await reopened.append(["f"]), 0);
    assert.deepEqual(await reopened.peek(10), ["a", "b", "c", "f"], "appends continue after the cut");
    await reopened.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
