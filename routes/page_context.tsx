/**
 * What every server-rendered page needs: the session (or a redirect to sign-in), the theme from its cookie,
 * and the shell around the page's content.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { ReactNode } from "react";
import { RESTART_COOKIE } from "../server/console/http/restart_cookie.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { capitalize, detailBeside } from "../islands/lib/messages.ts";
import { toApiError } from "../server/console/http/errors.ts";
import type { Theme } from "../server/console/render/page.tsx";
import { liveAccess } from "../server/console/session/live_access.ts";
import { isPathAllowed } from "../server/console/session/pages.ts";
import { missingCapability, serverCapabilities } from "../server/console/session/capabilities.ts";
import { Unsupported } from "./layout/Unsupported.tsx";
import { firstAllowedRoute } from "./layout/menu.ts";
import { Shell } from "./layout/Shell.tsx";
import { t } from "../islands/lib/i18n/t.ts";

export function themeOf(c: Context): Theme {
  const value = getCookie(c, "theme");
  return value === "light" || value === "dark" ? value : "system";
}

/** The pages the session may see now, as the page guard read them (the same answer the session API gives). */
export const pagesOf = (c: Context<AppEnv>): string[] => c.get("access")?.pages ?? [];

/**
 * Guards page routes: no session → /login; a session the storage no longer accepts → /login (401, which
 * clears the cookie); a route the storage server cannot serve → a page saying what it lacks; a route the session
 * may not see now → its first allowed page (spec 1 §2 routing rules).
 */
export function pageGuard(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = c.get("session");
    if (!session) return c.redirect(deps.render.href("/login"), 302);
    c.set("access", await liveAccess(deps, session));
    const pages = pagesOf(c);
    const caps = session.k8sToken ? undefined : await serverCapabilities(deps, session);
    c.set("capabilities", caps);
    const missing = caps && c.req.path !== "/" ? missingCapability(c.req.path, caps) : null;
    if (caps && missing) {
      return renderInShell(deps, c, {
        title: t("common.unsupported.pageTitle"),
        status: 404,
        body: <Unsupported missing={missing} caps={caps} base={deps.render.href("/")} path={c.req.path} />,
      });
    }
    if (c.req.path !== "/" && !isPathAllowed(pages, c.req.path)) {
      const first = firstAllowedRoute(pages, session.distributed);
      if (first && first !== c.req.path) return c.redirect(deps.render.href(first), 302);
    }
    await next();
  };
}

/**
 * Renders a signed-in page inside the shell. A page whose data failed because the storage server refused the
 * session itself (revoked, expired, user disabled or deleted) is not rendered: the 401 is thrown, so the error
 * handler clears the cookie and sends the browser to sign in.
 */
export function renderInShell(
  deps: AppDeps,
  c: Context<AppEnv>,
  page: { title: string; body: ReactNode; error?: unknown; status?: number },
): Response {
  const session = c.get("session")!;
  const error = page.error === undefined ? undefined : toApiError(page.error);
  if (error?.status === 401) throw error;
  return deps.render({
    title: page.title,
    status: page.status,
    theme: themeOf(c),
    body: (
      <Shell
        href={deps.render.href}
        path={c.req.path}
        pages={pagesOf(c)}
        distributed={session.distributed}
        account={session.account || t("common.shell.ssoUser")}
        operator={!!session.k8sToken}
        theme={themeOf(c)}
        error={error
          ? {
            message: capitalize(error.message),
            detail: detailBeside(error.message, error.detail) || undefined,
          }
          : undefined}
        restart={{
          needed: getCookie(c, RESTART_COOKIE) === "1",
          mounted: /^\/(settings|webhook)(\/|$)/.test(c.req.path),
        }}
      >
        {page.body}
      </Shell>
    ),
  });
}
