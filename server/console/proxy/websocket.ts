/**
 * Relays a browser WebSocket to an upstream one: messages both ways, the browser's messages held until the
 * upstream is open, and either side closing (or failing) closes the other with the same code.
 */

import type { ServeInfo } from "../../lib/http/listener.ts";

/** Close codes a peer may send (RFC 6455 §7.4); others are reported as 1011 or 1000. */
const sendable = (code: number) => code === 1000 || (code >= 3000 && code <= 4999);

export function relayWebSocket(
  request: Request,
  upgrade: ServeInfo["upgrade"],
  upstreamUrl: string,
  headers: Record<string, string>,
): Response {
  const protocols = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim())
    .filter(Boolean);
  // Deck's listener (server/lib/http/listener.ts) hands over the upgraded connection; Deno.serve needs none.
  const { socket, response } = Deno.upgradeWebSocket(request, {
    ...(protocols.length ? { protocol: protocols[0] } : {}),
    ...(upgrade ? { socket: upgrade.socket, head: upgrade.head } : {}),
  });
  const upstream = new WebSocket(upstreamUrl, { headers, protocols } as unknown as string[]);
  upstream.binaryType = "arraybuffer";
  socket.binaryType = "arraybuffer";
  const pending: (string | ArrayBuffer)[] = [];
  const closeBoth = (code: number, reason: string) => {
    const safe = sendable(code) ? code : code === 1006 || code === 1005 ? 1011 : 1000;
    for (const ws of [socket, upstream]) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) {
        try {
          ws.close(safe, reason.slice(0, 120));
        } catch { /* already closing */ }
      }
    }
  };
  upstream.onopen = () => {
    for (const message of pending.splice(0)) upstream.send(message);
  };
  socket.onmessage = (event) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(event.data);
    else if (upstream.readyState === WebSocket.CONNECTING && pending.length < 1000) pending.push(event.data);
  };
  upstream.onmessage = (event) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(event.data);
  };
  socket.onclose = (event) => closeBoth(event.code, event.reason);
  upstream.onclose = (event) => closeBoth(event.code, event.reason);
  socket.onerror = () => closeBoth(1011, "browser connection failed");
  upstream.onerror = () => closeBoth(1011, "tenant connection failed");
  return response;
}
