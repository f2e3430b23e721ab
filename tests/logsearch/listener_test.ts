/**
 * The built-in log search's own listener is Deck's listener with the configured timeouts: a hundred clients
 * that open a connection and send half a request head, or nothing, are all closed after the header timeout
 * (it used to be Deno.serve, which kept every one of them open), while an ingest that is sent keeps working.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../server/console/config/config.ts";
import { startBuiltinLogSearch } from "../../server/start/log_search.ts";
import { within } from "../eventually.ts";

const CONNECTIONS = 100;

/** Resolves once the server closes the connection (or resets it); rejects after `ms`. */
async function closedWithin(conn: Deno.Conn, ms: number): Promise<void> {
  const closed = (async () => {
    const buffer = new Uint8Array(1024);
    try {
      while ((await conn.read(buffer)) !== null);
    } catch { /* reset: closed too */ }
  })();
  await within("the server to close the connection", closed, ms);
}

Deno.test("log search: half-open connections are closed by the header timeout", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-logsearch-" });
  const config = loadConfig({
    CONSOLE_HEADER_TIMEOUT: "500ms",
    CONSOLE_IDLE_TIMEOUT: "500ms",
    CONSOLE_BODY_TIMEOUT: "500ms",
  });
  const search = await startBuiltinLogSearch(config.logSearch.builtin!, dataDir, config.timeouts);
  const { hostname, port } = new URL(search.server.url);
  const conns: Deno.Conn[] = [];
  try {
    for (let i = 0; i < CONNECTIONS; i++) {
      const conn = await Deno.connect({ hostname, port: Number(port) });
      if (i % 2) await conn.write(new TextEncoder().encode("POST /api/ingest HTTP/1.1\r\nHost: x\r\n"));
      conns.push(conn);
    }
    const started = performance.now();
    const outcomes = await Promise.allSettled(conns.map((conn) => closedWithin(conn, 10_000)));
    const open = outcomes.filter((o) => o.status === "rejected").length;
    assert.equal(open, 0, `${open} of ${CONNECTIONS} half-open connections stayed open`);
    assert.ok(performance.now() - started < 10_000);

    const ingest = await fetch(search.server.ingestUrl, { method: "POST", body: "{}" });
    assert.equal(ingest.status, 200, "the listener still takes audit records");
    await ingest.body?.cancel();
  } finally {
    for (const conn of conns) {
      try {
        conn.close();
      } catch { /* closed by the server */ }
    }
    await search.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
