/**
 * Sends a streamed request body with a Content-Length. Deno's fetch drops a Content-Length header on a
 * stream body and sends it with chunked transfer encoding instead; AWS S3 refuses such uploads (it wants
 * the aws-chunked encoded length), and a Deno server receives them at a fraction of the speed (hyper's
 * chunked decoding makes every body read cost in proportion to the view offered).
 *
 * The request is written as HTTP/1.1 on a socket of its own (RFC 9112 §3, §6.3): the body is read into one
 * reused buffer where the stream allows it (BYOB) and each write waits for the socket, so a relayed upload
 * holds one buffer's worth of it, whatever its size. node:http did the same job while queueing every chunk it
 * was handed as a fresh allocation, which doubled a relaying console's memory.
 */

export interface LengthRequest {
  method: string;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array>;
  /** Exactly the bytes `body` yields. */
  length: number;
  signal?: AbortSignal;
  /** PEM certificates trusted besides the system's over HTTPS (those the client's fetch trusts). */
  caCerts?: readonly string[];
}

/** Answers without a body, whatever the server sends (RFC 9110 §6.4.1). */
const BODYLESS = new Set([101, 204, 205, 304]);
const READ_BYTES = 1024 * 1024;
const HEAD_LIMIT = 64 * 1024;
const encoder = new TextEncoder();

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** Bytes read from the socket but not yet consumed. */
class Incoming {
  #buffer = new Uint8Array(0);
  constructor(private readonly conn: Deno.Conn) {}

  get buffered(): Uint8Array {
    return this.#buffer;
  }

