/**
 * The tools area's API (api-index §8). The live streams are WebSocket routes mounted in app.ts.
 *
 *   GET /logs/search   audit log search: fp (repeatable key:value), pageSize, pageNo, order, timeStart, timeEnd
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { parseAuditSearch, searchAuditLog } from "../services/tools.ts";

export function toolsApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get(
      "/logs/search",
      async (c) => c.json(await searchAuditLog(deps, parseAuditSearch(new URL(c.req.url).searchParams))),
    );
}
