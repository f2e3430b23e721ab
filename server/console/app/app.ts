/**
 * The console's HTTP application. Middleware is listed top to bottom in the order it runs; nothing else
 * registers routes. Build it with createApp(deps) and serve `createFetchHandler(app, subpath)`.
 */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError, createErrorHandler } from "../http/errors.ts";
import { bodyLimits, noStore, requestLogger, securityHeaders } from "./headers.ts";
import { serveBuiltAssets } from "../render/static_assets.ts";
import { renderErrorPage } from "../render/error_page.tsx";
import { requestLocale } from "../render/i18n.ts";
import { cookieSettings, sessionApi } from "../api/session.ts";
import { clearSessionCookie, loadSession, originCheck, sessionGuard } from "../session/middleware.ts";
import { liveAccess } from "../session/live_access.ts";
import { bucketNamesInPaths } from "../api/bucket_paths.ts";
import { createAdmission } from "../http/admission.ts";
import { type LazyArea, lazyArea, lazyAreas } from "../http/lazy_areas.ts";
import { sharedLinkProxy } from "../proxy/shared_link.ts";
import { consoleRelay } from "../ws/console.ts";
import { healRelay } from "../ws/heal.ts";
import { jobsRelay } from "../ws/jobs.ts";
import { healthInfoRelay } from "../ws/health_info.ts";
import { originalRequests } from "../ws/relay.ts";
import { traceRelay } from "../ws/trace.ts";
import { watchRelay } from "../ws/watch.ts";
import { firstAllowedRoute } from "../../../routes/layout/menu.ts";
import { pageRoutes } from "../../../routes/mod.tsx";
import { mountOperatorMode } from "./operator_mode.ts";
import { tenantProxy } from "../proxy/tenant.ts";

/** What an anonymous client may send (sign-in, the theme form): enough for any of them, and no more. */
const PUBLIC_BODY_LIMIT = 16 * 1024;
/** JSON API bodies are small; uploads have their own streaming route and limit. */
const API_BODY_LIMIT = 1024 * 1024;
/** Signed-in routes whose bodies are streamed (object uploads: api/object_uploads.ts), exempt from API_BODY_LIMIT. */
const STREAMED_BODY_ROUTES: RegExp[] = [
  /^\/api\/v1\/buckets\/[^/]+\/(objects\/upload|objects\/archive|uploads\/[^/]+\/parts\/\d+)$/,
];

/**
 * The console's API areas, each by the first segments of its paths under /api/v1/, loaded with their first
 * request (server/console/http/lazy_areas.ts); areas sharing a segment are asked in this order.
 */
