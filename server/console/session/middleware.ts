/**
 * Session plumbing for every request: `loadSession` opens the cookie (or Bearer header), `sessionGuard`
 * refuses API calls without one, `requireSession` gives handlers the session or throws 401, and
 * `originCheck` refuses state-changing requests coming from another origin.
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "./env.ts";
import { ApiError } from "../http/errors.ts";
import { isHttps, isSameOrigin } from "../http/forwarded.ts";
import { isOperatorSession, openSession, sealSession, type SessionData } from "./token.ts";

/** The cookie's name is the original console's, so tools that look for it keep working. */
export const SESSION_COOKIE = "token";

export interface CookieSettings {
  /** The console's subpath, so the cookie is sent only to it. */
  path: string;
  /** CONSOLE_TRUST_FORWARDED: X-Forwarded-Proto tells whether the browser uses HTTPS (forwarded.ts isHttps). */
  trustForwarded: boolean;
}

/**
 * Sets the session cookie: HttpOnly, SameSite=Strict, Secure when the browser uses HTTPS (Deck's TLS or a
 * trusted proxy's), lifetime of the session.
 */
export async function issueSessionCookie(
  c: Context,
  key: CryptoKey,
  data: SessionData,
  settings: CookieSettings,
  now: number,
) {
  setCookie(c, SESSION_COOKIE, await sealSession(key, data), {
    path: settings.path,
    httpOnly: true,
    sameSite: "Strict",
    secure: isHttps(c.req, settings.trustForwarded),
    maxAge: Math.max(0, Math.floor((data.expiresAt - now) / 1000)),
  });
}

/** Expires the session cookie (logout, and on any 401 so the browser stops sending a dead token). */
export function clearSessionCookie(c: Context, settings: CookieSettings) {
  deleteCookie(c, SESSION_COOKIE, {
    path: settings.path,
    secure: isHttps(c.req, settings.trustForwarded),
    httpOnly: true,
    sameSite: "Strict",
  });
}

/**
 * Opens the session from the cookie or an `Authorization: Bearer` header (api-index §1); sets c.var.session.
 * A session of the other mode is no session here: two Decks on one host with the same CONSOLE_PBKDF_* settings
 * (one in each mode) share the cookie, since browsers send it to every port, and each opens the other's.
 */
export function loadSession(
  key: CryptoKey,
  now: () => number,
  operatorMode: boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    const token = getCookie(c, SESSION_COOKIE) ?? bearer;
    const session = token ? await openSession(key, token, now()) : null;
    c.set("session", session && isOperatorSession(session) === operatorMode ? session : null);
    await next();
  };
}

/** Returns the request's session or throws 401 (which also clears the cookie, see sessionGuard). */
export function requireSession(c: Context<AppEnv>): SessionData {
  const session = c.get("session");
  if (!session) throw ApiError.unauthorized();
  return session;
}

/** Refuses requests without a valid session with 401 and clears a stale cookie. */
export function sessionGuard(settings: CookieSettings): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get("session")) {
      if (getCookie(c, SESSION_COOKIE)) clearSessionCookie(c, settings);
      return c.json(ApiError.unauthorized().toBody(), 401);
    }
    await next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery defence: a state-changing request must come from the console's own origin
 * (the rule, shared with WebSocket upgrades, is in forwarded.ts).
 */
export function originCheck(options: { trustForwarded: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && !isSameOrigin(c.req, options.trustForwarded)) {
      throw ApiError.forbidden(
        "cross-origin request refused",
        "state-changing requests must come from the console's own pages",
      );
    }
    await next();
  };
}
