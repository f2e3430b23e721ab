/**
 * Dashboard API (api-index §3).
 *
 *   GET /admin/info   buckets, objects, usage, servers (basic view)
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { adminInfo } from "../services/dashboard.ts";
import { requireSession } from "../session/middleware.ts";

export function dashboardApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get("/admin/info", async (c) => c.json(await adminInfo(deps, requireSession(c))));
}
