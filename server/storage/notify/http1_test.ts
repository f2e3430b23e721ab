import assert from "node:assert/strict";
import { Http1Connection } from "./http1.ts";

const HEAD = (url: URL) => `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n`;

Deno.test("http1: posts over one kept-alive connection; reads sized, chunked and empty answers", async () => {
  const bodies: string[] = [];
  const peers = new Set<string>();
  let answer = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req, info) => {
    bodies.push(`${new URL(req.url).pathname}${new URL(req.url).search} ${req.headers.get("content-type")} ${await req.text()}`);
    peers.add(`${info.remoteAddr.port}`);
    const kind = answer++ % 3;
    if (kind === 0) return new Response("sized answer", { status: 200 });
    if (kind === 1) {
      // A streamed body goes out chunked.
      const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("chunk one,")); c.enqueue(new TextEncoder().encode("chunk two")); c.close(); } });
      return new Response(stream, { status: 201 });
    }
    return new Response(null, { status: 204 });
  });
  const url = new URL(`http://127.0.0.1:${server.addr.port}/hook?x=1`);
  const conn = new Http1Connection(url, HEAD(url));
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await conn.post(`{"n":${i},"é":"ü"}`, 10_000)).status);
    assert.deepEqual(statuses, [200, 201, 204, 200, 201, 204, 200, 201, 204]);
    assert.deepEqual(bodies, Array.from({ length: 9 }, (_, i) => `/hook?x=1 application/json {"n":${i},"é":"ü"}`));
    assert.equal(peers.size, 1, "all requests went over one connection");
  } finally {
    conn.close();
    await server.shutdown();
  }
});

Deno.test("http1: an interim 100 answer is passed over; a connection the server closed while idle is replaced; a dead endpoint rejects", async () => {
  // A raw server: on each connection it answers two requests (the first after an interim 100 Continue), then
  // closes the connection without saying so: the client learns it only on its next request.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const bodies: string[] = [];
  const serving = (async () => {
    for await (const conn of listener) {
      const buffer = new Uint8Array(64 * 1024);
      let text = "";
      for (let answered = 0; answered < 2; answered++) {
        const complete = () => {
          const end = text.indexOf("\r\n\r\n");
          return end >= 0 && text.length >= end + 4 + Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
        };
        while (!complete()) {
          const n = await conn.read(buffer);
          if (n === null) break;
          text += new TextDecoder().decode(buffer.subarray(0, n));
        }
        if (!complete()) break;
        const end = text.indexOf("\r\n\r\n") + 4 + Number(/content-length: (\d+)/i.exec(text)![1]);
        bodies.push(text.slice(text.indexOf("\r\n\r\n") + 4, end));
        text = text.slice(end);
        const interim = answered === 0 ? "HTTP/1.1 100 Continue\r\n\r\n" : "";
        await conn.write(new TextEncoder().encode(`${interim}HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok`));
      }
      conn.close();
    }
  })().catch(() => {});
  const url = new URL(`http://127.0.0.1:${port}/`);
  const conn = new Http1Connection(url, HEAD(url));
  try {
    for (let i = 0; i < 5; i++) assert.equal((await conn.post(`{"n":${i}}`, 10_000)).status, 200);
    assert.deepEqual(bodies, [0, 1, 2, 3, 4].map((i) => `{"n":${i}}`));
  } finally {
    conn.close();
    listener.close();
    await serving;
  }
  await assert.rejects(() => new Http1Connection(url, HEAD(url)).post("{}", 10_000));
});
