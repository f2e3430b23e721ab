/**
 * Every server-rendered page, mounted by server/app.ts: public pages first, then the signed-in pages behind
 * the page guard, one line per area.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../server/deps.ts";
import { bucketPages } from "./buckets.tsx";
import { dashboardPages } from "./dashboard.tsx";
import { iamPages } from "./iam.tsx";
import { firstAllowedRoute } from "./layout/menu.ts";
import { loginPages } from "./login.tsx";
import { pageGuard, pagesOf, renderInShell } from "./page_context.tsx";

export function pageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.route("/", loginPages(deps));
  app.use("*", pageGuard(deps));
  app.get("/", (c) => {
    const session = c.get("session")!;
    const first = firstAllowedRoute(pagesOf(session), session.distributed);
    if (first) return c.redirect(deps.render.href(first), 302);
    return renderInShell(deps, c, { title: "Deck", body: <p className="text-lg">Your account has no console pages yet. Ask an administrator for a policy.</p> });
  });
  app.route("/", dashboardPages(deps));
  app.route("/", iamPages(deps));
  app.route("/", bucketPages(deps));
  return app;
}
