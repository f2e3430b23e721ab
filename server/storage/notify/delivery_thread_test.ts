/**
 * The delivery thread's fallback: when the thread dies, events already matched (gathered for the hand-over
 * or arriving while the fallback starts its targets) are still delivered, in order, from the calling thread.
 */
import assert from "node:assert/strict";
import { DeliveryThread } from "./delivery_thread.ts";

Deno.test("delivery thread: a thread that dies leaves delivery to the calling thread, in order, nothing lost", async () => {
  const received: string[] = [];
  let allArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push(JSON.parse(await req.text()).Key);
    if (received.length === 40) allArrived();
    return new Response(null);
  });
  const keys = Array.from({ length: 40 }, (_, i) => `bucket/k${String(i).padStart(2, "0")}`);
  const event = (key: string) => JSON.stringify({ EventName: "s3:ObjectCreated:Put", Key: key });
  const logs: string[] = [];
  const delivery: DeliveryThread = new DeliveryThread(
    (level, message) => {
      logs.push(`${level} ${message}`);
      // Events matched at the very moment the thread is reported dead: gathered, never handed to it.
      if (message.includes("delivery thread stopped")) {
        for (const key of keys.slice(0, 10)) delivery.deliver(["_:webhook"], event(key));
      }
    },
    [],
    new URL(`data:text/javascript,${encodeURIComponent("throw new Error('boom');")}`),
  );
  try {
    const endpoint = `http://127.0.0.1:${(receiver.addr as Deno.NetAddr).port}/events`;
    await delivery.apply([{ key: "_:webhook", subsystem: "notify_webhook", id: "_", values: { endpoint } }]);
    assert.ok(logs.some((l) => l.startsWith("ERROR notification delivery thread stopped")), logs.join("\n"));
    for (const key of keys.slice(10)) delivery.deliver(["_:webhook"], event(key));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise((
      _,
      reject,
    ) => (timer = setTimeout(
      () => reject(new Error(`only ${received.length} of 40 events arrived: ${received.join(" ")}`)),
      10_000,
    )));
    await Promise.race([arrived, late]).finally(() => clearTimeout(timer));
    assert.deepEqual(received, keys, "every event, in order, once");
    const stats = await delivery.stats();
    assert.equal(stats["_:webhook"].dropped, 0);
  } finally {
    await delivery.close();
    await receiver.shutdown();
  }
});
