/**
 * Single sign-on pages (spec 1 §2): the SSO login card, /login/sso which starts a sign-in (fresh state,
 * nonce and PKCE verifier, sealed in a cookie) and leaves for the provider, and /oauth_callback, which shows
 * the provider's error as 'IDP Error:' or finishes the sign-in. A refusal goes back to /login with the
 * reason sealed in the address (server/console/session/sso_reasons.ts), so the page says which step failed.
 */
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { cookieSettings } from "../server/console/api/session.ts";
import type { AppDeps } from "../server/console/deps.ts";
import { ApiError } from "../server/console/http/errors.ts";
import { isHttps, publicHost, publicProtocol } from "../server/console/http/forwarded.ts";
import { beginSso, signInWithIdp } from "../server/console/services/session.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { issueSessionCookie } from "../server/console/session/middleware.ts";
import { SSO_COOKIE, STATE_TTL_MS } from "../server/console/session/oidc.ts";
import { sealReason } from "../server/console/session/sso_reasons.ts";
import { themeOf } from "./page_context.tsx";
import { t } from "../islands/lib/i18n/t.ts";

export function LoginError({ text }: { text?: string | null }) {
  if (!text) return null;
  return (
    <div role="alert" className="alert alert-error w-full max-w-lg" data-testid="login-error">
      <span>{text}</span>
    </div>
  );
}

/** 'Welcome' and 'Login with SSO'; the access-key form stays one link away (root, break-glass accounts). */
export function SsoCard(
  { start, formHref, error }: { start: string; formHref: string; error?: string | null },
) {
  return (
    <div className="flex flex-col items-center gap-4 w-full">
      <LoginError text={error} />
      <div className="card bg-base-100 shadow-xl w-full max-w-sm">
        <div className="card-body gap-4">
          <h1 className="card-title text-2xl">{t("common.login.welcome")}</h1>
          <a className="btn btn-primary w-full" href={start}>{t("common.login.withSso")}</a>
          <a className="link text-sm text-center" href={formHref}>{t("common.login.withAccessKey")}</a>
        </div>
      </div>
    </div>
  );
}

export function ssoPages(deps: AppDeps) {
  const frame = (c: Context<AppEnv>, body: React.ReactNode, title: string, status: number) =>
    deps.render({
      title,
      status,
      theme: themeOf(c),
      body: <main className="min-h-screen flex items-center justify-center bg-base-200 p-6">{body}</main>,
    });
  const backToLogin = async (c: Context<AppEnv>, error: unknown) => {
    const text = error instanceof ApiError ? error.detail || error.message : t("common.login.ssoFailed");
    if (!(error instanceof ApiError)) {
      deps.log.warn("single sign-on failed", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    const sealed = await sealReason(deps.sessionKey, text, deps.now());
    return c.redirect(`${deps.render.href("/login")}?sso_error=${sealed}`, 302);
  };

  return new Hono<AppEnv>()
    .get("/login/sso", async (c) => {
      const origin = `${publicProtocol(c.req, deps.config.trustForwarded)}://${
        publicHost(c.req, deps.config.trustForwarded)
      }`;
      try {
        const { url, pending } = await beginSso(deps, origin);
        setCookie(c, SSO_COOKIE, pending, {
          path: deps.config.subpath,
          httpOnly: true,
          // Lax: the provider's redirect back is a cross-site top-level navigation, which Strict would strip.
          sameSite: "Lax",
          secure: isHttps(c.req, deps.config.trustForwarded),
          maxAge: STATE_TTL_MS / 1000,
        });
        return c.redirect(url, 302);
      } catch (error) {
        return await backToLogin(c, error);
      }
    })
    .get("/oauth_callback", async (c) => {
      const error = c.req.query("error");
      const description = c.req.query("error_description");
      if (error || description) {
        deleteCookie(c, SSO_COOKIE, { path: deps.config.subpath });
        const again = await sealReason(
          deps.sessionKey,
          t("common.login.idpRefused", { reason: [error, description].filter(Boolean).join(": ") }),
          deps.now(),
        );
        return frame(
          c,
          <div className="card bg-base-100 shadow-xl w-full max-w-lg">
            <div className="card-body">
              <h1 className="card-title">{t("common.login.idpErrorHeading")}</h1>
              <p data-testid="idp-error">{error}</p>
              <p data-testid="idp-error-description">{description}</p>
              <a
                className="btn btn-primary self-start"
                href={`${deps.render.href("/login")}?sso_error=${again}`}
              >
                {t("common.login.backToLogin")}
              </a>
            </div>
          </div>,
          t("common.login.idpErrorTitle"),
          400,
        );
      }
      try {
        const session = await signInWithIdp(
          deps,
          { code: c.req.query("code") ?? "", state: c.req.query("state") ?? "" },
          getCookie(c, SSO_COOKIE),
        );
        deleteCookie(c, SSO_COOKIE, { path: deps.config.subpath });
        await issueSessionCookie(c, deps.sessionKey, session, cookieSettings(deps), deps.now());
        // A page of our own moves on to "/": a redirect would continue the provider's cross-site chain, on
        // which browsers withhold the SameSite=Strict session cookie just set.
        const home = deps.render.href("/");
        return c.html(
          `<!doctype html><meta http-equiv="refresh" content="0;url=${home}"><a href="${home}">${
            t("common.login.continue")
          }</a>`,
        );
      } catch (failure) {
        deleteCookie(c, SSO_COOKIE, { path: deps.config.subpath });
        return await backToLogin(c, failure);
      }
    });
}
