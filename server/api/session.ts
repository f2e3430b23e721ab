/**
 * Sign-in and session endpoints (api-index §2). Mounted before the session guard: sign-in is public, the
 * others check the session themselves.
 *
 *   GET  /login               which sign-in page to show (form or SSO redirect)
 *   POST /login               access key + secret key → session cookie
 *   POST /login/operator      Kubernetes service-account token (operator mode) → session cookie
 *   POST /login/oauth2/auth   SSO code + state → session cookie
 *   POST /logout              revoke the session's credentials, expire the session cookie
 *   GET  /session             status, allowed pages, features, distributedMode
 */
import { type Context, Hono } from "hono";
import { LoginInput, OAuthCallbackInput, OperatorLoginInput } from "../contract/session.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { clientAddress as senderAddress } from "../forwarded.ts";
import * as sessions from "../services/session.ts";
import { signInOperator } from "../services/operator_session.ts";
import {
  clearSessionCookie,
  type CookieSettings,
  issueSessionCookie,
  requireSession,
} from "../session/middleware.ts";
import { readJson } from "./input.ts";

/** The caller's address for throttling; the direct peer only, since forwarded headers can be forged. */
export function clientAddress(c: Context): string {
  return senderAddress(c, false);
}

export function cookieSettings(deps: AppDeps): CookieSettings {
  return { path: deps.config.subpath, secure: deps.config.tls !== null };
}

export function sessionApi(deps: AppDeps) {
  const cookie = cookieSettings(deps);
  /** Runs a sign-in, slowing down an address after repeated refusals. */
  async function throttled<T>(c: Context, signIn: () => Promise<T>): Promise<T> {
    const address = clientAddress(c);
    const wait = deps.loginThrottle.waitFor(address);
    if (wait > 0) {
      c.header("retry-after", String(Math.ceil(wait / 1000)));
      throw new ApiError(429, "too many failed sign-ins", {
        detail: `try again in ${Math.ceil(wait / 1000)} seconds`,
      });
    }
    try {
      const session = await signIn();
      deps.loginThrottle.recordSuccess(address);
      return session;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) deps.loginThrottle.recordFailure(address);
      throw error;
    }
  }
  return new Hono<AppEnv>()
    .get("/login", async (c) => c.json(await sessions.loginStrategy(deps)))
    .post("/login", async (c) => {
      if (deps.operator) {
        throw ApiError.badRequest(
          "this console runs in operator mode",
          "sign in with a service-account token (POST /api/v1/login/operator)",
        );
      }
      const input = await readJson(c, LoginInput);
      const session = await throttled(c, () => sessions.signIn(deps, input));
      await issueSessionCookie(c, deps.sessionKey, session, cookie, deps.now());
      return c.json({}, 201);
    })
    .post("/login/operator", async (c) => {
      const operator = deps.operator;
      if (!operator) {
        throw ApiError.notFound(
          "not found",
          "operator sign-in is served in operator mode only (CONSOLE_OPERATOR_MODE=on)",
        );
      }
      const { jwt } = await readJson(c, OperatorLoginInput);
      const session = await throttled(
        c,
        () => signInOperator(operator, jwt, deps.now() + deps.config.sessionSeconds * 1000),
      );
      await issueSessionCookie(c, deps.sessionKey, session, cookie, deps.now());
      return c.json({}, 201);
    })
    .post("/login/oauth2/auth", async (c) => {
      const input = await readJson(c, OAuthCallbackInput);
      const session = await sessions.signInWithIdp(deps, input);
      await issueSessionCookie(c, deps.sessionKey, session, cookie, deps.now());
      return c.json({}, 201);
    })
    .post("/logout", async (c) => {
      await sessions.signOut(deps, requireSession(c));
      clearSessionCookie(c, cookie);
      return c.json({}, 200);
    })
    .get("/session", async (c) => c.json(await sessions.sessionInfo(deps, requireSession(c))));
}
