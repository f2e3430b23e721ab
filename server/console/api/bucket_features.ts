/**
 * Bucket features API (api-index §5): events, replication, lifecycle, access rules and access audit.
 *
 *   GET    /buckets/{b}/events                 events, total;  POST configuration, ignoreExisting → 201
 *   DELETE /buckets/{b}/events/{arn}           events, prefix, suffix → 204
 *   GET    /buckets/{b}/replication            rules
 *   DELETE /buckets/{b}/replication/{ruleId}   → 204
 *   GET    /buckets/{b}/replication-status     replicated, pending, failed, lastError (null: no replication)
 *   POST   /buckets-replication                per-bucket results
 *   POST   /list-external-buckets              the remote server's buckets
 *   GET    /buckets/{b}/lifecycle              lifecycle;  POST a rule → 201
 *   PUT    /buckets/{b}/lifecycle/{id}         disable, tags
 *   GET    /bucket/{b}/access-rules            accessRules, total;  PUT prefix, access;  DELETE prefix
 *   GET    /bucket-users/{b}                   users whose policies grant the bucket
 *   GET    /bucket-policy/{b}                  policies granting the bucket
 */
import { type Context, Hono } from "hono";
import {
  AccessRuleInput,
  AddLifecycleInput,
  CreateEventInput,
  DeleteAccessRuleInput,
  DeleteEventInput,
  ListExternalBucketsInput,
  MultiReplicationInput,
  UpdateLifecycleInput,
} from "../../lib/contract/buckets.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import * as access from "../services/bucket_access.ts";
import * as events from "../services/bucket_events.ts";
import * as lifecycle from "../services/bucket_lifecycle.ts";
import * as replication from "../services/bucket_replication.ts";
import { accountView, evaluatePermissions } from "../services/buckets.ts";
import { clientFor } from "../session/clients.ts";
import { ApiError } from "../http/errors.ts";
import { requireSession } from "../session/middleware.ts";
import { readJson } from "./input.ts";

export function bucketFeaturesApi(deps: AppDeps) {
  const client = (c: Context<AppEnv>) => clientFor(deps, requireSession(c));
  return new Hono<AppEnv>()
    .get("/buckets/:b/events", async (c) => c.json(await events.listEvents(client(c), c.req.param("b"))))
    .post("/buckets/:b/events", async (c) => {
      await events.createEvent(client(c), c.req.param("b"), await readJson(c, CreateEventInput));
      return c.body(null, 201);
    })
    .delete("/buckets/:b/events/:arn", async (c) => {
      await events.deleteEvent(
        client(c),
        c.req.param("b"),
        c.req.param("arn"),
        await readJson(c, DeleteEventInput),
      );
      return c.body(null, 204);
    })
    .get(
      "/buckets/:b/replication",
      async (c) => c.json(await replication.listReplicationRules(client(c), c.req.param("b"))),
    )
    .get(
      "/buckets/:b/replication-status",
      async (c) => c.json({ status: await replication.replicationStatus(client(c), c.req.param("b")) }),
    )
    .delete("/buckets/:b/replication/:ruleId", async (c) => {
      await replication.deleteReplicationRule(client(c), c.req.param("b"), c.req.param("ruleId"));
      return c.body(null, 204);
    })
    .post(
      "/buckets-replication",
      async (c) =>
        c.json(
          await replication.setMultiBucketReplication(client(c), await readJson(c, MultiReplicationInput)),
        ),
    )
    .post("/list-external-buckets", async (c) => {
      // The console connects to the URL it is given: only accounts that may set up replication get to.
      const { policy } = await accountView(client(c));
      const [permission] = evaluatePermissions(policy, {
        actions: [{ id: "target", action: "admin:SetBucketTarget", bucket_name: "" }],
      }).permissions;
      if (!permission.can) {
        throw ApiError.forbidden(
          "access denied",
          "Listing a remote server's buckets needs the admin:SetBucketTarget permission.",
        );
      }
      return c.json(await replication.listExternalBuckets(deps, await readJson(c, ListExternalBucketsInput)));
    })
    .get(
      "/buckets/:b/lifecycle",
      async (c) => c.json(await lifecycle.listLifecycle(client(c), c.req.param("b"))),
    )
    .post("/buckets/:b/lifecycle", async (c) => {
      await lifecycle.addLifecycleRule(client(c), c.req.param("b"), await readJson(c, AddLifecycleInput));
      return c.body(null, 201);
    })
    .put("/buckets/:b/lifecycle/:id", async (c) => {
      await lifecycle.updateLifecycleRule(
        client(c),
        c.req.param("b"),
        c.req.param("id"),
        await readJson(c, UpdateLifecycleInput),
      );
      return c.json({});
    })
    .get(
      "/bucket/:b/access-rules",
      async (c) => c.json(await access.listAccessRules(client(c), c.req.param("b"))),
    )
    .put(
      "/bucket/:b/access-rules",
      async (c) =>
        c.json(
          await access.setAccessRuleFor(client(c), c.req.param("b"), await readJson(c, AccessRuleInput)),
        ),
    )
    .delete("/bucket/:b/access-rules", async (c) => {
      const { prefix } = await readJson(c, DeleteAccessRuleInput);
      return c.json(await access.setAccessRuleFor(client(c), c.req.param("b"), { prefix, access: "none" }));
    })
    .get("/bucket-users/:b", async (c) => c.json(await access.usersForBucket(client(c), c.req.param("b"))))
    .get(
      "/bucket-policy/:b",
      async (c) => c.json(await access.policiesForBucket(client(c), c.req.param("b"))),
    );
}
