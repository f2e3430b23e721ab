/**
 * The bridge between Node's HTTP objects and the fetch API that Deck's handlers speak: a node request
 * becomes a `Request` (its raw target kept, its body a byte stream with backpressure), and a `Response` is
 * written back to the node response (large byte bodies through two reused buffers, waiting for the socket
 * to drain). The listener itself (timeouts, connections, upgrades) is http_server.ts.
 */
import type http from "node:http";

const rawTargets = new WeakMap<Request, string>();

/**
 * The request target exactly as the client sent it (path and query, undecoded, dot segments kept).
 * `new Request()` normalises URLs ("/b/.." becomes "/"), and a storage server must see what was sent.
 */
export function rawRequestTarget(request: Request): string {
  const stored = rawTargets.get(request);
  if (stored !== undefined) return stored;
  // Deno.serve keeps the raw target in request.url.
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(request.url)?.[1] || "/";
}

/** The body of a request broke off because its client closed the connection. */
export class ClientGoneError extends Error {
  constructor() {
    super("the client closed the connection before the body ended");
    this.name = "ClientGoneError";
  }
}

/** How to end a request body stream nobody will read any more (see abandonBody). */
const abandons = new WeakMap<http.IncomingMessage, () => void>();

/**
 * A byte stream over a node request body, with backpressure: reading stops while the consumer is behind.
 *
 * The stream ends once, closed, errored or cancelled (a handler that refuses a request cancels its body);
 * node events that still arrive afterwards (the rest of the body, its end, an error) must then do nothing:
 * the controller throws on a stream that is no longer readable, and a throw in a node event handler is
 * uncaught, which once ended the whole program on a refused upload.
 */
function bodyStream(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  const onData = (chunk: Uint8Array) => {
    if (!open) return;
    // enqueue() takes over the chunk's memory: copy views into a larger (possibly pooled) buffer.
    const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    try {
      controller.enqueue(
        whole ? new Uint8Array(chunk.buffer as ArrayBuffer, 0, chunk.byteLength) : chunk.slice(),
      );
    } catch (error) {
      return settle(() => controller.error(error));
    }
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  /** Ends the stream (at most once) and stops listening for more of the body. */
  const settle = (end: () => void) => {
    if (!open) return;
    open = false;
    req.off("data", onData);
    try {
      end();
    } catch { /* the stream ended meanwhile: nothing left to tell it */ }
  };
  let controller!: ReadableByteStreamController;
  abandons.set(req, () => {
    settle(() => controller.error(new Error("the response was sent before the request body was read")));
  });
  return new ReadableStream({
    type: "bytes",
    start(c: ReadableByteStreamController) {
      controller = c;
      req.on("data", onData);
      req.once("end", () =>
        settle(() => {
          c.close();
          c.byobRequest?.respond(0);
        }));
      // `on`, not `once`: a second error event with no listener would itself be thrown.
      req.on("error", (error) => settle(() => c.error(error)));
      req.once("aborted", () => settle(() => c.error(new ClientGoneError())));
    },
    pull() {
      if (open) req.resume();
    },
    cancel() {
      // Nobody will read the rest: the response will close the connection (see writeResponse).
      settle(() => {});
      req.pause();
    },
  }, { highWaterMark: 1024 * 1024 });
}

/**
 * Ends the body stream of a request that was answered before its body was read: whoever still holds the
 * stream sees it fail, and the bytes still to come are no longer handed to it (the listener decides what
 * becomes of them).
 */
export function abandonBody(req: http.IncomingMessage): void {
  abandons.get(req)?.();
}

export function toRequest(req: http.IncomingMessage, scheme: string, withBody: boolean): Request {
  const target = req.url ?? "/";
  const path = target.startsWith("/") ? target : (() => {
    const absolute = new URL(target);
    return absolute.pathname + absolute.search;
  })();
  const host = req.headers.host || `${req.socket.localAddress}:${req.socket.localPort}`;
  // Header pairs, not a Headers object: Request copies and revalidates a Headers object (10 µs a request).
  const raw = req.rawHeaders;
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) headers.push([raw[i], raw[i + 1]]);
  const hasBody = withBody && req.method !== "GET" && req.method !== "HEAD" &&
    (req.headers["content-length"] !== undefined
      ? req.headers["content-length"] !== "0"
      : req.headers["transfer-encoding"] !== undefined);
  // No AbortSignal (8 µs a request): a client that goes away cancels the response body instead, which is
  // what streaming responses watch (Deno.serve's signal also fired after every response, so nothing used it).
  const request = new Request(`${scheme}://${host}${path}`, {
    method: req.method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    // @ts-ignore: duplex is required by the fetch standard for stream bodies; Deno's types lack it.
    duplex: "half",
  });
  rawTargets.set(request, path);
  return request;
}

function responseHeaders(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out["set-cookie"] = cookies;
  return out;
}

/** Waits until the response may take more bytes; false when the client has gone. */
function drained(res: http.ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = done(true), onClose = done(false);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}

