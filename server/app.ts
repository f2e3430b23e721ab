/**
 * The console's HTTP application. Middleware is listed top to bottom in the order it runs; nothing else
 * registers routes. Build it with createApp(deps) and serve `createFetchHandler(app, subpath)`.
 */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { AppDeps, AppEnv } from "./deps.ts";
import { ApiError, createErrorHandler } from "./errors.ts";
import { bodyLimit, noStore, requestLogger, securityHeaders } from "./http_headers.ts";
import { serveBuiltAssets } from "./render/static_assets.ts";
import { renderErrorPage } from "./render/error_page.tsx";
import { cookieSettings, sessionApi } from "./api/session.ts";
import { clearSessionCookie, loadSession, originCheck, sessionGuard } from "./session/middleware.ts";
import { allowedPages } from "./session/pages.ts";
import { accountApi } from "./api/account.ts";
import { bucketFeaturesApi } from "./api/bucket_features.ts";
import { bucketsApi } from "./api/buckets.ts";
import { settingsApi } from "./api/settings.ts";
import { groupsApi } from "./api/groups.ts";
import { policiesApi } from "./api/policies.ts";
import { usersApi } from "./api/users.ts";
import { dashboardApi } from "./api/dashboard.ts";
import { firstAllowedRoute } from "../routes/layout/menu.ts";
import { pageRoutes } from "../routes/mod.tsx";

/** JSON API bodies are small; uploads have their own streaming route and limit. */
const API_BODY_LIMIT = 1024 * 1024;

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const cookie = cookieSettings(deps);
  app.use(requestId(), requestLogger(deps.log), securityHeaders({ secure: deps.config.tls !== null }));
  app.use("/static/*", serveBuiltAssets());
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.use(noStore()); // everything below is per session: never cached by browsers or proxies
  app.use(loadSession(deps.sessionKey, deps.now), originCheck());
  app.use("/api/*", bodyLimit(API_BODY_LIMIT));
  app.route("/api/v1", sessionApi(deps)); // public: sign-in strategy, sign-in; logout and session check themselves
  app.use("/api/v1/*", sessionGuard(cookie)); // every API area mounted below needs a session

  // API areas are mounted here, one line each.
  app.route("/api/v1", dashboardApi(deps));
  app.route("/api/v1", usersApi(deps));
  app.route("/api/v1", groupsApi(deps));
  app.route("/api/v1", policiesApi(deps));
  app.route("/api/v1", accountApi(deps));
  app.route("/api/v1", bucketsApi(deps));
  app.route("/api/v1", bucketFeaturesApi(deps));
  app.route("/api/v1", settingsApi(deps));

  app.all("/api/*", () => {
    throw ApiError.notFound("not found", "no such API endpoint");
  });
  app.route("/", pageRoutes(deps)); // server-rendered pages: sign-in, then the signed-in shell

  // Unknown pages: signed in → the first page the session may see (spec 1 §2); otherwise sign in first.
  app.notFound((c) => {
    const session = c.get("session");
    if (!session) return c.redirect(deps.render.href("/login"), 302);
    const first = firstAllowedRoute(allowedPages(session.actions, { sso: session.sso }), session.distributed);
    return first ? c.redirect(deps.render.href(first), 302) : renderErrorPage(deps, c, ApiError.notFound());
  });
  app.onError(createErrorHandler({
    log: deps.log.error,
    loginUrl: deps.render.href("/login"),
    onUnauthorized: (c) => clearSessionCookie(c, cookie),
    renderErrorPage: (c, error) => renderErrorPage(deps, c, error),
  }));
  return app;
}

/**
 * Serves the app under the configured subpath: the prefix is stripped before routing, so routes are written
 * from "/", and links are built with `deps.render.href`. Requests outside the subpath are 404; the bare
 * prefix without its slash redirects.
 */
export function createFetchHandler(app: Hono<AppEnv>, subpath: string): (request: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response> {
  if (subpath === "/") return (request, info) => app.fetch(request, info);
  const bare = subpath.slice(0, -1);
  return (request, info) => {
    const url = new URL(request.url);
    if (url.pathname === bare) return Response.redirect(new URL(subpath + url.search, url), 308);
    if (!url.pathname.startsWith(subpath)) return new Response("404 Not Found", { status: 404 });
    url.pathname = url.pathname.slice(bare.length);
    return app.fetch(new Request(url, request), info);
  };
}
