/**
 * Bucket names in console paths are checked once, here, for every route (API and pages) that takes one:
 * the encoded path segment is decoded and must be a name a bucket can have. Without this, a route's decoded
 * parameter `b%2Fvictim.txt` became "b/victim.txt", and the storage call made for the bucket addressed the
 * object victim.txt instead (DELETE /api/v1/buckets/b%2Fvictim.txt deleted it).
 */
import type { MiddlewareHandler } from "hono";
import { bucketReferenceProblem } from "../../lib/contract/bucket_names.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";

/** Paths whose next segment is a bucket name. A new route taking a bucket in its path goes under one. */
export const BUCKET_PATH_PREFIXES = [
  "/api/v1/buckets/",
  "/api/v1/bucket/",
  "/api/v1/bucket-policy/",
  "/api/v1/bucket-users/",
  "/buckets/",
  "/object-browser/",
  "/ws/heal/",
  "/ws/watch/",
];

/** Refuses a request whose path names an impossible bucket with 400 (signed-in requests; others go to sign-in). */
export function bucketNamesInPaths(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get("session")) {
      const path = new URL(c.req.url).pathname; // still encoded: %2F is not a separator here
      const prefix = BUCKET_PATH_PREFIXES.find((p) => path.startsWith(p));
      const segment = prefix ? path.slice(prefix.length).split("/")[0] : "";
      if (segment) {
        let name = segment;
        try {
          name = decodeURIComponent(segment);
        } catch { /* a malformed escape is an impossible name too */ }
        const problem = name === segment && segment.includes("%")
          ? "malformed escape"
          : bucketReferenceProblem(name);
        if (problem) {
          throw new ApiError(400, "invalid bucket name", { detail: `${JSON.stringify(name)}: ${problem}` });
        }
      }
    }
    await next();
  };
}
