import assert from "node:assert/strict";
import { S3Client } from "./client.ts";
import { putObject } from "./ops/objects.ts";
import { chunkedLength } from "./sigv4.ts";

const MiB = 1024 * 1024;

function streamOf(size: number, piece: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(piece, size - sent);
      controller.enqueue(new Uint8Array(n).fill(sent & 0xff));
      sent += n;
    },
  });
}

Deno.test("streamed uploads declare their encoded Content-Length (S3 refuses chunked transfer encoding)", async () => {
  const seen: { headers: Headers; bytes: number }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    let bytes = 0;
    for await (const chunk of request.body!) bytes += chunk.length;
    seen.push({ headers: request.headers, bytes });
    return new Response(null, { headers: { etag: '"abc"' } });
  });
  try {
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${server.addr.port}`,
      credentials: { accessKey: "k", secretKey: "s".repeat(12) },
    });
    const size = 2.5 * MiB + 7;
    const put = await putObject(client, "bucket", "key", streamOf(size, 300_000), { size });
    assert.equal(put.etag, "abc");
    const [{ headers, bytes }] = seen;
    assert.equal(headers.get("transfer-encoding"), null);
    assert.equal(headers.get("content-length"), String(chunkedLength(size, MiB)));
    assert.equal(bytes, chunkedLength(size, MiB));
    assert.equal(headers.get("x-amz-decoded-content-length"), String(size));
    assert.equal(headers.get("x-amz-content-sha256"), "STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
  } finally {
    await server.shutdown();
  }
});

Deno.test("a streamed upload to an unreachable server fails as fetch does (TypeError naming the server)", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKey: "k", secretKey: "s".repeat(12) },
  });
  await assert.rejects(
    putObject(client, "bucket", "key", streamOf(MiB, MiB), { size: MiB }),
    (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      return true;
    },
  );
});

Deno.test("a body stream that fails mid-upload rejects with its own error, and the server gets no complete body", async () => {
  const received = Promise.withResolvers<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    let bytes = 0;
    try {
      for await (const chunk of request.body!) bytes += chunk.length;
      received.resolve(`whole body: ${bytes} bytes`);
    } catch {
      received.resolve("cut off");
    }
    return new Response(null);
  });
  try {
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${server.addr.port}`,
      credentials: { accessKey: "k", secretKey: "s".repeat(12) },
    });
    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 2 * MiB) return controller.error(new RangeError("disk read failed"));
        sent += MiB;
        controller.enqueue(new Uint8Array(MiB));
      },
    });
    await assert.rejects(putObject(client, "bucket", "key", failing, { size: 4 * MiB }), (error: unknown) => {
      assert.ok(error instanceof RangeError);
      assert.equal(error.message, "disk read failed");
      return true;
    });
    assert.equal(await received.promise, "cut off");
  } finally {
    await server.shutdown();
  }
});

Deno.test("a server that answers before reading the body gets the answer through, and the upload stops", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response("<Error><Code>AccessDenied</Code><Message>Access Denied.</Message></Error>", {
        status: 403,
      }),
  );
  try {
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${server.addr.port}`,
      credentials: { accessKey: "k", secretKey: "s".repeat(12) },
    });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(MiB));
      },
    });
    await assert.rejects(
      putObject(client, "bucket", "key", endless, { size: 512 * MiB, unsignedPayload: true }),
      (error: unknown) => {
        assert.equal((error as { code?: string }).code, "AccessDenied");
        return true;
      },
    );
    assert.ok(pulled < 64, `the body stopped being read (${pulled} MiB read)`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("an aborted streamed upload rejects with the abort reason", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    for await (const _ of request.body!) { /* read slowly until the client goes */ }
    return new Response(null);
  });
  try {
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${server.addr.port}`,
      credentials: { accessKey: "k", secretKey: "s".repeat(12) },
    });
    const stop = new AbortController();
    let sent = 0;
    const slow = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++sent === 3) stop.abort(new DOMException("user cancelled", "AbortError"));
        controller.enqueue(new Uint8Array(MiB));
      },
    });
    await assert.rejects(
      putObject(client, "bucket", "key", slow, {
        size: 64 * MiB,
        unsignedPayload: true,
        signal: stop.signal,
      }),
      (error: unknown) => {
        assert.equal((error as Error).name, "AbortError");
        return true;
      },
    );
  } finally {
    await server.shutdown();
  }
});
