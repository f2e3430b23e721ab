/**
 * What operator mode adds to the app (api-index §1 "two modes"): its API areas (with the subscription calls,
 * which both modes serve), loaded with their first request as the console's are, then a 404 for every other
 * API path, so the console-mode areas mounted after it are not served in this mode.
 */
import type { Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { type LazyArea, lazyArea, lazyAreas } from "../http/lazy_areas.ts";

/** Operator mode's API areas, by the first segments of their paths under /api/v1/. */
export function operatorApiAreas(deps: AppDeps): LazyArea<AppEnv>[] {
  return [
    lazyArea(
      ["cluster", "get-parity", "namespace", "namespaces", "nodes", "subscription", "tenants"],
      new URL("../api/operator.ts", import.meta.url),
      (area: typeof import("../api/operator.ts")) => area.operatorApi(deps),
    ),
    lazyArea(
      ["direct-csi", "list-pvcs"],
      new URL("../api/volumes.ts", import.meta.url),
      (area: typeof import("../api/volumes.ts")) => area.volumesApi(deps),
    ),
    // Subscription info in both modes; activation and refresh here.
    lazyArea(
      ["subscription"],
      new URL("../api/license.ts", import.meta.url),
      (area: typeof import("../api/license.ts")) => area.licenseApi(deps),
    ),
  ];
}

export function mountOperatorMode(app: Hono<AppEnv>, deps: AppDeps): void {
  app.use(lazyAreas("/api/v1/", operatorApiAreas(deps)));
  app.all("/api/v1/*", () => {
    throw ApiError.notFound("not found", "not served in operator mode");
  });
}
