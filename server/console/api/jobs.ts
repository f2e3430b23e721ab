/**
 * Jobs API (issue 28, Deck's own; wire types in server/lib/contract/jobs.ts):
 *
 *   GET    /jobs                the user's jobs, newest first (at most 50)      JobList
 *   POST   /jobs                CreateJobInput → 201 JobView; 403 when the user may not write the
 *                               destination (or delete the sources of a move or delete)
 *   GET    /jobs/{id}           JobView
 *   POST   /jobs/{id}/cancel    stops after the objects in flight → JobView
 *
 * Progress also comes over /ws/jobs (server/console/ws/jobs.ts). Every call hands the user's session to their
 * jobs, which run with it (server/console/services/jobs.ts).
 */
import { type Context, Hono } from "hono";
import { CreateJobInput, destinationKey } from "../../lib/contract/jobs.ts";
import { evaluate } from "../../lib/policy/evaluate.ts";
import type { AppDeps } from "../deps.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import { ApiError } from "../http/errors.ts";
import type { AppEnv } from "../session/env.ts";
import { type LiveAccess, liveAccess } from "../session/live_access.ts";
import { requireSession } from "../session/middleware.ts";
import { readJson } from "./input.ts";

/** Whether the account's policy allows `action` on this object key (or, with key "", the bucket). */
function allowsOn(access: LiveAccess, action: string, bucket: string, key: string): boolean {
  if (!access.policy) return false;
  return evaluate([{ name: "account", policy: access.policy }], { action, bucket, key }).allowed;
}

/**
 * Refuses at once what the user's policy forbids, rather than failing object by object later; the storage
 * still decides each call (a bucket policy may allow more, which then simply works).
 */
function checkAllowed(access: LiveAccess, input: CreateJobInput): void {
  const { source, destination, kind } = input;
  for (const name of source.names) {
    if (destination) {
      const target = destinationKey(name, source.base, destination.prefix);
      if (!allowsOn(access, "s3:PutObject", destination.bucket, target)) {
        throw ApiError.forbidden(
          t("objects.jobs.mayNotWrite"),
          `s3:PutObject on ${destination.bucket}/${target}`,
        );
      }
    }
    if (kind !== "copy" && !allowsOn(access, "s3:DeleteObject", source.bucket, name)) {
      throw ApiError.forbidden(
        t("objects.jobs.mayNotDelete"),
        `s3:DeleteObject on ${source.bucket}/${name}`,
      );
    }
  }
}

export function jobsApi(deps: AppDeps) {
  /** The caller, as the storage names the account, with the session handed to their jobs. */
  const owner = async (c: Context<AppEnv>) => {
    const session = requireSession(c);
    const access = await liveAccess(deps, session);
    await deps.jobs.useSession(access.account, session);
    return { session, access, account: access.account };
  };
  return new Hono<AppEnv>()
    .get("/jobs", async (c) => c.json({ jobs: deps.jobs.list((await owner(c)).account) }))
    .post("/jobs", async (c) => {
      const input = await readJson(c, CreateJobInput);
      const { session, access, account } = await owner(c);
      checkAllowed(access, input);
      return c.json(await deps.jobs.create(account, session, input), 201);
    })
    .get("/jobs/:id", async (c) => c.json(deps.jobs.get((await owner(c)).account, c.req.param("id"))))
    .post(
      "/jobs/:id/cancel",
      async (c) => c.json(deps.jobs.cancel((await owner(c)).account, c.req.param("id"))),
    );
}
