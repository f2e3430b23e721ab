/**
 * Settings API (api-index §7).
 *
 *   GET  /configs                                   configurations, total
 *   GET  /configs/{name}                            name, key_values (secrets masked)
 *   PUT  /configs/{name}                            key_values, arn_resource_id → restart
 *   GET  /admin/notification_endpoints              notification_endpoints
 *   POST /admin/notification_endpoints              service, account_id, properties → 201
 *   GET  /admin/arns                                notification target ARNs
 *   GET  /admin/tiers                               items (no secrets)
 *   POST /admin/tiers                               type + s3 | gcs | azure → 201
 *   GET  /admin/tiers/{type}/{name}                 tier
 *   PUT  /admin/tiers/{type}/{name}/credentials     access_key, secret_key | creds
 *   POST /service/restart                           → 204
 *
 * Every configuration or notification-target save sets the restart flag (spec 2 §4; a cookie the pages read
 * to show the restart banner on every page, spec 3 §4), also one the server applied at once (its answer's
 * `restart` says which); a successful restart clears it.
 */
import { type Context, Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import {
  AddNotificationEndpointInput,
  AddTierInput,
  SetConfigInput,
  TierCredentialsInput,
} from "../../lib/contract/settings.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { notificationArns } from "../services/bucket_events.ts";
import * as settings from "../services/settings.ts";
import * as tiers from "../services/settings_tiers.ts";
import { clientFor } from "../session/clients.ts";
import { requireSession } from "../session/middleware.ts";
import { readJson } from "./input.ts";
import { isHttps } from "../http/forwarded.ts";
import { RESTART_COOKIE } from "../http/restart_cookie.ts";

export function settingsApi(deps: AppDeps) {
  const client = (c: Context<AppEnv>) => clientFor(deps, requireSession(c));
  const cookie = (c: Context<AppEnv>) => ({
    path: deps.config.subpath,
    sameSite: "Strict" as const,
    httpOnly: true,
    secure: isHttps(c.req, deps.config.trustForwarded),
  });
  const flagRestart = (c: Context<AppEnv>) =>
    setCookie(c, RESTART_COOKIE, "1", { ...cookie(c), maxAge: 30 * 86400 });
  return new Hono<AppEnv>()
    .get(
      "/configs",
      async (c) =>
        c.json(
          await settings.listConfigs(
            client(c),
            Number(c.req.query("offset") ?? 0) || 0,
            Number(c.req.query("limit") ?? 1000) || 1000,
          ),
        ),
    )
    .get("/configs/:name", async (c) => c.json(await settings.getConfig(client(c), c.req.param("name"))))
    .put("/configs/:name", async (c) => {
      const result = await settings.setConfig(
        client(c),
        c.req.param("name"),
        await readJson(c, SetConfigInput),
      );
      flagRestart(c);
      return c.json(result);
    })
    .get(
      "/admin/notification_endpoints",
      async (c) => c.json({ notification_endpoints: await settings.notificationEndpoints(client(c)) }),
    )
    .post("/admin/notification_endpoints", async (c) => {
      const input = await readJson(c, AddNotificationEndpointInput);
      const key_values = Object.entries(input.properties).map(([key, value]) => ({ key, value }));
      const { restart } = await settings.setConfig(client(c), `notify_${input.service}`, {
        key_values,
        arn_resource_id: input.account_id,
      });
      flagRestart(c);
      return c.json({ service: input.service, account_id: input.account_id, restart }, 201);
    })
    .get("/admin/arns", async (c) => c.json({ arns: await notificationArns(client(c)) }))
    .get("/admin/tiers", async (c) => c.json(await tiers.listTierViews(client(c))))
    .post("/admin/tiers", async (c) => {
      await tiers.createTier(client(c), await readJson(c, AddTierInput));
      return c.body(null, 201);
    })
    .get(
      "/admin/tiers/:type/:name",
      async (c) => c.json(await tiers.getTier(client(c), c.req.param("type"), c.req.param("name"))),
    )
    .put("/admin/tiers/:type/:name/credentials", async (c) => {
      await tiers.updateTierCredentials(
        client(c),
        c.req.param("type"),
        c.req.param("name"),
        await readJson(c, TierCredentialsInput),
      );
      return c.body(null, 200);
    })
    .post("/service/restart", async (c) => {
      await settings.restartService(client(c));
      deleteCookie(c, RESTART_COOKIE, cookie(c));
      return c.body(null, 204);
    });
}
