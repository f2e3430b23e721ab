/**
 * What the storage server speaks (server/console/session/capabilities.ts), for any signed-in session.
 *
 *   GET  /capabilities           the kept answer (asked again when older than its lifetime)
 *   POST /capabilities/refresh   ask the server again now (after an upgrade or a switch of server)
 */
import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { serverCapabilities } from "../session/capabilities.ts";
import { forgetAccess } from "../session/live_access.ts";
import { requireSession } from "../session/middleware.ts";

export function capabilitiesApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get("/capabilities", async (c) => c.json(await serverCapabilities(deps, requireSession(c))))
    .post("/capabilities/refresh", async (c) => {
      const session = requireSession(c);
      const caps = await serverCapabilities(deps, session, { fresh: true });
      // The session's pages are filtered with the answer: the next page shows the menu the server allows now.
      forgetAccess(deps.storage.url, { accessKey: session.accessKey });
      return c.json(caps);
    });
}
