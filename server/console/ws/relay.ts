/**
 * The one WebSocket relay every live screen uses (api-index §8 "WebSockets"): it refuses the upgrade without
 * a session (401) or from another origin (403), validates the query before upgrading (400), then forwards
 * what the stream source yields as JSON text frames, signed with the session's own credentials so the
 * storage's IAM decides what the user may see.
 *
 * - The browser's frames ("ok" keep-alives) are ignored; its close ends the stream and aborts the upstream
 *   request at once.
 * - Bounded: the upstream is read continuously into a per-socket queue of at most QUEUE_LIMIT messages or
 *   QUEUE_BYTES bytes, and messages go to the socket only while its own send buffer is under SEND_HIGH_WATER.
 *   A browser that stops reading therefore costs at most those bounds: the oldest queued messages are dropped
 *   and the browser is told how many (`{type: "dropped", count}`) once it reads again.
 * - Ends: 1000 when the source ends; on an error the browser first gets `{type: "error", message, detail}`,
 *   then close 1008 for a timeout, 1011 "an error occurred, please try again" otherwise; 4001 when the
 *   session ends and 4003 when the account may no longer read the stream (server/console/ws/session_watch.ts).
 */
import type { Context, Handler } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import type { ServeInfo } from "../../lib/http/listener.ts";
import { ApiError, toApiError } from "../http/errors.ts";
import { isSameOrigin } from "../http/forwarded.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { clientFor } from "../session/clients.ts";
import { liveAccess } from "../session/live_access.ts";
import type { SessionData } from "../session/token.ts";
import { type StreamPermission, watchSession } from "./session_watch.ts";

export const QUEUE_LIMIT = 1000;
export const QUEUE_BYTES = 4 * 1024 * 1024;
export const SEND_HIGH_WATER = 1024 * 1024;
/** How often a stalled socket is checked for room (the server socket has no "drained" event). */
const STALL_POLL_MS = 50;
/** How long a finished stream waits for a stalled browser to take what is queued before closing anyway. */
const FINAL_FLUSH_MS = 10_000;

export const CLOSE_NORMAL = 1000;
export const CLOSE_TIMEOUT = 1008;
export const CLOSE_ERROR = 1011;
export const ERROR_REASON = "an error occurred, please try again";

export interface RelayArgs<Q> {
  client: S3Client;
  session: SessionData;
  input: Q;
  /** Aborted when the browser leaves. */
  signal: AbortSignal;
}

export interface RelayOptions<Q> {
  /** Validates the request (query, path) before the upgrade; throw ApiError(400) to refuse it. */
  parse: (c: Context<AppEnv>) => Q;
  /** The storage action the stream is served under; the stream ends when the account loses it. */
  permission: (input: Q) => StreamPermission;
  /**
   * The messages to send, in order. A source that resolves once its upstream has answered is awaited before
   * the upgrade, so the browser's socket opens only when the stream is live: a call made after "started"
   * shows up (spec 3: Trace is started on socket open).
   */
  open: (args: RelayArgs<Q>) => AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>;
}

/** Rewritten requests (subpath stripped, app.ts) → the request Deno can upgrade. */
export const originalRequests = new WeakMap<Request, Request>();

const active = new Set<SocketPump>();

/** What every open relay holds right now (tests and benchmarks check the bounds). */
export function relayStats(): { queued: number; queuedBytes: number; buffered: number; dropped: number }[] {
  return [...active].map((pump) => pump.stats());
}

function refuse(c: Context<AppEnv>, error: ApiError): Response {
  return c.json(error.toBody(), error.status as 400);
}

/** Builds the route handler for one stream. */
export function relay<Q>(deps: AppDeps, options: RelayOptions<Q>): Handler<AppEnv> {
  return async (c) => {
    const session = c.get("session");
    if (!session) return refuse(c, ApiError.unauthorized());
    // A cross-site page must not open a socket with the user's cookie: the rule of state-changing requests.
    if (!isSameOrigin(c.req, deps.config.trustForwarded)) {
      return refuse(
        c,
        ApiError.forbidden(
          "cross-origin WebSocket refused",
          "live streams open only from the console's own pages",
        ),
      );
    }
    if ((c.req.header("upgrade") ?? "").toLowerCase() !== "websocket") {
      return refuse(c, new ApiError(426, "a WebSocket upgrade is required"));
    }
    let input: Q;
    try {
      input = options.parse(c);
      // A session the storage no longer accepts is refused here (401), not after an upgrade.
      await liveAccess(deps, session);
    } catch (error) {
      return refuse(c, toApiError(error));
    }
    // Aborted by the socket's close or error, also when the upgrade never completes.
    const stop = new AbortController();
    // What failed here reaches the browser as an error message on the open socket, as any later failure.
    const source: AsyncIterable<unknown> = await Promise.resolve()
      .then(() => options.open({ client: clientFor(deps, session), session, input, signal: stop.signal }))
      .catch((error) => failing(error));
    // Deck's node:http listener hands over the connection (server/lib/http/listener.ts); under Deno.serve the
    // request itself must be the one Deno received.
    const upgrade = (c.env as ServeInfo | undefined)?.upgrade;
    const { socket, response } = Deno.upgradeWebSocket(
      originalRequests.get(c.req.raw) ?? c.req.raw,
      upgrade ? { socket: upgrade.socket, head: upgrade.head } : undefined,
    );
    const pump = new SocketPump(socket);
    socket.onopen = () => {
      active.add(pump);
      watchSession(deps, session, options.permission(input), stop.signal, ({ code, reason }) => {
        stop.abort();
        pump.end(code, reason);
      });
      pump.run(source, stop.signal)
        .finally(() => {
          active.delete(pump);
          stop.abort(); // the source is done: stop watching the session too
        });
    };
    socket.onclose = () => {
      stop.abort();
      pump.stop();
    };
    socket.onerror = () => stop.abort();
    return response;
  };
}

