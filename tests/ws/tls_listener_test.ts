/**
 * WebSocket upgrades on a TLS listener (server/lib/http/tls_upgrade.ts): the handler upgrades as it does on a
 * plain one, messages cross both ways, either side's close reaches the other, and a refused upgrade still
 * gets its answer. The certificate is a private CA's, made with OpenSSL; the client trusts only that CA.
 */
import assert from "node:assert/strict";
import { listen } from "../../server/lib/http/listener.ts";
import { LoopbackBridge } from "../../server/lib/http/tls_upgrade.ts";
import { makeCertificates } from "../tls_certs.ts";

const TIMEOUTS = { headerMs: 5000, idleMs: 5000, bodyMs: 5000 };

Deno.test("a TLS listener upgrades WebSockets: echo both ways, closes either way, refusals answered", async () => {
  const certs = await makeCertificates();
  const tls = { cert: await Deno.readTextFile(certs.cert), key: await Deno.readTextFile(certs.key) };
  const serverClosed = Promise.withResolvers<number>();
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, tls, timeouts: TIMEOUTS },
    (request, info) => {
      const path = new URL(request.url).pathname;
      if (path === "/refused") return Response.json({ code: 401, message: "no session" }, { status: 401 });
      const { socket, response } = Deno.upgradeWebSocket(
        request,
        info.upgrade ? { socket: info.upgrade.socket, head: info.upgrade.head } : {},
      );
      socket.onmessage = (event) => {
        if (event.data === "bye") return socket.close(4000, "server says bye");
        socket.send(`echo ${event.data} over ${new URL(request.url).protocol}`);
      };
      socket.onclose = (event) => serverClosed.resolve(event.code);
      return response;
    },
  );
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(certs.caFile)] });
  const open = async (path: string) => {
    // @ts-ignore: Deno's WebSocket takes an HTTP client (the trusted CA)
    const ws = new WebSocket(`wss://localhost:${server.addr.port}${path}`, { client });
    const messages: string[] = [];
    const waiting: ((message: string) => void)[] = [];
    ws.onmessage = (event) => (waiting.shift() ?? ((m: string) => messages.push(m)))(String(event.data));
    const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = (event) => reject(new Error(`wss ${path} did not open: ${(event as ErrorEvent).message}`));
    });
    const next = () =>
      messages.length ? Promise.resolve(messages.shift()!) : new Promise<string>((r) => waiting.push(r));
    return { ws, next, closed };
  };
  try {
    const first = await open("/echo");
    first.ws.send("hello 🌍");
    assert.equal(await first.next(), "echo hello 🌍 over https:");
    first.ws.send("x".repeat(200_000));
    assert.equal((await first.next()).length, "echo  over https:".length + 200_000, "a large message");
    first.ws.close(1000);
    assert.equal(await serverClosed.promise, 1000, "the browser's close reaches the server");

    const second = await open("/echo");
    second.ws.send("bye");
    const closed = await second.closed;
    assert.deepEqual(
      [closed.code, closed.reason],
      [4000, "server says bye"],
      "the server's close reaches the client",
    );

    const conn = await Deno.connectTls({
      hostname: "localhost",
      port: server.addr.port,
      caCerts: [await Deno.readTextFile(certs.caFile)],
      alpnProtocols: ["http/1.1"],
    });
    await conn.write(
      new TextEncoder().encode(
        "GET /refused HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      ),
    );
    const answer = await new Response(conn.readable).text();
    assert.match(answer, /^HTTP\/1\.1 401 /, "a refused upgrade gets its status");
    assert.ok(answer.endsWith('{"code":401,"message":"no session"}'), `and its body: ${answer}`);
  } finally {
    client.close();
    await server.shutdown();
    await certs.remove();
  }
});

Deno.test("shutting a TLS listener down ends its open WebSockets", async () => {
  const certs = await makeCertificates();
  const tls = { cert: await Deno.readTextFile(certs.cert), key: await Deno.readTextFile(certs.key) };
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, tls, timeouts: TIMEOUTS },
    (request, info) => {
      const { response } = Deno.upgradeWebSocket(request, {
        socket: info.upgrade!.socket,
        head: info.upgrade!.head,
      });
      return response;
    },
  );
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(certs.caFile)] });
  try {
    // @ts-ignore: Deno's WebSocket takes an HTTP client (the trusted CA)
    const ws = new WebSocket(`wss://localhost:${server.addr.port}/live`, { client });
    const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
    await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
    await server.shutdown();
    await closed; // resolves only if the connection really ended
  } finally {
    client.close();
    await certs.remove();
  }
});

Deno.test("the loopback port of a TLS listener closes, unread, a connection no upgrade opened", async () => {
  const bridge = await LoopbackBridge.open();
  try {
    const stranger = await Deno.connect({ hostname: "127.0.0.1", port: bridge.port });
    await stranger.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    const answer = await new Response(stranger.readable).arrayBuffer(); // ends when the port closes it
    assert.equal(answer.byteLength, 0, "nothing is answered");
  } finally {
    bridge.close();
  }
});
