/** Query parameters of the relays, read the way the original console read them (Go's strconv.ParseBool). */
import type { Context } from "hono";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";

const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** A boolean query flag; absent or empty is `fallback`, anything Go would not parse is a 400. */
export function flag(c: Context<AppEnv>, name: string, fallback = false): boolean {
  const value = c.req.query(name);
  if (value === undefined || value === "") return fallback;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw ApiError.badRequest(`${name} must be true or false`, `query parameter "${name}" is "${value}"`);
}

/** The `{bucket}` path segment; required. */
export function bucketParam(c: Context<AppEnv>): string {
  const bucket = c.req.param("bucket") ?? "";
  if (!bucket) throw ApiError.badRequest("a bucket is required");
  return bucket;
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
