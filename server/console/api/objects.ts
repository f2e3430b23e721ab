/**
 * Objects API (api-index §6, spec 3 §7.3), with Deck's additions marked (D):
 *
 *   GET    /buckets/{b}/objects?prefix&with_versions&with_metadata[&with_deleted&limit&token(D)]
 *                                                          objects, total[, next_token]
 *   DELETE /buckets/{b}/objects?path&version_id&recursive
 *   POST   /buckets/{b}/delete-objects                     [{path, versionID, recursive}]
 *   GET    /buckets/{b}/rewind/{date}?prefix[&limit&token(D)]                      objects
 *   POST   /buckets/{b}/objects/upload?prefix              multipart form, streamed
 *   GET    /buckets/{b}/objects/download?prefix&version_id&preview                bytes (Range)
 *   GET    /buckets/{b}/objects/share?prefix&version_id&expires[&via(D)]          a URL string
 *   PUT    /buckets/{b}/objects/retention?prefix&version_id   mode, expires;  DELETE removes it
 *   PUT    /buckets/{b}/objects/tags?prefix&version_id        tags
 *   PUT    /buckets/{b}/objects/legalhold?prefix&version_id   status
 *   GET    /buckets/{b}/objects/detail?prefix&version_id (D)  one object with lock state and tags
 *   GET    /buckets/{b}/objects/versions?prefix (D)           versions of one key
 *   PUT    /buckets/{b}/objects/restore?prefix&version_id (D) that version becomes the current one
 *   GET    /buckets/{b}/objects/versioning (D)                is_versioned, null when it may not be read
 *   GET    /buckets/{b}/objects/zip?prefix (D); POST the same with form fields `path` and `base`   a zip, streamed
 *   GET    /buckets/{b}/objects/search?prefix&q&mode (D)      NDJSON hits and progress, streamed
 *   /buckets/{b}/uploads… (D)                                  resumable multipart uploads (object_uploads.ts)
 *   GET    /share-links (D); DELETE /share-links/{id} (D)      the user's share links
 */
import { type Context, Hono } from "hono";
import {
  DeleteObjectsInput,
  PutLegalHoldInput,
  PutRetentionInput,
  PutTagsInput,
} from "../../lib/contract/objects.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { parseDuration } from "../../lib/http/duration.ts";
import { ApiError } from "../http/errors.ts";
import * as changes from "../services/object_changes.ts";
import { versionParam } from "../services/object_changes.ts";
import * as detail from "../services/object_detail.ts";
import { searchObjects } from "../services/object_search.ts";
import * as objects from "../services/objects.ts";
import * as shares from "../services/share_links.ts";
import { clientFor } from "../session/clients.ts";
import { publicHost, publicProtocol } from "../http/forwarded.ts";
import { requireSession } from "../session/middleware.ts";
import { downloadResponse, formUpload, zipResponse } from "./object_downloads.ts";
import { readJson, requiredQuery } from "./input.ts";

/** `limit` as a page size (1..1000), or null when absent (the whole listing, streamed). */
function pageSize(c: Context): number | null {
  const raw = c.req.query("limit");
  if (raw === undefined || raw === "") return null;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw ApiError.badRequest("limit must be a positive whole number", `limit is "${raw}"`);
  }
  return Math.min(value, objects.MAX_PAGE);
}

const flag = (c: Context, name: string) => c.req.query(name) === "true";

/**
 * The console's own public base URL, as the browser reached it (share links through the console); a
 * forwarded host only from a trusted proxy, or anyone could have links minted for a host of their choosing.
 */
function consoleBase(c: Context, config: { subpath: string; trustForwarded: boolean }): string {
  const host = publicHost(c.req, config.trustForwarded);
  return `${publicProtocol(c.req, config.trustForwarded)}://${host}${config.subpath}`;
}

