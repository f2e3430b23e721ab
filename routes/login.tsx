/**
 * Pages outside the shell (spec 1 §2): /login in the variant the server chooses (single sign-on's own pages
 * are in sso.tsx), and the plain-form actions every page uses: the theme and language switches and Logout.
 */
import { type Context, Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { isLocale, LOCALE_COOKIE } from "../islands/lib/i18n/locales.ts";
import LoginForm from "../islands/LoginForm.tsx";
import OperatorLogin from "../islands/OperatorLogin.tsx";
import { kubernetesReachable } from "../server/console/services/operator/session.ts";
import { logout } from "../server/console/api/session.ts";
import type { LoginStrategy } from "../server/lib/contract/session.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import { loginStrategy } from "../server/console/services/session.ts";
import { openReason } from "../server/console/session/sso_reasons.ts";
import { SsoCard } from "./sso.tsx";
import { isHttps } from "../server/console/http/forwarded.ts";
import { themeOf } from "./page_context.tsx";
import { LanguageSwitch } from "./layout/Shell.tsx";
import { t } from "../islands/lib/i18n/t.ts";

/** Whether the backend answers at all: the storage server, or in operator mode the Kubernetes API server. */
async function storageReachable(deps: AppDeps): Promise<boolean> {
  if (deps.operator) return await kubernetesReachable(deps.operator.k8s);
  try {
    const res = await deps.fetch(`${deps.storage.url}/`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return true;
  } catch (error) {
    // The page can only say "cannot be reached"; the log says why (a certificate the console does not trust…).
    const reason = error instanceof Error ? `${error.message} ${error.cause ?? ""}`.trim() : String(error);
    deps.log.warn("the storage server cannot be reached", { url: deps.storage.url, reason });
    return false;
  }
}

/** The sign-in page's frame: the card, and under it the language switch (a visitor not yet signed in chooses too). */
function LoginFrame(
  { children, href, back }: { children: React.ReactNode; href: (path: string) => string; back: string },
) {
  return (
    <main className="min-h-screen flex flex-col items-center justify-center gap-4 bg-base-200 p-6">
      {children}
      <LanguageSwitch href={href} path={back} onCard />
    </main>
  );
}

function Unreachable({ retry }: { retry: string }) {
  return (
    <div className="card bg-base-100 shadow-xl w-full max-w-sm">
      <div className="card-body items-center text-center gap-4">
        <p data-testid="backend-unreachable">{t("common.login.unreachable")}</p>
        <a className="btn btn-primary" href={retry}>{t("common.action.retry")}</a>
      </div>
    </div>
  );
}

/** A same-site path to return to after a form such as the theme switch (never another host). */
export function safeBack(value: unknown): string {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") &&
      !value.includes("\\")
    ? value
    : "/";
}

export function loginPages(deps: AppDeps) {
  const render = (
    c: Context<AppEnv>,
    body: React.ReactNode,
    title = t("common.login.pageTitle"),
    status = 200,
  ) => {
    const url = new URL(c.req.url);
    return deps.render({
      title,
      status,
      theme: themeOf(c),
      body: <LoginFrame href={deps.render.href} back={c.req.path + url.search}>{body}</LoginFrame>,
    });
  };

  return new Hono<AppEnv>()
    .get("/login", async (c) => {
      if (c.get("session")) return c.redirect(deps.render.href("/"), 302);
      let strategy: LoginStrategy | null = null;
      try {
        strategy = await loginStrategy(deps);
      } catch {
        strategy = null;
      }
      if (!strategy || !(await storageReachable(deps))) {
        return render(
          c,
          <Unreachable retry={deps.render.href("/login")} />,
          t("common.login.pageTitle"),
          503,
        );
      }
      const ssoError = await openReason(deps.sessionKey, c.req.query("sso_error"), deps.now());
      const wantsForm = c.req.query("form") === "1";
      if (strategy.loginStrategy === "redirect" && strategy.redirect && !wantsForm) {
        // Auto-redirect only when no refusal is to be shown: otherwise a failing sign-in would loop.
        if (deps.config.idp?.autoRedirect && !ssoError) return c.redirect(strategy.redirect, 302);
        return render(
          c,
          <SsoCard
            start={strategy.redirect}
            formHref={`${deps.render.href("/login")}?form=1`}
            error={ssoError}
          />,
        );
      }
      const failed = ssoError ?? undefined;
      if (strategy.loginStrategy === "service-account" || (wantsForm && deps.operator)) {
        return render(
          c,
          <Island name="OperatorLogin" component={OperatorLogin} props={{}} />,
          t("common.login.operatorPageTitle"),
        );
      }
      return render(c, <Island name="LoginForm" component={LoginForm} props={{ initialError: failed }} />);
    })
    .post("/theme", async (c) => {
      const form = await c.req.parseBody();
      const theme = form.theme === "light" || form.theme === "dark" ? form.theme : "system";
      setCookie(c, "theme", theme, {
        path: deps.config.subpath,
        sameSite: "Lax",
        maxAge: 365 * 86400,
        secure: isHttps(c.req, deps.config.trustForwarded),
      });
      return c.redirect(deps.render.href(safeBack(form.back)), 303);
    })
    .post("/language", async (c) => {
      const form = await c.req.parseBody();
      if (isLocale(form.lang)) {
        setCookie(c, LOCALE_COOKIE, form.lang, {
          path: deps.config.subpath,
          sameSite: "Lax",
          maxAge: 365 * 86400,
          secure: isHttps(c.req, deps.config.trustForwarded),
        });
      } else deleteCookie(c, LOCALE_COOKIE, { path: deps.config.subpath }); // "browser": follow its preference
      return c.redirect(deps.render.href(safeBack(form.back)), 303);
    })
    .post("/logout", async (c) => {
      await logout(deps, c);
      return c.redirect(deps.render.href("/login"), 303);
    });
}
