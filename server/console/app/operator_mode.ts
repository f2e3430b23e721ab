/**
 * What operator mode adds to the app (api-index §1 "two modes"): its API areas (with the subscription calls,
 * which both modes serve) and the tenant proxy, then a 404 for every other API path, so the console-mode
 * areas mounted after it are not served in this mode.
 */
import type { Hono } from "hono";
import { licenseApi } from "../api/license.ts";
import { operatorApi } from "../api/operator.ts";
import { volumesApi } from "../api/volumes.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";

export function mountOperatorMode(app: Hono<AppEnv>, deps: AppDeps): void {
  app.route("/api/v1", operatorApi(deps));
  app.route("/api/v1", volumesApi(deps));
  app.route("/api/v1", licenseApi(deps)); // subscription info in both modes; activation and refresh here
  app.all("/api/v1/*", () => {
    throw ApiError.notFound("not found", "not served in operator mode");
  });
}
