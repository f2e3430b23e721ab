/**
 * The one WebSocket hook every live screen uses (spec 3 §4, §7.5): opens /ws/… on the page's own host (wss
 * under https), sends "ok" on open and every 10 s (except heal), keeps at most `limit` messages newest
 * first (an hour of trace cannot exhaust the browser), batches renders, and reports how the stream ended.
 *
 * Relay notices are handled here: `{type: "dropped"}` adds to `dropped`, `{type: "error"}` becomes `error`.
 * With `reconnect`, an abnormal close (1006: the network, a restart) reopens the socket with backoff
 * (1, 2, 4, 8, 16 s) while the user has not stopped it.
 */
import { useEffect, useRef, useState } from "react";
import { basePath } from "./request.ts";
import { t } from "./i18n/t.ts";

export const KEEP_ALIVE_MS = 10_000;
const RENDER_EVERY_MS = 100;
const RECONNECT_DELAYS = [1000, 2000, 4000, 8000, 16000];

/** Each received message's sequence number: a stable row key even when two messages are alike. */
const sequence = new WeakMap<object, number>();
let received = 0;
export const messageId = (message: object) => sequence.get(message) ?? 0;

export type LiveStatus = "idle" | "connecting" | "open" | "closed";

export interface LiveSocketOptions {
  /** Messages kept, newest first (default 1,000). */
  limit?: number;
  /** Send "ok" keep-alives (all streams but heal). */
  keepAlive?: boolean;
  /** Reopen after an abnormal close while running. */
  reconnect?: boolean;
  /** Sees every message as it arrives (to keep totals beyond `limit`). */
  onMessage?: (message: unknown) => void;
}

export interface LiveSocket<T> {
  messages: T[];
  status: LiveStatus;
  /**
   * Close code of the last socket (1000 normal, 1006 refused or lost, 1008 timeout, 1011 error, 4001 session
   * ended, 4003 access removed: STREAM_CLOSE in server/lib/contract/tools.ts).
   */
  closeCode: number | null;
  error: { message: string; detail: string } | null;
  /** Messages the console dropped because this page read too slowly. */
  dropped: number;
  start(path: string, params?: Record<string, string>): void;
  stop(): void;
}

/** The socket URL of a console path: same host and port, ws or wss like the page. */
export function socketUrl(path: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${basePath()}${
    path.replace(/^\/+/, "")
  }${query ? `?${query}` : ""}`;
}

export function useLiveSocket<T>(options: LiveSocketOptions = {}): LiveSocket<T> {
  const limit = options.limit ?? 1000;
  const [messages, setMessages] = useState<T[]>([]);
  const [status, setStatus] = useState<LiveStatus>("idle");
  const [closeCode, setCloseCode] = useState<number | null>(null);
  const [error, setError] = useState<LiveSocket<T>["error"]>(null);
  const [dropped, setDropped] = useState(0);
  const live = useRef<
    {
      socket: WebSocket | null;
      running: boolean;
      pending: T[];
      timers: ReturnType<typeof setTimeout>[];
      attempts: number;
    }
  >({
    socket: null,
    running: false,
    pending: [],
    timers: [],
    attempts: 0,
  });

  const onMessage = useRef(options.onMessage);
  onMessage.current = options.onMessage;

  const clearTimers = () => {
    for (const timer of live.current.timers) clearTimeout(timer);
    live.current.timers = [];
  };

  const flush = () => {
    const batch = live.current.pending;
    live.current.pending = [];
    if (batch.length) setMessages((old) => [...batch.reverse(), ...old].slice(0, limit));
  };

  const open = (path: string, params: Record<string, string>) => {
    const state = live.current;
    const socket = new WebSocket(socketUrl(path, params));
    state.socket = socket;
    setStatus("connecting");
    let render: ReturnType<typeof setInterval> | undefined;
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    socket.onopen = () => {
      state.attempts = 0;
      setStatus("open");
      if (options.keepAlive !== false) {
        socket.send("ok");
        keepAlive = setInterval(
          () => socket.readyState === WebSocket.OPEN && socket.send("ok"),
          KEEP_ALIVE_MS,
        );
      }
      render = setInterval(flush, RENDER_EVERY_MS);
    };
    socket.onmessage = (event) => {
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      const notice = message as { type?: string; count?: number; message?: string; detail?: string };
      if (notice.type === "dropped") return setDropped((n) => n + (notice.count ?? 0));
      if (notice.type === "error") {
        return setError({
          message: notice.message ?? t("common.error.occurred"),
          detail: notice.detail ?? "",
        });
      }
      if (message && typeof message === "object") sequence.set(message, ++received);
      onMessage.current?.(message);
      state.pending.push(message as T);
      if (state.pending.length > limit) state.pending.splice(0, state.pending.length - limit);
    };
    socket.onclose = (event) => {
      clearInterval(render);
      clearInterval(keepAlive);
      flush();
      if (state.socket !== socket) return;
      state.socket = null;
      setCloseCode(event.code);
      if (
        state.running && options.reconnect && event.code === 1006 && state.attempts < RECONNECT_DELAYS.length
      ) {
        setStatus("connecting");
        state.timers.push(
          setTimeout(() => state.running && open(path, params), RECONNECT_DELAYS[state.attempts++]),
        );
        return;
      }
      state.running = false;
      setStatus("closed");
    };
  };

  const stop = () => {
    const state = live.current;
    state.running = false;
    clearTimers();
    const socket = state.socket;
    state.socket = null;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
    setStatus((s) => (s === "idle" ? s : "closed"));
  };

  const start = (path: string, params: Record<string, string> = {}) => {
    stop();
    live.current.pending = [];
    live.current.attempts = 0;
    live.current.running = true;
    setMessages([]);
    setError(null);
    setDropped(0);
    setCloseCode(null);
    open(path, params);
  };

  useEffect(() => () => stop(), []);

  return { messages, status, closeCode, error, dropped, start, stop };
}
