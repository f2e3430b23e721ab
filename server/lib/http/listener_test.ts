import assert from "node:assert/strict";
import { listen, rawRequestTarget } from "./listener.ts";

const TIMEOUTS = { headerMs: 5000, idleMs: 5000, bodyMs: 5000 };

Deno.test("the listener serves fetch handlers: raw targets, lengths, cookies, streamed bodies both ways", async () => {
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: TIMEOUTS },
    async (request, info) => {
      const path = new URL(request.url).pathname;
      if (rawRequestTarget(request).startsWith("/raw/")) return new Response(rawRequestTarget(request));
      if (path === "/echo") return new Response(request.body);
      if (path === "/cookies") {
        const headers = new Headers();
        headers.append("set-cookie", "a=1");
        headers.append("set-cookie", "b=2");
        return new Response("ok", { headers });
      }
      if (path === "/who") return new Response(info.remoteAddr.hostname);
      return new Response(null, { status: 404 });
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(
      new TextEncoder().encode(
        "GET /raw/../b/%2e%2e/c%2Fd?x=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      ),
    );
    const raw = await new Response(conn.readable).text();
    assert.match(
      raw,
      /content-length: 28/i,
      `a complete body is sent with its length: ${JSON.stringify(raw)}`,
    );
    assert.ok(
      raw.endsWith("\r\n\r\n/raw/../b/%2e%2e/c%2Fd?x=%zz"),
      `the handler sees the target as sent: ${raw}`,
    );

    const cookies = await fetch(`${base}/cookies`);
    assert.deepEqual(cookies.headers.getSetCookie(), ["a=1", "b=2"]);
    await cookies.body?.cancel();

    assert.equal(await (await fetch(`${base}/who`)).text(), "127.0.0.1");

    const size = 3 * 1024 * 1024 + 17;
    const sent = Uint8Array.from({ length: size }, (_, i) => (i * 7919) % 251);
    const echoed = new Uint8Array(
      await (await fetch(`${base}/echo`, { method: "PUT", body: sent })).arrayBuffer(),
    );
    assert.equal(echoed.length, size);
    assert.ok(echoed.every((byte, i) => byte === sent[i]), "a streamed body comes back byte for byte");
  } finally {
    await server.shutdown();
  }
});

Deno.test("WebSocket upgrades hand their connection to Deno.upgradeWebSocket, as the relays use it", async () => {
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: TIMEOUTS },
    (request, info) => {
      const { socket, response } = Deno.upgradeWebSocket(
        request,
        info.upgrade ? { socket: info.upgrade.socket, head: info.upgrade.head } : {},
      );
      socket.onmessage = (event) => socket.send(`echo ${event.data}`);
      return response;
    },
  );
  try {
    const socket = new WebSocket(`ws://127.0.0.1:${server.addr.port}/ws`);
    const reply = await new Promise<string>((resolve, reject) => {
      socket.onopen = () => socket.send("hi");
      socket.onmessage = (event) => resolve(String(event.data));
      socket.onerror = () => reject(new Error("websocket failed"));
    });
    assert.equal(reply, "echo hi");
    const closed = new Promise((resolve) => (socket.onclose = resolve));
    socket.close();
    await closed;
  } finally {
    await server.shutdown();
  }
});

/** A byte stream of `size` patterned bytes in uneven pieces; `cancelled` resolves when its reader gives up. */
function patternedByteStream(size: number) {
  let sent = 0, pieces = 0;
  let onCancel = () => {};
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const stream = new ReadableStream({
    type: "bytes",
    pull(controller: ReadableByteStreamController) {
      if (sent >= size) {
        controller.close();
        controller.byobRequest?.respond(0); // a byte stream closing under a pending BYOB read must say so
        return;
      }
      // Uneven pieces, some larger than the listener's buffers, some smaller.
      const piece = new Uint8Array(Math.min(size - sent, [70_000, 300_000, 1_000, 524_288][pieces++ % 4]));
      for (let i = 0; i < piece.length; i++) piece[i] = ((sent + i) * 31) % 253;
      sent += piece.length;
      controller.enqueue(piece);
    },
    cancel() {
      onCancel();
    },
  });
  return { stream, cancelled, sentSoFar: () => sent };
}

Deno.test("a large streamed body with a length arrives byte for byte through the listener's reused buffers", async () => {
  const size = 5 * 1024 * 1024 + 123;
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: TIMEOUTS },
    () => new Response(patternedByteStream(size).stream, { headers: { "content-length": String(size) } }),
  );
  try {
    // A slow reader, so pieces wait for the socket while the next ones are read.
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(res.headers.get("content-length"), String(size));
    let at = 0;
    for await (const chunk of res.body!) {
      for (let i = 0; i < chunk.length; i++) {
        if (chunk[i] !== ((at + i) * 31) % 253) {
          assert.fail(`byte ${at + i} differs: a buffer was reused before the socket took it`);
        }
      }
      at += chunk.length;
      if (at % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    assert.equal(at, size);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a client that leaves in the middle of a large body stops its source", async () => {
  const size = 512 * 1024 * 1024;
  const source = patternedByteStream(size);
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: TIMEOUTS },
    () => new Response(source.stream, { headers: { "content-length": String(size) } }),
  );
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    const buffer = new Uint8Array(64 * 1024);
    for (let got = 0; got < 1024 * 1024;) {
      got += (await conn.read(buffer)) ?? assert.fail("the body ended early");
    }
    conn.close();
    const stopped = await Promise.race([
      source.cancelled.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    assert.ok(stopped, "the source was cancelled once the client left");
    assert.ok(source.sentSoFar() < size, "the source did not produce the whole body");
  } finally {
    await server.shutdown();
  }
});

Deno.test("a body longer than its Content-Length: the request is answered first, then the rest refused", async () => {
  let release!: () => void;
  const answering = new Promise<void>((resolve) => release = resolve);
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: TIMEOUTS },
    async (request) => {
      const body = await request.text();
      // The stray byte reaches the parser while this request is still being answered.
      await answering;
      return new Response(`got ${body}`, { status: 201 });
    },
  );
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(
      new TextEncoder().encode("PUT /k HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nbar"),
    );
    const reply = (async () => {
      let text = "";
      const buffer = new Uint8Array(4096);
      for (let n; (n = await conn.read(buffer)) !== null;) {
        text += new TextDecoder().decode(buffer.subarray(0, n));
      }
      return text;
    })();
    setTimeout(release, 200);
    const text = await reply;
    conn.close();
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    assert.deepEqual(statuses, ["201", "400"], text);
    const [own, rest] = text.split("HTTP/1.1 400 Bad Request");
    assert.ok(own.includes("got ba") && rest !== undefined, `the request's own answer comes first:\n${text}`);
  } finally {
    await server.shutdown();
  }
});
