/**
 * Settings API, the part the bucket screens need (api-index §7).
 *
 *   GET  /configs/{name}      name, key_values
 *   PUT  /configs/{name}      key_values, arn_resource_id → restart
 *   GET  /admin/arns          notification target ARNs
 *   GET  /admin/tiers         tiers (no secrets)
 *   POST /service/restart     → 204
 */
import { type Context, Hono } from "hono";
import { SetConfigInput } from "../contract/settings.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { notificationArns } from "../services/bucket_events.ts";
import * as settings from "../services/settings.ts";
import { clientFor } from "../services/storage_clients.ts";
import { requireSession } from "../session/middleware.ts";
import { readJson } from "./input.ts";

export function settingsApi(deps: AppDeps) {
  const client = (c: Context<AppEnv>) => clientFor(deps, requireSession(c));
  return new Hono<AppEnv>()
    .get("/configs/:name", async (c) => c.json(await settings.getConfig(client(c), c.req.param("name"))))
    .put("/configs/:name", async (c) => c.json(await settings.setConfig(client(c), c.req.param("name"), await readJson(c, SetConfigInput))))
    .get("/admin/arns", async (c) => c.json({ arns: await notificationArns(client(c)) }))
    .get("/admin/tiers", async (c) => c.json(await settings.listTierViews(client(c))))
    .post("/service/restart", async (c) => {
      await settings.restartService(client(c));
      return c.body(null, 204);
    });
}