/** The messages `map` makes of a source's values; values it maps to undefined are left out. */
export async function* mapMessages<T>(
  source: AsyncIterable<T>,
  map: (value: T) => unknown,
): AsyncGenerator<unknown> {
  for await (const value of source) {
    const message = map(value);
    if (message !== undefined) yield message;
  }
}

/** A source whose first read throws `error`. */
function failing(error: unknown): AsyncIterable<never> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
}

/** Moves messages from a source to one socket within the bounds above. */
class SocketPump {
  #queue: string[] = [];
  #queuedBytes = 0;
  #dropped = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #drained: (() => void) | null = null;

  constructor(private readonly socket: WebSocket) {}

  stats() {
    return {
      queued: this.#queue.length,
      queuedBytes: this.#queuedBytes,
      buffered: this.socket.bufferedAmount,
      dropped: this.#dropped,
    };
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#drained?.();
  }

  /** Closes the socket now with `code`, dropping what is queued: nothing more is due to this browser. */
  end(code: number, reason: string): void {
    this.stop();
    this.#close(code, reason);
  }

  async run(source: AsyncIterable<unknown>, signal: AbortSignal): Promise<void> {
    const iterator = source[Symbol.asyncIterator]();
    // The source's fetch sees the same signal; returning the iterator also ends a source between reads.
    signal.addEventListener("abort", () => {
      iterator.return?.().catch(() => {});
    }, { once: true });
    try {
      while (!this.#stopped) {
        const next = await iterator.next();
        if (next.done) break;
        this.#offer(JSON.stringify(next.value));
      }
      await this.#finish();
      this.#close(CLOSE_NORMAL, "");
    } catch (error) {
      if (this.#stopped || signal.aborted) return;
      const apiError = toApiError(error);
      const timeout = error instanceof DOMException && error.name === "TimeoutError" ||
        apiError.status === 504 || (error as { code?: string }).code === "RequestTimeout";
      this.#offer(JSON.stringify({ type: "error", message: apiError.message, detail: apiError.detail }));
      await this.#finish();
      this.#close(timeout ? CLOSE_TIMEOUT : CLOSE_ERROR, ERROR_REASON);
    }
  }

  #offer(text: string): void {
    if (this.#stopped) return;
    this.#queue.push(text);
    this.#queuedBytes += text.length;
    while (this.#queue.length > QUEUE_LIMIT || (this.#queuedBytes > QUEUE_BYTES && this.#queue.length > 1)) {
      this.#queuedBytes -= this.#queue.shift()!.length;
      this.#dropped++;
    }
    this.#flush();
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || this.socket.readyState !== WebSocket.OPEN) return;
    while (this.#queue.length > 0 && this.socket.bufferedAmount < SEND_HIGH_WATER) {
      if (this.#dropped > 0) {
        this.socket.send(JSON.stringify({ type: "dropped", count: this.#dropped }));
        this.#dropped = 0;
      }
      const text = this.#queue.shift()!;
      this.#queuedBytes -= text.length;
      this.socket.send(text);
    }
    if (this.#queue.length > 0) this.#timer = setTimeout(() => this.#flush(), STALL_POLL_MS);
    else this.#drained?.();
  }

  /** Waits until the queue is handed to the socket (or the browser stalls past FINAL_FLUSH_MS). */
  async #finish(): Promise<void> {
    if (this.#queue.length === 0 || this.#stopped) return;
    let give: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#drained = resolve;
      give = setTimeout(resolve, FINAL_FLUSH_MS);
    });
    clearTimeout(give);
    this.#drained = null;
  }

  #close(code: number, reason: string): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(code, reason);
    }
  }
}
