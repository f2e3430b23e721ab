/**
 * The console's WebSocket relays over real sockets against the embedded storage: refused without a session
 * or from another origin, bad queries refused before the upgrade, each stream's messages in the original
 * console's shapes, and a socket that stops reading keeps the console's memory within the relay's bounds.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import type { RequestRecord } from "../../server/storage/streams/requests.ts";
import { QUEUE_BYTES, QUEUE_LIMIT, relayStats, SEND_HIGH_WATER } from "../../server/console/ws/relay.ts";
import { signInAsRoot, startStack } from "../helpers.ts";
import { eventually } from "../eventually.ts";
import { openSocket } from "./socket_client.ts";

const upgradeHeaders = {
  upgrade: "websocket",
  connection: "Upgrade",
  "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
  "sec-websocket-version": "13",
};

Deno.test("relays: session and Origin are checked before the upgrade; bad queries are refused", async () => {
  const stack = await startStack();
  try {
    const anonymous = await fetch(`${stack.consoleUrl}/ws/trace`, { headers: upgradeHeaders });
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).message, "invalid session");
    const refused = new WebSocket(`${stack.consoleUrl.replace("http", "ws")}/ws/console`);
    let opened = false;
    refused.onopen = () => (opened = true);
    await new Promise<CloseEvent>((resolve) => (refused.onclose = resolve));
    assert.equal(opened, false, "a WebSocket without a session never opens");

    const client = await signInAsRoot(stack);
    const foreign = await fetch(`${stack.consoleUrl}/ws/trace`, {
      headers: { ...upgradeHeaders, cookie: client.cookie, origin: "https://evil.example" },
    });
    assert.equal(foreign.status, 403);
    await foreign.body?.cancel();
    // X-Forwarded-Host is anyone's to send while CONSOLE_TRUST_FORWARDED is off; null and junk are no origin.
    const forged: Record<string, string>[] = [
      { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
      { origin: "null" },
      { origin: "not a url" },
    ];
    for (const headers of forged) {
      const res = await fetch(`${stack.consoleUrl}/ws/trace`, {
        headers: { ...upgradeHeaders, cookie: client.cookie, ...headers },
      });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal((await res.json()).message, "cross-origin WebSocket refused");
    }
    for (
      const path of [
        "/ws/trace?threshold=-5",
        "/ws/health-info?deadline=soon",
        "/ws/heal/some-bucket?recursive=maybe",
        "/ws/watch/some-bucket?events=put,explode",
      ]
    ) {
      const res = await fetch(`${stack.consoleUrl}${path}`, {
        headers: { ...upgradeHeaders, cookie: client.cookie, origin: stack.consoleUrl },
      });
      assert.equal(res.status, 400, path);
      const body = await res.json();
      assert.equal(typeof body.detailedMessage, "string");
    }
    const impossible = await fetch(`${stack.consoleUrl}/ws/watch/a%2Fb`, {
      headers: { ...upgradeHeaders, cookie: client.cookie, origin: stack.consoleUrl },
    });
    assert.equal(impossible.status, 400, "a bucket name no bucket can have is refused before the upgrade");
    await impossible.body?.cancel();
  } finally {
    await stack.close();
  }
});

Deno.test("relays: trace, console, watch, heal and health info carry the storage's streams", async () => {
  const stack = await startStack();
  try {
    const { cookie } = await signInAsRoot(stack);
    await s3.makeBucket(stack.admin, "live");

    const trace = await openSocket(stack, cookie, "/ws/trace?calls=s3&threshold=0&onlyErrors=no&path=live/");
    await s3.putObject(stack.admin, "live", "traced.txt", "12345");
    const put = await trace.next((m) => m.api === "s3.PutObject");
    assert.deepEqual({ path: put.path, statusCode: put.statusCode, statusMsg: put.statusMsg }, {
      path: "/live/traced.txt",
      statusCode: 200,
      statusMsg: "OK",
    });
    assert.equal((put.callStats as { rx: number }).rx, 5);
    assert.match((put.callStats as { duration: string }).duration, /^[\d.]+(ns|µs|ms|s)$/);
    assert.ok(
      trace.messages.every((m) => String(m.path).toLowerCase().includes("live/")),
      "the path filter applies",
    );
    trace.close();
    assert.equal((await trace.closed).code, 1000);

    // Storage and os calls: no HTTP status (0 and no text), their bytes under Upload or Download.
    await s3.makeBucket(stack.admin, "calls");
    const calls = await openSocket(
      stack,
      cookie,
      "/ws/trace?calls=storage,os&threshold=0&onlyErrors=no&path=calls/",
    );
    // The socket opens only once the storage has answered the relay's trace request, so a call made from now
    // on is in the stream: the page's "started" is true.
    const { storageCalls, osCalls } = stack.storage.streams;
    assert.equal(storageCalls.subscriberCount, 1, "subscribed to storage calls before the socket opened");
    assert.equal(osCalls.subscriberCount, 1, "subscribed to os calls before the socket opened");
    await s3.putObject(stack.admin, "calls", "small.txt", "12345");
    await (await s3.getObject(stack.admin, "calls", "small.txt")).arrayBuffer();
    const written = await calls.next((m) => m.api === "storage.WriteMetadata");
    assert.deepEqual({ path: written.path, statusCode: written.statusCode, statusMsg: written.statusMsg }, {
      path: "calls/small.txt",
      statusCode: 0,
      statusMsg: "",
    });
    assert.equal((written.callStats as { rx: number }).rx, 5, "a write's bytes count as uploaded");
    const readBack = await calls.next((m) => m.api === "storage.ReadVersion");
    assert.deepEqual(
      { rx: (readBack.callStats as { rx: number }).rx, tx: (readBack.callStats as { tx: number }).tx },
      { rx: 0, tx: 5 },
      "a read's as downloaded",
    );
    const synced = await calls.next((m) => m.api === "os.Fdatasync");
    assert.match(String(synced.path), /\/buckets\/calls\/records\.log$/);
    assert.match((synced.callStats as { duration: string }).duration, /^[\d.]+(ns|µs|ms|s)$/);
    calls.close();
    await calls.closed;
    // Closing the browser's socket ends the relay's storage stream, so the storage stops tracing its calls.
    await eventually(
      "the storage to stop tracing calls for the closed socket",
      () => storageCalls.subscriberCount + osCalls.subscriberCount === 0,
    );

    const listeners = stack.storage.streams.events.subscriberCount;
    const watch = await openSocket(stack, cookie, "/ws/watch/live?prefix=in/&suffix=.txt");
    assert.equal(
      stack.storage.streams.events.subscriberCount,
      listeners + 1,
      "listening before the socket opened",
    );
    await s3.putObject(stack.admin, "live", "out/skip.txt", "no");
    await s3.putObject(stack.admin, "live", "in/arrived.txt", "hello");
    const event = await watch.next();
    assert.deepEqual({ Type: event.Type, Path: event.Path, Size: event.Size }, {
      Type: "ObjectCreated:Put",
      Path: "live/in/arrived.txt",
      Size: 5,
    });
    watch.close();

    const missing = await openSocket(stack, cookie, "/ws/watch/no-such-bucket");
    const failed = await missing.closed;
    assert.equal(failed.code, 1011);
    assert.equal(failed.reason, "an error occurred, please try again");
    assert.equal(missing.messages[0]?.type, "error", "the reason comes first as a message");

    const consoleLog = await openSocket(stack, cookie, "/ws/console");
    stack.storage.streams.log.publish({
      level: "ERROR",
      time: "2026-01-02T03:04:05Z",
      requestID: "REQ1",
      message: "boom",
      error: { message: "boom", source: ["a.ts:1"] },
    });
    const line = await consoleLog.next((m) => m.requestID === "REQ1");
    assert.equal(line.time, "2026-01-02T03:04:05Z", "RFC 3339, shown by the page in its one format");
    consoleLog.close();

    const heal = await openSocket(stack, cookie, "/ws/heal/live?recursive=true");
    const closed = await heal.closed;
    assert.equal(closed.code, 1000, "a finished heal closes normally");
    const last = heal.messages.at(-1)!;
    assert.equal(last.objectsScanned, 3);
    assert.deepEqual(
      last.healthAfterCols,
      { Green: 4, Yellow: 0, Red: 0, Grey: 0 },
      "the bucket and its three objects are intact",
    );

    const health = await openSocket(stack, cookie, "/ws/health-info?deadline=1h");
    assert.equal((await health.closed).code, 1000);
    assert.equal(health.messages.length, 1);
    assert.equal(health.messages[0].version, "3");
  } finally {
    await stack.close();
  }
});

Deno.test("relays: a socket that stops reading keeps the console within its bounds", async () => {
  const stack = await startStack();
  try {
    const { cookie } = await signInAsRoot(stack);
    const port = Number(new URL(stack.consoleUrl).port);
    // A "browser" that completes the handshake and then never reads.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    const request = [
      "GET /ws/trace?calls=s3 HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      "Sec-WebSocket-Version: 13",
      `Origin: ${stack.consoleUrl}`,
      `Cookie: ${cookie}`,
      "",
      "",
    ].join("\r\n");
    await conn.write(new TextEncoder().encode(request));
    const requests = stack.storage.streams.requests;
    await eventually("the relay to subscribe upstream", () => requests.subscriberCount > 0);
    assert.equal(requests.subscriberCount, 1, "the relay subscribed upstream once");
    const padding = "p".repeat(2000);
    const record = (n: number): RequestRecord => ({
      kind: "s3",
      api: "GetObject",
      time: new Date(),
      method: "GET",
      path: `/bucket/${padding}/${n}`,
      rawQuery: "",
      host: "h",
      sourceIp: "127.0.0.1",
      userAgent: "ua",
      requestId: String(n),
      bucket: "bucket",
      object: String(n),
      accessKey: "",
      parentUser: "",
      statusCode: 200,
      errorCode: "",
      requestHeaders: {},
      responseHeaders: {},
      rx: 0,
      tx: 0,
      ttfbNs: 1,
      durationNs: 2,
      aborted: false,
    });
    let sent = 0;
    // Bursts of 500 records, the relay getting its turn between them, until it has to drop some.
    await eventually("the stalled socket to make the relay drop", () => {
      for (let i = 0; i < 500; i++) requests.publish(record(sent++));
      return (relayStats()[0]?.dropped ?? 0) > 0;
    });
    const [stats] = relayStats();
    assert.ok(stats.dropped > 0, `the stalled socket made the relay drop (sent ${sent})`);
    assert.ok(stats.queued <= QUEUE_LIMIT, `queued ${stats.queued}`);
    assert.ok(stats.queuedBytes <= QUEUE_BYTES, `queued bytes ${stats.queuedBytes}`);
    assert.ok(stats.buffered <= SEND_HIGH_WATER + 16 * 1024, `socket buffer ${stats.buffered}`);
    conn.close();
    await eventually("the relay to end when the socket closed", () => relayStats().length === 0);
    await eventually("…and the upstream trace with it", () => requests.subscriberCount === 0);
  } finally {
    await stack.close();
  }
});

Deno.test("relays: a storage without the stream (FS mode has no heal) gives a clear message, not a hang", async () => {
  const stack = await startStack({ reportedBackend: "fs" });
  try {
    const { cookie } = await signInAsRoot(stack);
    await s3.makeBucket(stack.admin, "plain");
    const heal = await openSocket(stack, cookie, "/ws/heal/plain?recursive=true");
    assert.equal((await heal.closed).code, 1011);
    assert.equal(heal.messages[0]?.type, "error");
    assert.match(String(heal.messages[0]?.detail), /not supported by server in 'mode-server-fs'/);
  } finally {
    await stack.close();
  }
});
