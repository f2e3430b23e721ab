/**
 * Sign-in and session endpoints (api-index §2). Mounted before the session guard: sign-in is public, the
 * others check the session themselves.
 *
 *   GET  /login               which sign-in page to show (form or SSO redirect)
 *   POST /login               access key + secret key → session cookie
 *   POST /login/oauth2/auth   SSO code + state → session cookie
 *   POST /logout              expire the session cookie
 *   GET  /session             status, allowed pages, features, distributedMode
 */
import { type Context, Hono } from "hono";
import { getConnInfo } from "hono/deno";
import { LoginInput, OAuthCallbackInput } from "../contract/session.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { ApiError } from "../errors.ts";
import * as sessions from "../services/session.ts";
import { clearSessionCookie, type CookieSettings, issueSessionCookie, requireSession } from "../session/middleware.ts";
import { readJson } from "./input.ts";

/** The caller's address for throttling; the direct peer only, since forwarded headers can be forged. */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

export function cookieSettings(deps: AppDeps): CookieSettings {
  return { path: deps.config.subpath, secure: deps.config.tls !== null };
}

export function sessionApi(deps: AppDeps) {
  const cookie = cookieSettings(deps);
  return new Hono<AppEnv>()
    .get("/login", async (c) => c.json(await sessions.loginStrategy(deps)))
    .post("/login", async (c) => {
      const address = clientAddress(c);
      const wait = deps.loginThrottle.waitFor(address);
      if (wait > 0) {
        c.header("retry-after", String(Math.ceil(wait / 1000)));
        throw new ApiError(429, "too many failed sign-ins", { detail: `try again in ${Math.ceil(wait / 1000)} seconds` });
      }
      const input = await readJson(c, LoginInput);
      let session;
      try {
        session = await sessions.signIn(deps, input);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) deps.loginThrottle.recordFailure(address);
        throw error;
      }
      deps.loginThrottle.recordSuccess(address);
      await issueSessionCookie(c, deps.sessionKey, session, cookie, deps.now());
      return c.json({}, 201);
    })
    .post("/login/oauth2/auth", async (c) => {
      const input = await readJson(c, OAuthCallbackInput);
      const session = await sessions.signInWithIdp(deps, input);
      await issueSessionCookie(c, deps.sessionKey, session, cookie, deps.now());
      return c.json({}, 201);
    })
    .post("/logout", (c) => {
      requireSession(c);
      clearSessionCookie(c, cookie);
      return c.json({}, 200);
    })
    .get("/session", (c) => c.json(sessions.sessionInfo(requireSession(c))));
}