export async function writeResponse(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  response: Response,
): Promise<void> {
  const headers = responseHeaders(response);
  // The body was not read to its end: say so, and do not wait for the rest (see serveOne's close handler).
  if (!req.complete && req.method !== "GET" && req.method !== "HEAD") headers.connection = "close";
  const noBody = req.method === "HEAD" || response.status === 204 || response.status === 304 ||
    !response.body;
  if (noBody) {
    await response.body?.cancel().catch(() => {});
    const mayHaveLength = req.method !== "HEAD" && response.status !== 204 && response.status !== 304;
    if (mayHaveLength && headers["content-length"] === undefined) headers["content-length"] = "0";
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const length = Number(headers["content-length"]);
  if (length >= LARGE_BODY) {
    const byob = byobReader(response.body!);
    if (byob) {
      res.writeHead(response.status, headers);
      return await writeThroughBuffers(res, byob);
    }
  }
  const reader = response.body!.getReader();
  try {
    const first = await reader.read();
    if (first.done) {
      if (headers["content-length"] === undefined) headers["content-length"] = "0";
      res.writeHead(response.status, headers);
      res.end();
      return;
    }
    let next = reader.read();
    // A body that is already complete (a string, bytes) gets a Content-Length instead of chunked encoding;
    // a stream's headers go out with its first piece, without waiting for the second.
    const settled = await Promise.race([next, afterMicrotasks(8)]);
    if (settled?.done && headers["content-length"] === undefined) {
      headers["content-length"] = String(first.value.byteLength);
    }
    res.writeHead(response.status, headers);
    // A stream that is still producing (trace, logs, a listen, a search between pages) may go quiet for
    // seconds: a client that leaves meanwhile must end it at once, not at the next write. That holds also when
    // its first two pieces came together (a search's first hits), so only a finished body goes without.
    if (!settled?.done) res.once("close", () => res.writableFinished || reader.cancel().catch(() => {}));
    let more = res.write(first.value);
    while (true) {
      if (!more && !(await drained(res))) {
        await reader.cancel(); // the client went away: the body's source stops (streams watch for this)
        return;
      }
      const { done, value } = await next;
      if (done) break;
      more = res.write(value);
      next = reader.read();
    }
    res.end();
  } catch (error) {
    reader.cancel(error).catch(() => {});
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Bodies of at least this many bytes (with a Content-Length) are copied through reused buffers. */
const LARGE_BODY = 256 * 1024;
/** The buffers such a body is read into, and how many (reading one overlaps sending the others). */
const PIECE_BYTES = 256 * 1024;
const PIECES = 2;

function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return null; // not a byte stream
  }
}

/** Writes one piece; resolves once the socket has taken it (true) or the client has gone (false). */
function writePiece(res: http.ServerResponse, piece: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => resolve(false);
    res.once("close", onClose);
    res.write(piece, (error) => {
      res.off("close", onClose);
      resolve(!error);
    });
  });
}

/**
 * Sends a large body by reading it into a few buffers of its own and reusing each once the socket has
 * taken it. Reading a byte stream the ordinary way allocates a fresh buffer per piece (64 KiB from a fetch
 * body, 1 MiB from a file): a 1 GiB download left about 90 MB of them for the garbage collector, which
 * frees external memory only past its own threshold, so the process grew by that much per transfer.
 */
async function writeThroughBuffers(
  res: http.ServerResponse,
  reader: ReadableStreamBYOBReader,
): Promise<void> {
  // Slot i holds a buffer and the write that last used it; piece n goes through slot n % PIECES once that
  // write is done, so reading the next piece overlaps sending the previous ones.
  const buffers = Array.from({ length: PIECES }, () => new ArrayBuffer(PIECE_BYTES));
  const writes: (Promise<boolean> | undefined)[] = [];
  // A client that leaves while the source is quiet (a stalled upstream) ends the read at once.
  res.once("close", () => res.writableFinished || reader.cancel().catch(() => {}));
  try {
    for (let n = 0;; n = (n + 1) % PIECES) {
      if (writes[n] && !(await writes[n])) {
        await reader.cancel(); // the client went away: the body's source stops
        return;
      }
      const { done, value } = await reader.read(new Uint8Array(buffers[n]));
      if (done) break;
      buffers[n] = value.buffer as ArrayBuffer; // the read took the buffer over; its view holds it now
      writes[n] = writePiece(res, value);
    }
    if ((await Promise.all(writes)).every((ok) => ok !== false) && !res.destroyed) res.end();
  } catch (error) {
    reader.cancel(error).catch(() => {});
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Resolves with null after `turns` microtask turns: long enough for a complete body's next read to settle
 * (it takes one or two), without a timer's delay and cost on every response.
 */
function afterMicrotasks(turns: number): Promise<null> {
  let chain: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < turns; i++) chain = chain.then(() => {});
  return chain.then(() => null);
}