export function apiAreas(deps: AppDeps): LazyArea<AppEnv>[] {
  return [
    lazyArea(
      ["admin"],
      new URL("../api/dashboard.ts", import.meta.url),
      (area: typeof import("../api/dashboard.ts")) => area.dashboardApi(deps),
    ),
    lazyArea(
      ["set-policy", "user", "users", "users-groups-bulk"],
      new URL("../api/users.ts", import.meta.url),
      (area: typeof import("../api/users.ts")) => area.usersApi(deps),
    ),
    lazyArea(
      ["group", "groups"],
      new URL("../api/groups.ts", import.meta.url),
      (area: typeof import("../api/groups.ts")) => area.groupsApi(deps),
    ),
    lazyArea(
      ["policies", "policy"],
      new URL("../api/policies.ts", import.meta.url),
      (area: typeof import("../api/policies.ts")) => area.policiesApi(deps),
    ),
    lazyArea(
      ["account", "service-account-credentials", "service-accounts", "user"],
      new URL("../api/account.ts", import.meta.url),
      (area: typeof import("../api/account.ts")) => area.accountApi(deps),
    ),
    lazyArea(
      ["buckets", "has-permission"],
      new URL("../api/buckets.ts", import.meta.url),
      (area: typeof import("../api/buckets.ts")) => area.bucketsApi(deps),
    ),
    lazyArea(
      ["bucket", "bucket-policy", "bucket-users", "buckets", "buckets-replication", "list-external-buckets"],
      new URL("../api/bucket_features.ts", import.meta.url),
      (area: typeof import("../api/bucket_features.ts")) => area.bucketFeaturesApi(deps),
    ),
    lazyArea(
      ["admin", "configs", "service"],
      new URL("../api/settings.ts", import.meta.url),
      (area: typeof import("../api/settings.ts")) => area.settingsApi(deps),
    ),
    lazyArea(
      ["identity"],
      new URL("../api/identity.ts", import.meta.url),
      (area: typeof import("../api/identity.ts")) => area.identityApi(deps),
    ),
    lazyArea(
      ["buckets", "share-links"],
      new URL("../api/objects.ts", import.meta.url),
      (area: typeof import("../api/objects.ts")) => area.objectsApi(deps),
    ),
    lazyArea(
      ["buckets"],
      new URL("../api/object_uploads.ts", import.meta.url),
      (area: typeof import("../api/object_uploads.ts")) => area.objectUploadsApi(deps),
    ),
    lazyArea(
      ["subscription"],
      new URL("../api/license.ts", import.meta.url),
      (area: typeof import("../api/license.ts")) => area.licenseApi(deps),
    ),
    lazyArea(
      ["logs"],
      new URL("../api/tools.ts", import.meta.url),
      (area: typeof import("../api/tools.ts")) => area.toolsApi(deps),
    ),
    lazyArea(
      ["jobs"],
      new URL("../api/jobs.ts", import.meta.url),
      (area: typeof import("../api/jobs.ts")) => area.jobsApi(deps),
    ),
    lazyArea(
      ["capabilities"],
      new URL("../api/capabilities.ts", import.meta.url),
      (area: typeof import("../api/capabilities.ts")) => area.capabilitiesApi(deps),
    ),
  ];
}

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const cookie = cookieSettings(deps);
  app.use(
    requestId(),
    requestLocale(), // texts, numbers and dates in the visitor's language from here on, error pages included
    requestLogger(deps.log),
    securityHeaders({
      trustForwarded: deps.config.trustForwarded,
      storageOrigin: deps.config.storagePublicUrl && new URL(deps.config.storagePublicUrl).origin,
    }),
  );
  app.use("/static/*", serveBuiltAssets());
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.use(noStore()); // everything below is per session: never cached by browsers or proxies
  app.use(
    loadSession(deps.sessionKey, () => deps.now(), !!deps.operator), // read per request: tests move the clock
    originCheck({ trustForwarded: deps.config.trustForwarded }),
  );
  if (deps.operator) app.all("/api/proxy/*", tenantProxy(deps)); // before the body limits: it streams any size
  app.use(
    bodyLimits({
      withoutSession: PUBLIC_BODY_LIMIT,
      withSession: API_BODY_LIMIT,
      streamed: STREAMED_BODY_ROUTES,
    }),
  );
  app.route("/api/v1", sessionApi(deps)); // public: sign-in strategy, sign-in; logout and session check themselves
  app.use("/api/v1/*", sessionGuard(cookie)); // every API area mounted below needs a session
  if (deps.operator) mountOperatorMode(app, deps); // tenants, storage; the console areas below then answer 404
  app.use(bucketNamesInPaths()); // a bucket name in any path (API or page) is checked once, here

  app.use(lazyAreas("/api/v1/", apiAreas(deps))); // API areas: see apiAreas

  // Live streams: each relay checks the session, Origin and its query before upgrading (server/console/ws/relay.ts).
  app.get("/ws/trace", traceRelay(deps));
  app.get("/ws/console", consoleRelay(deps));
  app.get("/ws/heal/:bucket", healRelay(deps));
  app.get("/ws/watch/:bucket", watchRelay(deps));
  app.get("/ws/health-info", healthInfoRelay(deps));
  app.get("/ws/jobs", jobsRelay(deps));

  app.all("/api/*", () => {
    throw ApiError.notFound("not found", "no such API endpoint");
  });
  app.route("/", sharedLinkProxy(deps)); // public: share links through the console (the storage checks them)
  app.route("/", pageRoutes(deps)); // server-rendered pages: sign-in, then the signed-in shell

  // Unknown pages: signed in → the first page the session may see (spec 1 §2); otherwise sign in first.
  app.notFound(async (c) => {
    const session = c.get("session");
    if (!session) return c.redirect(deps.render.href("/login"), 302);
    const first = firstAllowedRoute((await liveAccess(deps, session)).pages, session.distributed);
    return first
      ? c.redirect(deps.render.href(first), 302)
      : renderErrorPage(deps.render, c, ApiError.notFound());
  });
  app.onError(createErrorHandler({
    log: deps.log.error,
    loginUrl: deps.render.href("/login"),
    onUnauthorized: (c) => clearSessionCookie(c, cookie),
    renderErrorPage: (c, error) => renderErrorPage(deps.render, c, error),
  }));
  return app;
}

/**
 * Serves the app under the configured subpath, whichever way the proxy in front passes it: a proxy that keeps
 * the prefix (`location /console/ { proxy_pass http://deck:9090; }`) sends `/console/users`, which is stripped
 * here, and one that strips it (`proxy_pass http://deck:9090/;`, as MinIO's documentation writes it) sends
 * `/users`, served as it is. Routes are written from "/", and every link, redirect and cookie path the console
 * hands out carries the prefix (`deps.render.href`), which is what the browser sees in both cases. The bare
 * prefix without its slash redirects to it (a relative Location: the proxy's host is the browser's).
 */
export function createFetchHandler(
  app: Hono<AppEnv>,
  subpath: string,
): (request: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response> {
  const admission = createAdmission(ADMISSION);
  const serve = (request: Request, info?: Deno.ServeHandlerInfo) =>
    takesTurns(request) ? admission.run(() => app.fetch(request, info)) : app.fetch(request, info);
  if (subpath === "/") return serve;
  const bare = subpath.slice(0, -1);
  return (request, info) => {
    const url = new URL(request.url);
    if (url.pathname === bare) {
      return new Response(null, { status: 308, headers: { location: subpath + url.search } });
    }
    if (!url.pathname.startsWith(subpath)) return serve(request, info);
    url.pathname = url.pathname.slice(bare.length);
    const rewritten = new Request(url, request);
    // Deno can upgrade only the request it received: WebSocket relays look it up here.
    if (request.headers.get("upgrade")) originalRequests.set(rewritten, request);
    return serve(rewritten, info);
  };
}

/**
 * Pages and API calls at once per console, and how long one may hold its place (server/console/http/
 * admission.ts). 32: enough to keep the storage thread busy while the console's thread renders (the load
 * benchmark's page kinds at 24 and 32 against none, docs/benchmark-notes.md).
 */
const ADMISSION = { limit: 32, holdMs: 1000 };

/**
 * Whether a request waits its turn: not the health check (a monitor must see a busy console answer), not the
 * built assets (each page's own scripts and styles), not a WebSocket upgrade (a live stream is not a request
 * to finish).
 */
function takesTurns(request: Request): boolean {
  if (request.headers.has("upgrade")) return false;
  const url = request.url;
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  return !(path === "/healthz" || path.startsWith("/healthz?") || path.startsWith("/static/"));
}
