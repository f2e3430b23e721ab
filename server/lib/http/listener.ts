/**
 * Deck's HTTP listener, shared by the console and the embedded storage server: node:http (Deno's port of
 * Node's server) serving a fetch-style handler `(Request, info) => Response`.
 *
 * Why not Deno.serve: it has no header, idle or body-progress timeouts and no way to reach the connection,
 * so a client could hold any number of half-sent requests or idle connections open for ever (1,000 were held
 * for 60 s in a probe). Node's server has header and keep-alive timeouts, a socket inactivity timer and
 * per-connection control, at the same speed here when responses are written in large pieces.
 *
 * Beyond the timeouts: a response sent before its request body was read (413, 401, an error) says
 * `Connection: close` and the connection is dropped shortly after, so no one can keep a connection busy by
 * sending a body nobody reads. WebSocket upgrades reach the handler too, with the connection to upgrade in
 * `info.upgrade` (on a TLS listener, a plain one spliced to the TLS connection: tls_upgrade.ts).
 */
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { abandonBody, ClientGoneError, toRequest, writeResponse } from "./bridge.ts";
import { LoopbackBridge } from "./tls_upgrade.ts";
import { ListenError } from "./listen_error.ts";

export { ClientGoneError, rawRequestTarget } from "./bridge.ts";

/** How long the listener waits for a client, in milliseconds (0 disables one). */
export interface ListenerTimeouts {
  /** From the connection (or the previous response) to the end of the next request's headers. */
  headerMs: number;
  /** How long a kept-alive connection may wait for its next request. */
  idleMs: number;
  /** How long a request body may send nothing, or a response wait for a client that reads nothing. */
  bodyMs: number;
}

/** The defaults of CONSOLE_HEADER_TIMEOUT, CONSOLE_IDLE_TIMEOUT and CONSOLE_BODY_TIMEOUT (MinIO's are 30 s too). */
export const DEFAULT_LISTENER_TIMEOUTS: ListenerTimeouts = {
  headerMs: 30_000,
  idleMs: 30_000,
  bodyMs: 30_000,
};

export interface ListenOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  tls?: { cert: string; key: string } | null;
  timeouts: ListenerTimeouts;
  /** Largest request head (request line and headers) accepted; larger ones get 431. */
  maxHeaderBytes?: number;
  /**
   * `Expect: 100-continue` is answered by the handler (ServeInfo.sendContinue) once it wants the body, so a
   * refused client never sends it; otherwise it is answered at once.
   */
  deferContinue?: boolean;
}

/** What the handler learns about the connection (Deno.ServeHandlerInfo's shape, so Hono's helpers work). */
export interface ServeInfo extends Deno.ServeHandlerInfo<Deno.NetAddr> {
  /** Present for WebSocket upgrade requests: the connection to hand to Deno.upgradeWebSocket. */
  upgrade?: { socket: Socket; head: Uint8Array };
  /** Sends a deferred "100 Continue" (ListenOptions.deferContinue); does nothing when none is owed. */
  sendContinue?(): void;
}

/** Requests whose client waits for "100 Continue" before it sends the body (deferContinue listeners). */
const awaitingContinue = new WeakSet<http.IncomingMessage>();

export type FetchHandler = (request: Request, info: ServeInfo) => Response | Promise<Response>;

export interface Listener {
  addr: Deno.NetAddr;
  /** Stops accepting connections, closes idle ones and resolves when the in-flight requests are done. */
  shutdown(): Promise<void>;
}

/** After a response to a request whose body was not read, how long and how much the connection may still drain. */
const LINGER_MS = 2000;
export const LINGER_BYTES = 8 * 1024 * 1024;

