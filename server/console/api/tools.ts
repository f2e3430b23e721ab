/**
 * The tools area's API (api-index §8). The live streams are WebSocket routes mounted in app.ts.
 *
 *   GET /logs/search   audit log search: fp (repeatable key:value), pageSize, pageNo, order, timeStart, timeEnd;
 *                      needs admin:OBDInfo now (services/tools.ts AUDIT_SEARCH_ACTION)
 */
import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { parseAuditSearch, searchAuditLog } from "../services/tools.ts";
import { requireSession } from "../session/middleware.ts";

export function toolsApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get("/logs/search", async (c) => {
      const input = parseAuditSearch(new URL(c.req.url).searchParams);
      return c.json(await searchAuditLog(deps, requireSession(c), input));
    });
}
