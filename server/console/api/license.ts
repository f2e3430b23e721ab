/**
 * Subscription API (api-index §11, spec 3 §7.2), answered locally: Deck never calls SUBNET.
 *
 *   GET  /subscription/info       the licence in force, 404 "license not found" without one
 *   POST /subscription/validate   operator mode: verify and keep a pasted licence key
 *   POST /subscription/refresh    operator mode: read and verify the local licence again
 *
 * validate and refresh belong to the operator API; a console-mode session gets 404 for them, as the
 * original answers paths of the other mode (api-index §1). Mounted in console mode by app.ts and in
 * operator mode by app/operator_mode.ts.
 */
import { type Context, Hono } from "hono";
import { ValidateLicenseInput } from "../../lib/contract/license.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { requireSession } from "../session/middleware.ts";
import { isOperatorSession } from "../session/token.ts";
import { readJson } from "./input.ts";

export function licenseApi(deps: AppDeps) {
  const operatorOnly = (c: Context<AppEnv>) => {
    if (!isOperatorSession(requireSession(c))) {
      throw ApiError.notFound("not found", "subscription activation is an operator-mode call");
    }
  };
  return new Hono<AppEnv>()
    .get("/subscription/info", async (c) => {
      requireSession(c);
      return c.json(await deps.license.info());
    })
    .post("/subscription/validate", async (c) => {
      operatorOnly(c);
      return c.json(await deps.license.validate(await readJson(c, ValidateLicenseInput)));
    })
    .post("/subscription/refresh", async (c) => {
      operatorOnly(c);
      return c.json(await deps.license.refresh());
    });
}
