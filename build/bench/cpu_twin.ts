/**
 * The load benchmark's bound (build/bench/load_bench.ts): a server on Deck's own listener that does nothing
 * but spend BURN_MS of CPU on its one thread per request and answer BODY_BYTES of HTML. Under the same wrk
 * load, its latency is what any server needing that much of one thread per request gets on this machine
 * with the load generator beside it; a page kind's p99 is reported against it. Prints its port.
 */
import { DEFAULT_LISTENER_TIMEOUTS, listen } from "../../server/lib/http/listener.ts";

const burnMs = Number(Deno.env.get("BURN_MS") ?? "1");
const body = new TextEncoder().encode(
  "<!doctype html>".padEnd(Number(Deno.env.get("BODY_BYTES") ?? "1000"), "x"),
);

/** Spends `ms` of this thread's time (a page's rendering, in the benchmark's stead). */
function burn(ms: number): number {
  const end = performance.now() + ms;
  let turns = 0;
  while (performance.now() < end) turns++;
  return turns;
}

const listener = await listen(
  { hostname: "127.0.0.1", port: 0, timeouts: DEFAULT_LISTENER_TIMEOUTS },
  () => {
    burn(burnMs);
    return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  },
);
console.log(listener.addr.port);
Deno.addSignalListener("SIGTERM", () => listener.shutdown().then(() => Deno.exit(0)));
