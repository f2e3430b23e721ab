/**
 * /ws/health-info?deadline=1h (api-index §8): one message, the storage's full health report, then close 1000.
 * A deadline that is not a Go duration is refused before the upgrade.
 */
import type { Context } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { formatGoDuration, parseGoDuration } from "../../lib/http/duration.ts";
import { ApiError } from "../http/errors.ts";
import { healthInfo } from "../../lib/s3/admin/live.ts";
import { relay } from "./relay.ts";

/** madmin sends the deadline truncated to whole seconds, in Go's duration form ("1h0m0s"). */
export function parseDeadline(c: Context<AppEnv>): string {
  const text = c.req.query("deadline") ?? "";
  const ns = parseGoDuration(text);
  if (ns === null || ns < 1e9) {
    throw ApiError.badRequest(
      "deadline must be a duration of at least 1s, such as 1h",
      `deadline is "${text}"`,
    );
  }
  return formatGoDuration(Math.floor(ns / 1e9) * 1e9);
}

export const healthInfoRelay = (deps: AppDeps) =>
  relay(deps, {
    parse: parseDeadline,
    permission: () => ({ action: "admin:OBDInfo" }),
    async *open({ client, input, signal }) {
      yield await healthInfo(client, input, signal);
    },
  });
