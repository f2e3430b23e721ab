import assert from "node:assert/strict";
import { BandwidthLimit } from "./bandwidth.ts";

/** A clock that only moves when the limit sleeps: what the limit asks to wait is exactly what it enforces. */
function fakeTime() {
  let now = 0;
  const waits: number[] = [];
  return {
    clock: () => now,
    sleep: (ms: number) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
    get now() {
      return now;
    },
    waits,
  };
}

Deno.test("bandwidth limit: a second's worth goes at once, the rest at the limit's rate", async () => {
  const time = fakeTime();
  const limit = new BandwidthLimit(1000, time.clock, time.sleep);
  for (let i = 0; i < 10; i++) await limit.take(500);
  // 5,000 bytes at 1,000 B/s with a one-second allowance to start with: four seconds of waiting.
  assert.equal(Math.round(time.now), 4000);
  assert.equal(limit.sent, 5000);
});

Deno.test("bandwidth limit: a stream passed through it is paced and arrives whole", async () => {
  const time = fakeTime();
  const limit = new BandwidthLimit(100, time.clock, time.sleep);
  const pieces = Array.from({ length: 5 }, (_, i) => new Uint8Array(100).fill(i));
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of pieces) c.enqueue(p);
      c.close();
    },
  });
  const received: number[] = [];
  for await (const chunk of limit.throttle(body)) received.push(...chunk);
  assert.equal(received.length, 500);
  assert.equal(Math.round(time.now), 4000);
});

Deno.test("bandwidth limit: zero means unlimited", async () => {
  const time = fakeTime();
  const limit = new BandwidthLimit(0, time.clock, time.sleep);
  await limit.take(10 ** 9);
  assert.deepEqual(time.waits, []);
});
