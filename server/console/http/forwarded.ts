/**
 * Who sent a request, where the browser believes it is talking to, and whether a request comes from the
 * console's own pages. One rule for state-changing requests (session/middleware.ts), WebSocket upgrades
 * (ws/relay.ts, the tenant proxy), links the console hands out and throttles keyed by sender: the connection
 * and the Host header tell, and X-Forwarded-For / -Host / -Proto count only with CONSOLE_TRUST_FORWARDED=on,
 * when a reverse proxy in front sets them; otherwise any client could name its own address or origin there.
 */
import type { Context, HonoRequest } from "hono";
import { getConnInfo } from "hono/deno";
import { isForwardableAddress } from "../../lib/s3/forwarded_client.ts";

/** First value of a header a proxy may have listed several times ("a, b": the first is what the browser used). */
const first = (value: string | undefined) => value?.split(",")[0].trim() || undefined;

/**
 * The sender's address: the peer of the connection, or the address a trusted proxy appended last to
 * X-Forwarded-For (earlier entries are whatever the client wrote there).
 */
export function clientAddress(c: Context, trustForwarded: boolean): string {
  const forwarded = trustForwarded ? c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim() : undefined;
  // Only an address is taken: the value is passed on to the storage (vouched sign-in) and keys throttles.
  if (forwarded && isForwardableAddress(forwarded)) return forwarded;
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** host[:port] of the console as the browser reached it. */
export function publicHost(req: HonoRequest, trustForwarded: boolean): string {
  return (trustForwarded ? first(req.header("x-forwarded-host")) : undefined) ?? req.header("host") ??
    new URL(req.url).host;
}

/** `http` or `https`, as the browser reached the console. */
export function publicProtocol(req: HonoRequest, trustForwarded: boolean): string {
  const forwarded = trustForwarded ? first(req.header("x-forwarded-proto"))?.toLowerCase() : undefined;
  if (forwarded === "http" || forwarded === "https") return forwarded;
  return new URL(req.url).protocol.replace(":", "");
}

/**
 * Whether the browser reached the console over HTTPS: Deck's own TLS, or a trusted proxy's X-Forwarded-Proto.
 * Decides the session cookie's Secure flag and HSTS, so a console behind a TLS-terminating proxy gets both.
 */
export function isHttps(req: HonoRequest, trustForwarded: boolean): boolean {
  return publicProtocol(req, trustForwarded) === "https";
}

/**
 * Whether the request comes from the console's own pages. Browsers send Origin on every cross-origin or
 * state-changing request and on every WebSocket upgrade; when it is absent, Sec-Fetch-Site tells, and a
 * client sending neither is not a browser a page could steer. `null` (sandboxed frames, file: pages) and an
 * Origin that is not a URL are other origins.
 */
export function isSameOrigin(req: HonoRequest, trustForwarded: boolean): boolean {
  const origin = req.header("origin");
  if (origin === undefined) {
    const site = req.header("sec-fetch-site");
    return site === undefined || site === "same-origin" || site === "none";
  }
  if (origin === "null") return false;
  try {
    return new URL(origin).host === publicHost(req, trustForwarded);
  } catch {
    return false;
  }
}