  /** Reads more from the socket; false at its end. */
  async fill(): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    const n = await this.conn.read(chunk);
    if (n === null) return false;
    const joined = new Uint8Array(this.#buffer.length + n);
    joined.set(this.#buffer);
    joined.set(chunk.subarray(0, n), this.#buffer.length);
    this.#buffer = joined;
    return true;
  }

  take(n: number): Uint8Array {
    const out = this.#buffer.slice(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return out;
  }

  /** Reads through the next CRLF (or "\r\n\r\n" for a head); null when the socket ends first. */
  async until(marker: string, limit = HEAD_LIMIT): Promise<string | null> {
    const needle = encoder.encode(marker);
    while (true) {
      const at = indexOf(this.#buffer, needle);
      if (at !== -1) return new TextDecoder().decode(this.take(at + needle.length)).slice(0, -needle.length);
      if (this.#buffer.length > limit) throw new TypeError("malformed HTTP response: header too long");
      if (!(await this.fill())) return null;
    }
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (
    let i = haystack.indexOf(needle[0]);
    i !== -1 && i <= haystack.length - needle.length;
    i = haystack.indexOf(needle[0], i + 1)
  ) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The response body as a stream: by Content-Length, chunked, or until the server closes (RFC 9112 §6.3). */
function responseBody(incoming: Incoming, headers: Headers, close: () => void): ReadableStream<Uint8Array> {
  const length = headers.get("content-length");
  const chunked = /\bchunked\b/i.test(headers.get("transfer-encoding") ?? "");
  let left = length !== null && !chunked ? Number(length) : Infinity;
  let chunkLeft = 0;
  let finished = false;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    finished = true;
    close();
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (left === 0) return finish(controller);
        if (chunked && chunkLeft === 0) {
          const line = await incoming.until("\r\n");
          if (line === null) throw new TypeError("the response ended inside a chunk header");
          chunkLeft = parseInt(line.split(";")[0], 16);
          if (chunkLeft === 0) {
            // Trailer fields, up to the empty line that ends the message.
            for (
              let line = await incoming.until("\r\n");
              line !== null && line !== "";
              line = await incoming.until("\r\n")
            );
            return finish(controller);
          }
        }
        if (incoming.buffered.length === 0 && !(await incoming.fill())) {
          if (left !== Infinity || chunked) throw new TypeError("the response ended early");
          return finish(controller);
        }
        const n = Math.min(incoming.buffered.length, chunked ? chunkLeft : left);
        controller.enqueue(incoming.take(n));
        if (left !== Infinity) left -= n;
        if (chunked) {
          chunkLeft -= n;
          if (chunkLeft === 0 && (await incoming.until("\r\n")) !== "") {
            throw new TypeError("malformed chunk");
          }
        }
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    cancel() {
      if (!finished) close();
    },
  }, { highWaterMark: 0 });
}

/** Reads the response head; null when the connection closes before one arrives. */
async function readHead(
  incoming: Incoming,
): Promise<{ status: number; statusText: string; headers: Headers } | null> {
  while (true) {
    const head = await incoming.until("\r\n\r\n");
    if (head === null) return null;
    const [statusLine, ...fields] = head.split("\r\n");
    const match = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
    if (!match) throw new TypeError(`malformed HTTP response: ${statusLine.slice(0, 80)}`);
    const status = Number(match[1]);
    const headers = new Headers();
    for (const field of fields) {
      const colon = field.indexOf(":");
      if (colon > 0) headers.append(field.slice(0, colon).trim(), field.slice(colon + 1).trim());
    }
    // Interim answers (100 Continue) are skipped.
    if (status >= 100 && status < 200 && status !== 101) continue;
    return { status, statusText: match[2] ?? "", headers };
  }
}

/** Writes the body: BYOB reads into one buffer when the stream is a byte stream, each write waiting for the socket. */
async function sendBody(
  conn: Deno.Conn,
  body: ReadableStream<Uint8Array>,
  stopped: () => boolean,
): Promise<void> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch { /* not a byte stream */ }
  if (byob) {
    let buffer = new ArrayBuffer(READ_BYTES);
    try {
      while (!stopped()) {
        const { value, done } = await byob.read(new Uint8Array(buffer));
        if (done || !value) return;
        buffer = value.buffer as ArrayBuffer;
        await writeAll(conn, value);
      }
    } finally {
      if (stopped()) await byob.cancel("answered before the body was sent").catch(() => {});
    }
    return;
  }
  const reader = body.getReader();
  try {
    while (!stopped()) {
      const { value, done } = await reader.read();
      if (done) return;
      await writeAll(conn, value);
    }
  } finally {
    if (stopped()) await reader.cancel("answered before the body was sent").catch(() => {});
  }
}

/**
 * Resolves with the answer as a fetch Response once its head arrives. A server may answer (403, say) before
 * reading the body: sending then stops, and the connection, which cannot carry another request, is closed
 * once the answer has been read. Connection failures reject with a TypeError, as fetch's do; a failing body
 * stream rejects with its own error, and the server sees the body cut off.
 */
export async function sendWithLength(url: URL, request: LengthRequest): Promise<Response> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  let conn: Deno.Conn;
  try {
    conn = url.protocol === "https:"
      ? await Deno.connectTls({ hostname, port, caCerts: [...request.caCerts ?? []] })
      : await Deno.connect({ hostname, port });
  } catch (error) {
    await request.body.cancel(error).catch(() => {});
    throw new TypeError(
      `network error sending request for ${url.origin}: ${error instanceof Error ? error.message : error}`,
      { cause: error },
    );
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  const onAbort = () => close();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  const headers: Record<string, string> = {
    ...request.headers,
    host: url.host,
    "content-length": String(request.length),
    connection: "close",
  };
  const head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\n` +
    Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("") + "\r\n";
  const incoming = new Incoming(conn);
  let answered = false;
  const answer = readHead(incoming).then((h) => ((answered = true), h));
  let bodyError: unknown = null;
  const sending = (async () => {
    await writeAll(conn, encoder.encode(head));
    await sendBody(conn, request.body, () => answered || closed);
  })().catch((error) => {
    bodyError = error;
    close(); // the server sees the body cut off
  });
  try {
    const response = await Promise.race([answer, sending.then(() => answer)]);
    if (bodyError && !answered) throw bodyError;
    if (request.signal?.aborted) throw request.signal.reason ?? new DOMException("aborted", "AbortError");
    if (!response) {
      throw new TypeError(
        `network error sending request for ${url.origin}: the connection closed without an answer`,
      );
    }
    const body = BODYLESS.has(response.status) || request.method === "HEAD"
      ? null
      : responseBody(incoming, response.headers, close);
    if (!body) close();
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    close();
    await request.body.cancel(error).catch(() => {});
    if (request.signal?.aborted) throw request.signal.reason ?? new DOMException("aborted", "AbortError");
    if (bodyError) throw bodyError;
    if (error instanceof TypeError || error instanceof DOMException) throw error;
    throw new TypeError(
      `network error sending request for ${url.origin}: ${error instanceof Error ? error.message : error}`,
      { cause: error },
    );
  } finally {
    request.signal?.removeEventListener("abort", onAbort);
  }
}
