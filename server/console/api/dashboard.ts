/**
 * Dashboard API (api-index §3).
 *
 *   GET /admin/info                    buckets, objects, usage, servers; widgets and their source when allowed
 *   GET /admin/info/widgets/:id[/]     one widget's series (query start, end: epoch seconds; step: seconds)
 */
import { type Context, Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { parseWidgetRange } from "../metrics/mod.ts";
import { adminInfo, METRICS_ACTION } from "../services/dashboard.ts";
import { requireAction } from "../session/live_access.ts";
import { requireSession } from "../session/middleware.ts";

export function dashboardApi(deps: AppDeps) {
  const widget = async (c: Context<AppEnv>) => {
    // Checked with the session's own credentials every time (a few seconds' cache): a signed-out, disabled or
    // deleted account, or one whose permission was removed, reads no metrics.
    await requireAction(deps, requireSession(c), METRICS_ACTION, "reading metrics");
    const id = c.req.param("id") ?? "";
    if (!/^\d{1,9}$/.test(id)) throw ApiError.badRequest("invalid widget id", `"${id}" is not a number`);
    return c.json(await deps.metrics.widgetDetails(Number(id), parseWidgetRange(c.req.query())));
  };
  return new Hono<AppEnv>()
    .get("/admin/info", async (c) => c.json(await adminInfo(deps, requireSession(c))))
    // The original UI asks with a trailing slash (api-index §1).
    .get("/admin/info/widgets/:id", widget)
    .get("/admin/info/widgets/:id/", widget);
}
