/**
 * Request-wide middleware that is not about one API area: security headers, request logging and body limits.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { ApiError } from "../http/errors.ts";
import type { Logger } from "../../lib/http/log.ts";
import type { AppEnv } from "../session/env.ts";
import { isHttps } from "../http/forwarded.ts";

/**
 * Content-Security-Policy: scripts only from our own origin (the JSON props blocks are data, not script),
 * no framing by others, no plugins. Styles allow inline attributes because React renders style props.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Sets the security headers on every response, with HSTS when the browser came over HTTPS (Deck's own TLS, or
 * a trusted proxy's X-Forwarded-Proto: forwarded.ts isHttps); never over plain HTTP (RFC 6797 §7.2).
 * `storageOrigin` (CONSOLE_STORAGE_PUBLIC_URL's origin) may be reached by pages too: upload parts go there.
 */
export function securityHeaders(
  options: { trustForwarded: boolean; storageOrigin?: string | null },
): MiddlewareHandler {
  const policy = options.storageOrigin
    ? CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${options.storageOrigin}`)
    : CONTENT_SECURITY_POLICY;
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (!headers.has("content-security-policy")) headers.set("content-security-policy", policy);
    if (!headers.has("x-frame-options")) headers.set("x-frame-options", "DENY");
    headers.set("x-content-type-options", "nosniff");
    headers.set("referrer-policy", "same-origin");
    headers.set("cross-origin-opener-policy", "same-origin");
    headers.set("permissions-policy", "camera=(), microphone=(), geolocation=()");
    headers.set("server", "Deck");
    if (isHttps(c.req, options.trustForwarded)) headers.set("strict-transport-security", "max-age=31536000");
  };
}

/** Logs one line per request: method, path (no query: it may carry object names or tokens), status, time. */
export function requestLogger(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    log.info("request", {
      requestId: c.get("requestId" as never),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  };
}

/** Marks responses uncacheable unless a handler chose otherwise (pages and API answers are per session). */
export function noStore(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  };
}

/** Limits request bodies; the error uses the API contract shape. */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, "request body too large", { detail: `the limit is ${maxBytes} bytes` });
    },
  });
}

/**
 * Body limits for every request, decided before any handler reads: without a session (sign-in, the theme
 * form, anything an anonymous client can reach) only `withoutSession` bytes; with one, `withSession`, except
 * on `streamed` paths (uploads), which read their bodies as streams. A larger declared Content-Length is
 * refused at once; a body without one is refused as it passes the limit. The listener then closes the
 * connection instead of reading the rest (server/lib/http/listener.ts).
 */
export function bodyLimits(
  limits: { withoutSession: number; withSession: number; streamed?: RegExp[] },
): MiddlewareHandler<AppEnv> {
  const small = bodyLimit(limits.withoutSession);
  const large = bodyLimit(limits.withSession);
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return await next();
    if (!c.get("session")) return await small(c, next);
    if (limits.streamed?.some((pattern) => pattern.test(c.req.path))) return await next();
    return await large(c, next);
  };
}
