import assert from "node:assert/strict";
import { Hub } from "./hub.ts";

Deno.test("hub: sinks see every item in order; subscribers read what arrived after they subscribed", async () => {
  const hub = new Hub<number>();
  assert.equal(hub.active, false, "nobody listens yet");
  const seen: number[] = [];
  const stopSink = hub.sink((n) => seen.push(n));
  hub.publish(1);
  const stop = new AbortController();
  const sub = hub.subscribe({ signal: stop.signal, filter: (n) => n % 2 === 0 });
  hub.publish(2);
  hub.publish(3);
  hub.publish(4);
  assert.deepEqual(seen, [1, 2, 3, 4]);
  assert.deepEqual([(await sub.next()).value, (await sub.next()).value], [2, 4]);
  stop.abort();
  assert.equal((await sub.next()).done, true, "aborting ends the iteration");
  assert.equal(hub.subscriberCount, 0, "…and frees the subscriber");
  stopSink();
  assert.equal(hub.active, false);
});

Deno.test("hub: a reader that falls behind loses the oldest items, counted, never unbounded memory", async () => {
  const hub = new Hub<number>();
  const sub = hub.subscribe({ capacity: 3 });
  for (let n = 1; n <= 10; n++) hub.publish(n);
  assert.equal(sub.takeDropped(), 7);
  assert.equal(sub.takeDropped(), 0, "reading the count resets it");
  const kept = [];
  for (let i = 0; i < 3; i++) kept.push((await sub.next()).value);
  assert.deepEqual(kept, [8, 9, 10]);
  const waiting = sub.next();
  hub.publish(11);
  assert.equal((await waiting).value, 11, "a waiting reader gets the next item directly");
  sub.close();
});

Deno.test("hub: a failing sink is reported and does not stop delivery to others", () => {
  const errors: unknown[] = [];
  const hub = new Hub<string>((error) => errors.push(error));
  const got: string[] = [];
  hub.sink(() => {
    throw new Error("broken sink");
  });
  hub.sink((s) => got.push(s));
  hub.publish("a");
  assert.deepEqual(got, ["a"]);
  assert.equal(errors.length, 1);
});

Deno.test("hub: close ends every subscription, and later ones at once (a shutdown never waits on a stream)", async () => {
  const hub = new Hub<number>();
  const sub = hub.subscribe();
  const pending = sub.next();
  hub.close();
  assert.equal((await pending).done, true);
  assert.equal((await hub.subscribe().next()).done, true);
  assert.equal(hub.subscriberCount, 0);
});
