/**
 * "Check the server again" (the not-available page's button, a plain form): asks the storage server afresh what
 * it speaks (server/console/session/capabilities.ts) and returns to the page, which then shows what the server
 * serves now. Mounted before the page guard, which would otherwise send the POST elsewhere.
 */
import { Hono } from "hono";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { serverCapabilities } from "../server/console/session/capabilities.ts";
import { forgetAccess } from "../server/console/session/live_access.ts";
import { safeBack } from "./login.tsx";

export function serverCheckPages(deps: AppDeps) {
  return new Hono<AppEnv>().post("/server-check", async (c) => {
    const session = c.get("session");
    if (!session) return c.redirect(deps.render.href("/login"), 303);
    const form = await c.req.parseBody();
    await serverCapabilities(deps, session, { fresh: true });
    forgetAccess(deps.storage.url, { accessKey: session.accessKey });
    return c.redirect(deps.render.href(safeBack(form.back)), 303);
  });
}
