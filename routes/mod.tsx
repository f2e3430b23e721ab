/**
 * Every server-rendered page, mounted by server/console/app/app.ts: public pages first, then the signed-in pages behind
 * the page guard, one line per area.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { bucketPages } from "./buckets.tsx";
import { toolPages } from "./tools.tsx";
import { dashboardPages } from "./dashboard.tsx";
import { iamPages } from "./iam.tsx";
import { licensePages } from "./license.tsx";
import { firstAllowedRoute } from "./layout/menu.ts";
import { loginPages } from "./login.tsx";
import { serverCheckPages } from "./server_check.ts";
import { ssoPages } from "./sso.tsx";
import { objectPages } from "./objects.tsx";
import { operatorPages } from "./operator.tsx";
import { volumesPages } from "./volumes.tsx";
import { tenantDetailPages } from "./tenant_detail.tsx";
import { pageGuard, pagesOf, renderInShell } from "./page_context.tsx";
import { settingsPages } from "./settings.tsx";
import { t } from "../islands/lib/i18n/t.ts";

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
  app.route("/", dashboardPages(deps));
  app.route("/", iamPages(deps));
  app.route("/", bucketPages(deps));
  app.route("/", settingsPages(deps));
  app.route("/", objectPages(deps));
  app.route("/", toolPages(deps));
  app.route("/", licensePages(deps));
  // Operator mode's pages exist only in that mode, as its API does (server/console/app/operator_mode.ts).
  if (deps.operator) {
    app.route("/", operatorPages(deps));
    app.route("/", tenantDetailPages(deps));
    app.route("/", volumesPages(deps));
  }
  return app;
}
