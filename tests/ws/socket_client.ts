/** A browser-like WebSocket client of the console's relays, for tests over real sockets. */
import type { TestStack } from "../helpers.ts";

export interface Opened {
  messages: Record<string, unknown>[];
  closed: Promise<CloseEvent>;
  next(pick?: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

/** Opens a relay socket as the signed-in browser would (cookie, same-origin Origin). */
export async function openSocket(stack: TestStack, cookie: string, path: string): Promise<Opened> {
  const url = stack.consoleUrl.replace(/^http/, "ws") + path;
  // @ts-ignore: Deno's WebSocket takes headers
  const ws = new WebSocket(url, { headers: { cookie, origin: stack.consoleUrl } });
  const messages: Record<string, unknown>[] = [];
  const waiting: {
    pick: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    messages.push(message);
    for (const w of [...waiting]) {
      if (w.pick(message)) (waiting.splice(waiting.indexOf(w), 1), w.resolve(message));
    }
  };
  const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`${path}: the socket did not open`));
  });
  return {
    messages,
    closed,
    next: (pick = () => true) => {
      const found = messages.find(pick);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ pick, resolve }));
    },
    close: () => ws.close(1000),
  };
}
