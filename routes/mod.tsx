/**
 * Every server-rendered page, mounted by server/console/app/app.ts: public pages first, then the signed-in pages behind
 * the page guard, one line per area.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { firstAllowedRoute } from "./layout/menu.ts";
import { loginPages } from "./login.tsx";
import { serverCheckPages } from "./server_check.ts";
import { ssoPages } from "./sso.tsx";
import { pageGuard, pagesOf, renderInShell } from "./page_context.tsx";
import { t } from "../islands/lib/i18n/t.ts";
import { type LazyArea, lazyArea, lazyAreas } from "../server/console/http/lazy_areas.ts";

/**
 * The signed-in areas, each by the first segments of its paths; an area's module (its page, its islands and
 * the services only it uses) loads with its first request, so a start compiles only sign-in and the shell.
 * Named by URL (see lazyArea); build/compile.ts names each for the binary.
 */
export function pageAreas(deps: AppDeps): LazyArea<AppEnv>[] {
  const areas = [
    lazyArea(
      ["dashboard", "metrics"],
      new URL("./dashboard.tsx", import.meta.url),
      (area: typeof import("./dashboard.tsx")) => area.dashboardPages(deps),
    ),
    lazyArea(
      ["account", "users", "groups", "policies"],
      new URL("./iam.tsx", import.meta.url),
      (area: typeof import("./iam.tsx")) => area.iamPages(deps),
    ),
    lazyArea(
      ["buckets"],
      new URL("./buckets.tsx", import.meta.url),
      (area: typeof import("./buckets.tsx")) => area.bucketPages(deps),
    ),
    lazyArea(
      ["settings", "webhook"],
      new URL("./settings.tsx", import.meta.url),
      (area: typeof import("./settings.tsx")) => area.settingsPages(deps),
    ),
    lazyArea(
      ["object-browser"],
      new URL("./objects.tsx", import.meta.url),
      (area: typeof import("./objects.tsx")) => area.objectPages(deps),
    ),
    lazyArea(
      ["trace", "logs", "watch", "heal", "health-info"],
      new URL("./tools.tsx", import.meta.url),
      (area: typeof import("./tools.tsx")) => area.toolPages(deps),
    ),
    lazyArea(
      ["license"],
      new URL("./license.tsx", import.meta.url),
      (area: typeof import("./license.tsx")) => area.licensePages(deps),
    ),
  ];
  // Operator mode's pages exist only in that mode, as its API does (server/console/app/operator_mode.ts).
  if (!deps.operator) return areas;
  return [
    ...areas,
    lazyArea(
      ["tenants"],
      new URL("./operator.tsx", import.meta.url),
      (area: typeof import("./operator.tsx")) => area.operatorPages(deps),
    ),
    lazyArea(
      ["namespaces"],
      new URL("./tenant_detail.tsx", import.meta.url),
      (area: typeof import("./tenant_detail.tsx")) => area.tenantDetailPages(deps),
    ),
    lazyArea(
      ["storage"],
      new URL("./volumes.tsx", import.meta.url),
      (area: typeof import("./volumes.tsx")) => area.volumesPages(deps),
    ),
  ];
}

/**
 * "/users/" is the page "/users" (spec 1 §4 sends the browser to /users/ after deleting a user): redirect before
 * the page guard, which would otherwise treat the unknown path as a route to leave. Encoded slashes in names
 * (%2F) stay encoded, so a name ending in a slash is not touched. In the object browser a trailing slash is
 * meaningful (a folder, as S3 prefixes end in one), so its paths are left as they are.
 */
function dropTrailingSlash(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    const isFolder = path.startsWith("/object-browser/");
    if (
      (c.req.method === "GET" || c.req.method === "HEAD") && path.length > 1 && path.endsWith("/") &&
      !isFolder
    ) {
      const query = new URL(c.req.url).search;
      return c.redirect(deps.render.href(path.replace(/\/+$/, "")) + query, 302);
    }
    await next();
  };
}

export function pageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.route("/", loginPages(deps));
  app.route("/", ssoPages(deps));
  app.route("/", serverCheckPages(deps)); // before the guard: its POST returns to the page it came from
  app.use("*", dropTrailingSlash(deps));
  app.use("*", pageGuard(deps));
  app.get("/", (c) => {
    const session = c.get("session")!;
    const first = firstAllowedRoute(pagesOf(c), session.distributed);
    if (first) return c.redirect(deps.render.href(first), 302);
    return renderInShell(deps, c, {
      title: "Deck",
      body: <p className="text-lg">{t("common.home.noPages")}</p>,
    });
  });
  app.use(lazyAreas("/", pageAreas(deps)));
  return app;
}
