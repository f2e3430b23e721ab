/**
 * Buckets API (api-index §5): the list, one bucket, and the settings its Summary shows.
 *
 *   GET    /buckets                              buckets {name, size, creation_date}, total
 *   POST   /buckets                              create with versioning, locking, quota, retention → 201
 *   GET    /buckets/{name}                       name, size, creation_date, access
 *   GET    /buckets/{name}/summary               the Summary's view model (Deck's; BucketSummaryView)
 *   DELETE /buckets/{name}                       → 204 (only an empty bucket)
 *   PUT    /buckets/{name}/set-policy            access PRIVATE|PUBLIC
 *   GET    /buckets/{name}/quota                 quota, type;  PUT enabled, quota_type, amount
 *   GET    /buckets/{name}/retention             mode, unit, validity;  PUT the same
 *   GET    /buckets/{name}/versioning            is_versioned;  PUT versioning → 201
 *   GET    /buckets/{name}/object-locking        object_locking_enabled
 *   GET    /buckets/{name}/encryption/info       algorithm, kmsMasterKeyID (404 when none)
 *   POST   /buckets/{name}/encryption/enable     encType, kmsKeyID
 *   POST   /buckets/{name}/encryption/disable
 *   POST   /has-permission                       actions → 201 permissions
 */
import { type Context, Hono } from "hono";
import {
  EnableEncryptionInput,
  HasPermissionInput,
  MakeBucketInput,
  RetentionInput,
  SetBucketAccessInput,
  SetQuotaInput,
  SetVersioningInput,
} from "../../lib/contract/buckets.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { bucketCreated, plainVersioning, serverCapabilities } from "../session/capabilities.ts";
import * as settings from "../services/bucket_settings.ts";
import { bucketSummary } from "../services/bucket_summary.ts";
import * as buckets from "../services/buckets.ts";
import { clientFor } from "../session/clients.ts";
import { requireSession } from "../session/middleware.ts";
import { pageQuery, readJson } from "./input.ts";

export function bucketsApi(deps: AppDeps) {
  const client = (c: Context<AppEnv>) => clientFor(deps, requireSession(c));
  return new Hono<AppEnv>()
    .get("/buckets", async (c) => {
      const all = await buckets.listBuckets(client(c));
      const { offset, limit } = pageQuery(c);
      return c.json({ buckets: all.slice(offset, limit ? offset + limit : undefined), total: all.length });
    })
    .post("/buckets", async (c) => {
      await buckets.makeBucket(client(c), await readJson(c, MakeBucketInput));
      bucketCreated(deps.storage.url);
      return c.body(null, 201);
    })
    .get("/buckets/:name", async (c) => c.json(await buckets.bucketInfo(client(c), c.req.param("name"))))
    .get("/buckets/:name/summary", async (c) => {
      const session = requireSession(c);
      const caps = await serverCapabilities(deps, session);
      return c.json(
        await bucketSummary(client(c), c.req.param("name"), {
          distributed: session.distributed,
          plainVersioning: plainVersioning(caps),
        }),
      );
    })
    .delete("/buckets/:name", async (c) => {
      await buckets.deleteBucket(client(c), c.req.param("name"));
      return c.body(null, 204);
    })
    .put("/buckets/:name/set-policy", async (c) => {
      const { access } = await readJson(c, SetBucketAccessInput);
      return c.json(await buckets.setBucketAccess(client(c), c.req.param("name"), access));
    })
    .get("/buckets/:name/quota", async (c) => c.json(await settings.getQuota(client(c), c.req.param("name"))))
    .put(
      "/buckets/:name/quota",
      async (c) =>
        c.json(await settings.setQuota(client(c), c.req.param("name"), await readJson(c, SetQuotaInput))),
    )
    .get(
      "/buckets/:name/retention",
      async (c) => c.json(await settings.getRetention(client(c), c.req.param("name"))),
    )
    .put("/buckets/:name/retention", async (c) => {
      await settings.setRetention(client(c), c.req.param("name"), await readJson(c, RetentionInput));
      return c.json({});
    })
    .get(
      "/buckets/:name/versioning",
      async (c) => c.json(await settings.isVersioned(client(c), c.req.param("name"))),
    )
    .put("/buckets/:name/versioning", async (c) => {
      const { versioning } = await readJson(c, SetVersioningInput);
      await settings.setVersioning(client(c), c.req.param("name"), versioning);
      return c.body(null, 201);
    })
    .get(
      "/buckets/:name/object-locking",
      async (c) => c.json(await settings.objectLocking(client(c), c.req.param("name"))),
    )
    .get(
      "/buckets/:name/encryption/info",
      async (c) => c.json(await settings.encryptionInfo(client(c), c.req.param("name"))),
    )
    .post("/buckets/:name/encryption/enable", async (c) => {
      await settings.enableEncryption(
        client(c),
        c.req.param("name"),
        await readJson(c, EnableEncryptionInput),
      );
      return c.json({});
    })
    .post("/buckets/:name/encryption/disable", async (c) => {
      await settings.disableEncryption(client(c), c.req.param("name"));
      return c.json({});
    })
    .post(
      "/has-permission",
      async (c) => c.json(await buckets.hasPermission(client(c), await readJson(c, HasPermissionInput)), 201),
    );
}