function listenError(hostname: string, port: number, error: Error & { code?: string }): ListenError {
  const address = `${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  const reason = error.code === "EADDRINUSE"
    ? "is already in use"
    : error.code === "EACCES"
    ? "may not be used: permission denied"
    : error.code === "EADDRNOTAVAIL"
    ? "is not an address of this machine"
    : `cannot be listened on: ${error.message}`;
  return new ListenError(address, reason);
}

/**
 * Lingering close (RFC 9112 §9.6) for a connection answered before its request body arrived: the answer goes
 * out with `Connection: close`, then the listener half-closes and keeps reading (and dropping) what the
 * client still sends until the body ends, the client leaves, or LINGER_MS or LINGER_BYTES run out. Closing at
 * once would reset the connection while the client is still sending, and the reset makes the client's system
 * throw away the answer it has not read yet: a part refused with NoSuchUpload reached the console as a
 * broken pipe (500). The bounds keep a client from holding the connection by sending a body nobody reads.
 */
function lingerAfterAnswer(req: http.IncomingMessage, socket: Socket): void {
  const destroySoon = socket.destroySoon.bind(socket);
  // Node calls destroySoon() once a `Connection: close` answer is written.
  socket.destroySoon = () => {
    if (req.complete) return destroySoon();
    if (socket.writable) socket.end();
    abandonBody(req);
    let left = LINGER_BYTES;
    req.on("data", (chunk: Uint8Array) => {
      if ((left -= chunk.byteLength) < 0) socket.destroy();
    });
    req.once("end", destroySoon); // all read: close once the answer is flushed
    req.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once("close", () => clearTimeout(timer));
  };
}

function remoteAddrOf(socket: Socket): Deno.NetAddr {
  const hostname = (socket.remoteAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return { transport: "tcp", hostname, port: socket.remotePort ?? 0 };
}

/** Deno.ServeHandlerInfo for one request; `completed` is made only when asked for (listeners cost). */
class RequestInfo implements ServeInfo {
  #completed?: Promise<void>;
  constructor(private readonly req: http.IncomingMessage, private readonly res: http.ServerResponse) {}
  sendContinue(): void {
    if (!awaitingContinue.delete(this.req) || this.res.headersSent || this.res.destroyed) return;
    this.res.writeContinue();
  }
  get remoteAddr(): Deno.NetAddr {
    return remoteAddrOf(this.req.socket);
  }
  get completed(): Promise<void> {
    this.#completed ??= new Promise<void>((resolve, reject) => {
      if (this.res.writableFinished) return resolve();
      this.res.once(
        "close",
        () => (this.res.writableFinished
          ? resolve()
          : reject(new Error("the response was not sent completely"))),
      );
    });
    this.#completed.catch(() => {});
    return this.#completed;
  }
}

/** Starts a listener serving `handler`; resolves once it is listening. */
export async function listen(options: ListenOptions, handler: FetchHandler): Promise<Listener> {
  const scheme = options.tls ? "https" : "http";
  const serverOptions: http.ServerOptions = {
    maxHeaderSize: options.maxHeaderBytes ?? 64 * 1024,
    keepAlive: true,
  };
  const server: http.Server = options.tls
    ? https.createServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key })
    : http.createServer(serverOptions);
  const { headerMs, idleMs, bodyMs } = options.timeouts;
  server.headersTimeout = headerMs;
  // A whole-request deadline would cut long uploads; the body-progress timer below bounds stalls instead.
  server.requestTimeout = 0;
  server.keepAliveTimeout = idleMs;
  server.timeout = bodyMs;
  // How often header deadlines are checked (Node's default is every 30 s).
  (server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    100,
    Math.min(1000, headerMs / 4 || 1000),
  );

  const inFlight = new WeakMap<Socket, { req: http.IncomingMessage; res: http.ServerResponse }>();
  const pending = new Set<Promise<void>>();

  // The socket went `bodyMs` without a byte in either direction.
  server.on("timeout", (socket: Socket) => {
    const active = inFlight.get(socket);
    if (!active) return socket.destroy(); // idle between requests
    if (!active.req.complete) return socket.destroy(); // the request body stalled
    if (active.res.headersSent && active.res.writableNeedDrain) return socket.destroy(); // the client stopped reading
    // Otherwise the handler is still working or a stream is quiet: that is the server's own time.
  });

  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight.set(req.socket, { req, res });
    const task = serveOne(req, res).catch((error) => {
      // Nothing a request does may end the process: this one is logged and its connection dropped.
      console.error(`http: ${req.method} request failed: ${error instanceof Error ? error.stack : error}`);
      res.destroy();
    }).finally(() => pending.delete(task));
    pending.add(task);
  });

  const upgraded = new Set<Socket>();
  // Deno can upgrade only plain TCP connections: TLS ones are spliced to a loopback connection that it can.
  const bridge = options.tls ? await LoopbackBridge.open() : null;
  server.on("upgrade", (req: http.IncomingMessage, socket: Socket, head: Uint8Array) => {
    // A browser resets a connection whose upgrade was refused (401, 403); without a listener that reset
    // would be an uncaught ECONNRESET.
    socket.on("error", () => socket.destroy());
    upgraded.add(socket);
    socket.once("close", () => upgraded.delete(socket));
    const task = serveUpgrade(req, socket, head).catch((error) => {
      console.error(`http: upgrade failed: ${error instanceof Error ? error.stack : error}`);
      socket.destroy();
    }).finally(() => pending.delete(task));
    pending.add(task);
  });

  server.on("clientError", (error: Error & { code?: string }, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === "HPE_HEADER_OVERFLOW"
      ? 431
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? 408
      : 400;
    const refuse = () => {
      if (!socket.writable) return socket.destroy();
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      socket.destroySoon?.();
    };
    // Bytes past a request's body that are no request (a body longer than its Content-Length) arrive while that
    // request is still being answered: it gets its own answer first, as Go's server (MinIO) gives it, and only
    // then the rest is refused. Answering at once sent the bare 400 in place of the request's answer.
    const active = inFlight.get(socket);
    if (active && !active.res.writableFinished) active.res.once("close", refuse);
    else refuse();
  });

  // Expect: 100-continue goes to the request handler like any request, with its "100 Continue" deferred to
  // the handler when the listener says so (a storage answers it only once it has authenticated the request).
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (options.deferContinue) awaitingContinue.add(req);
    else res.writeContinue();
    server.emit("request", req, res);
  });
  // Any other expectation is refused with 417, as Go's server (MinIO) does; an empty Expect is no expectation.
  server.on("checkExpectation", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if ((req.headers.expect ?? "").trim() === "") return void server.emit("request", req, res);
    res.writeHead(417, { connection: "close", "content-length": "0" });
    res.end();
  });

  async function serveOne(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const socket = req.socket;
    // One listener per request (each costs): the response is done, sent in full or not.
    res.once("close", () => inFlight.delete(socket));
    let response: Response;
    try {
      response = await handler(toRequest(req, scheme, true), new RequestInfo(req, res));
    } catch (error) {
      if (res.destroyed || error instanceof ClientGoneError) return; // nobody left to answer
      if (error instanceof TypeError && !res.headersSent && /URL|Header/i.test(error.message)) {
        response = new Response("Bad Request", { status: 400 });
      } else {
        console.error(`http: ${req.method} request failed: ${error instanceof Error ? error.stack : error}`);
        response = new Response("Internal Server Error", { status: 500 });
      }
    }
    if (res.destroyed) {
      await response.body?.cancel().catch(() => {});
      return;
    }
    // Answered before its body arrived (413, 401, a refused form…): see lingerAfterAnswer.
    if (!req.complete && req.method !== "GET" && req.method !== "HEAD") lingerAfterAnswer(req, socket);
    try {
      await writeResponse(req, res, response);
    } catch (error) {
      console.error(`http: ${req.method} answer failed: ${error instanceof Error ? error.stack : error}`);
      await response.body?.cancel().catch(() => {});
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { "content-length": "21", "content-type": "text/plain" });
      res.end("Internal Server Error");
    }
  }

  async function serveUpgrade(req: http.IncomingMessage, socket: Socket, head: Uint8Array): Promise<void> {
    let response: Response;
    const spliced = bridge?.splice(socket);
    try {
      const request = toRequest(req, scheme, false);
      const info: ServeInfo = {
        remoteAddr: remoteAddrOf(req.socket),
        completed: Promise.resolve(),
        upgrade: { socket: spliced?.socket ?? socket, head },
      };
      response = await handler(request, info);
    } catch (error) {
      console.error(`http: upgrade failed: ${error instanceof Error ? error.stack : error}`);
      response = new Response(null, { status: 500 });
    }
    if (response.status === 101) return; // Deno.upgradeWebSocket wrote the 101 and owns the socket now
    spliced?.release();
    const body = response.body ? new Uint8Array(await response.arrayBuffer()) : new Uint8Array(0);
    const lines = [
      `HTTP/1.1 ${response.status} ${http.STATUS_CODES[response.status] ?? ""}`,
      "Connection: close",
      `Content-Length: ${body.byteLength}`,
    ];
    response.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "connection") lines.push(`${name}: ${value}`);
    });
    socket.write(lines.join("\r\n") + "\r\n\r\n");
    socket.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    const refused = (error: Error) => {
      bridge?.close();
      reject(listenError(options.hostname, options.port, error));
    };
    server.once("error", refused);
    server.listen(options.port, options.hostname, () => {
      server.off("error", refused);
      resolve();
    });
  });
  // Errors of the running server (accepting a connection when out of file descriptors, say) are logged: left
  // without a listener, node would throw them and end the process.
  server.on("error", (error) => console.error(`http: listener error: ${error.message}`));
  const address = server.address() as { address: string; port: number };
  return {
    addr: { transport: "tcp", hostname: address.address, port: address.port },
    shutdown: async () => {
      // Stops listening at once; Node's close callback would also wait for upgraded (WebSocket) connections.
      server.close();
      server.closeIdleConnections();
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      bridge?.close();
    },
  };
}
