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
import { LoginInput, OAuthCallbackInput, OperatorLoginInput } from "../../lib/contract/session.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import { clientAddress } from "../http/forwarded.ts";
import * as sessions from "../services/session.ts";
import { signInOperator } from "../services/operator/session.ts";
import {
  clearSessionCookie,
  type CookieSettings,
  issueSessionCookie,
  requireSession,
} from "../session/middleware.ts";
import { readJson } from "./input.ts";
import { deleteCookie, getCookie } from "hono/cookie";
import { SSO_COOKIE } from "../session/oidc.ts";

export function cookieSettings(deps: AppDeps): CookieSettings {
  return { path: deps.config.subpath, trustForwarded: deps.config.trustForwarded };
}

/**
 * Sign-out, one function for `POST /api/v1/logout` and the sidebar's Logout form: the session's credentials
 * are revoked on the storage server (so a copy of the cookie stops working everywhere), then the cookie is
 * expired. A failed revocation throws and leaves the cookie: the user must not believe the session ended.
 */
export async function logout(deps: AppDeps, c: Context<AppEnv>): Promise<void> {
  const session = c.get("session");
  if (session) await sessions.signOut(deps, session);
  clearSessionCookie(c, cookieSettings(deps));
}

export function sessionApi(deps: AppDeps) {
  const cookie = cookieSettings(deps);
  /** Runs a sign-in, slowing down an address after repeated refusals. */
  async function throttled<T>(c: Context, signIn: (address: string) => Promise<T>): Promise<T> {
    const address = clientAddress(c, deps.config.trustForwarded);
    const wait = deps.loginThrottle.waitFor(address);
    if (wait > 0) {
      c.header("retry-after", String(Math.ceil(wait / 1000)));
      throw new ApiError(429, t("common.login.throttled"), {
        detail: t("common.login.throttledDetail", { seconds: String(Math.ceil(wait / 1000)) }),
      });
    }
    try {
      const session = await signIn(address);
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
          t("common.login.operatorMode"),
          t("common.login.operatorModeDetail"),
        );
      }
      const input = await readJson(c, LoginInput);
      const session = await throttled(c, (address) => sessions.signIn(deps, input, address));
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
      const session = await sessions.signInWithIdp(deps, input, getCookie(c, SSO_COOKIE));
      await issueSessionCookie(c, deps.sessionKey, session, cookie, deps.now());
      deleteCookie(c, SSO_COOKIE, { path: deps.config.subpath });
      return c.json({}, 201);
    })
    .post("/logout", async (c) => {
      requireSession(c);
      await logout(deps, c);
      return c.json({}, 200);
    })
    .get("/session", async (c) => c.json(await sessions.sessionInfo(deps, requireSession(c))));
}