export function objectsApi(deps: AppDeps) {
  const client = (c: Context<AppEnv>) => clientFor(deps, requireSession(c));
  const target = (c: Context<AppEnv>) => ({
    bucket: c.req.param("bucket")!,
    key: requiredQuery(c, "prefix"),
    versionId: versionParam(c.req.query("version_id")),
  });
  return new Hono<AppEnv>()
    .get("/buckets/:bucket/objects", async (c) => {
      const limit = pageSize(c);
      const options = {
        prefix: c.req.query("prefix") ?? "",
        withVersions: flag(c, "with_versions"),
        withDeleted: flag(c, "with_deleted"),
        withMetadata: flag(c, "with_metadata"),
        recursive: flag(c, "recursive"),
      };
      if (limit === null) {
        return c.body(
          await objects.streamAll(client(c), c.req.param("bucket"), options, c.req.raw.signal),
          200,
          { "content-type": "application/json" },
        );
      }
      return c.json(
        await objects.listPage(client(c), c.req.param("bucket"), {
          ...options,
          limit,
          token: c.req.query("token") || undefined,
        }),
      );
    })
    .delete("/buckets/:bucket/objects", async (c) => {
      await changes.deleteObjectAt(client(c), c.req.param("bucket"), requiredQuery(c, "path"), {
        versionId: versionParam(c.req.query("version_id")),
        recursive: flag(c, "recursive"),
      });
      return c.body(null, 200);
    })
    .post("/buckets/:bucket/delete-objects", async (c) => {
      await changes.deleteSelection(client(c), c.req.param("bucket"), await readJson(c, DeleteObjectsInput));
      return c.body(null, 200);
    })
    .get("/buckets/:bucket/rewind/:date", async (c) => {
      const date = new Date(c.req.param("date"));
      if (Number.isNaN(date.getTime())) {
        throw ApiError.badRequest("invalid date", `"${c.req.param("date")}" is not an ISO date-time`);
      }
      return c.json(
        await objects.rewindPage(client(c), c.req.param("bucket"), date, {
          prefix: c.req.query("prefix") ?? "",
          limit: pageSize(c) ?? Infinity,
          token: c.req.query("token") || undefined,
        }),
      );
    })
    .post("/buckets/:bucket/objects/upload", (c) => formUpload(c, client(c)))
    .get("/buckets/:bucket/objects/download", (c) => {
      const { bucket, key, versionId } = target(c);
      return downloadResponse(c, client(c), {
        bucket,
        key,
        versionId,
        preview: flag(c, "preview"),
        subpath: deps.config.subpath,
      });
    })
    .get(
      "/buckets/:bucket/objects/zip",
      (c) => zipResponse(c, client(c), [requiredQuery(c, "prefix")], "", deps.config.subpath),
    )
    .post("/buckets/:bucket/objects/zip", async (c) => {
      const form = await c.req.formData();
      const paths = form.getAll("path").map(String).filter((p) => p !== "");
      if (!paths.length) throw ApiError.badRequest("nothing to download", "the form names no path");
      return zipResponse(c, client(c), paths, String(form.get("base") ?? ""), deps.config.subpath);
    })
    .get("/buckets/:bucket/objects/search", async (c) => {
      const mode = c.req.query("mode") === "glob" ? "glob" as const : "substring" as const;
      const input = { prefix: c.req.query("prefix") ?? "", query: c.req.query("q") ?? "", mode };
      const stop = new AbortController();
      c.req.raw.signal.addEventListener("abort", () => stop.abort(), { once: true });
      const events = searchObjects(client(c), c.req.param("bucket"), input, stop.signal);
      // The first event is awaited before answering: a refused or missing bucket is then an error status.
      let first: IteratorResult<unknown> | null = await events.next();
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = first ?? await events.next();
            first = null;
            if (next.done) return controller.close();
            controller.enqueue(encoder.encode(JSON.stringify(next.value) + "\n"));
          } catch (error) {
            const message = error instanceof ApiError
              ? error.message
              : error instanceof Error
              ? error.message
              : String(error);
            controller.enqueue(encoder.encode(JSON.stringify({ type: "error", message }) + "\n"));
            controller.close();
          }
        },
        async cancel() {
          stop.abort();
          await events.return(undefined);
        },
      }, { highWaterMark: 0 });
      return c.body(body, 200, {
        "content-type": "application/x-ndjson",
        "x-content-type-options": "nosniff",
      });
    })
    .get("/buckets/:bucket/objects/share", async (c) => {
      const { bucket, key, versionId } = target(c);
      const expiresText = c.req.query("expires");
      const seconds = expiresText ? parseDuration(expiresText) : shares.MAX_SHARE_MS / 1000;
      if (seconds === null) {
        throw ApiError.badRequest(
          "invalid expiry",
          `"${expiresText}" is not a duration such as 604800000ms or 24h`,
        );
      }
      const viaConsole = c.req.query("via") !== "storage";
      const url = await shares.createShareLink(client(c), {
        internal: deps.storage.url,
        public: deps.config.storagePublicUrl ?? deps.storage.url,
        consoleBase: consoleBase(c, deps.config),
        region: deps.storage.region,
      }, {
        bucket,
        key,
        versionId: versionId === "null" ? undefined : versionId,
        expiresMs: seconds * 1000,
        viaConsole,
      });
      return c.json(url);
    })
    .put("/buckets/:bucket/objects/retention", async (c) => {
      const { bucket, key, versionId } = target(c);
      await changes.setRetention(client(c), bucket, key, versionId, await readJson(c, PutRetentionInput));
      return c.body(null, 200);
    })
    .delete("/buckets/:bucket/objects/retention", async (c) => {
      const { bucket, key, versionId } = target(c);
      await changes.removeRetention(client(c), bucket, key, versionId);
      return c.body(null, 200);
    })
    .put("/buckets/:bucket/objects/tags", async (c) => {
      const { bucket, key, versionId } = target(c);
      await changes.setTags(client(c), bucket, key, versionId, (await readJson(c, PutTagsInput)).tags ?? {});
      return c.body(null, 200);
    })
    .put("/buckets/:bucket/objects/legalhold", async (c) => {
      const { bucket, key, versionId } = target(c);
      await changes.setLegalHold(client(c), bucket, key, versionId, await readJson(c, PutLegalHoldInput));
      return c.body(null, 200);
    })
    .get("/buckets/:bucket/objects/detail", async (c) => {
      const { bucket, key, versionId } = target(c);
      return c.json(await detail.objectDetail(client(c), bucket, key, versionId));
    })
    .get(
      "/buckets/:bucket/objects/versioning",
      async (c) => c.json(await detail.folderVersioning(client(c), c.req.param("bucket"))),
    )
    .put("/buckets/:bucket/objects/restore", async (c) => {
      const { bucket, key, versionId } = target(c);
      await changes.restoreVersion(client(c), bucket, key, versionId);
      return c.body(null, 200);
    })
    .get("/buckets/:bucket/objects/versions", async (c) => {
      const { bucket, key } = target(c);
      const versions = await objects.versionsOf(client(c), bucket, key);
      return c.json({ objects: versions, total: versions.length });
    })
    .get("/share-links", async (c) => c.json({ links: await shares.listShareLinks(client(c)) }))
    .delete("/share-links/:id", async (c) => {
      await shares.revokeShareLink(client(c), c.req.param("id"));
      return c.body(null, 204);
    });
}
