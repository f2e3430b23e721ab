/**
 * Resumable uploads (Deck's addition to api-index §6): the browser starts a multipart upload, sends parts
 * one request each (streamed through, or to storage on presigned URLs when it has a public address), asks
 * which parts exist to resume after a reload, and completes or aborts.
 *
 *   POST   /buckets/{b}/uploads                         key, size, content_type → upload_id, part_size, direct
 *   GET    /buckets/{b}/uploads?prefix=                  unfinished uploads
 *   GET    /buckets/{b}/uploads/{id}/parts?key=          parts stored so far
 *   PUT    /buckets/{b}/uploads/{id}/parts/{n}?key=      the part's bytes → part_number, etag, size
 *   POST   /buckets/{b}/uploads/{id}/parts/{n}/presign?key=   a presigned URL on the storage's public address
 *   POST   /buckets/{b}/uploads/{id}/complete            key, parts → etag, version_id
 *   DELETE /buckets/{b}/uploads/{id}?key=                abort: no parts stay behind
 *   PUT    /buckets/{b}/objects/archive?prefix=          a tar the storage unpacks into the folder (MinIO's)
 */
import { type Context, Hono } from "hono";
import { CompleteUploadInput, StartUploadInput } from "../../lib/contract/objects.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { S3Client } from "../../lib/s3/client.ts";
import * as uploads from "../services/object_transfer.ts";
import { uploadArchive } from "../services/object_archive.ts";
import { clientFor } from "../session/clients.ts";
import { requireSession } from "../session/middleware.ts";
import { readJson, requiredQuery } from "./input.ts";

export function objectUploadsApi(deps: AppDeps) {
  const client = (c: Context<AppEnv>) => clientFor(deps, requireSession(c));
  /** Presigns on the storage's public address with the session's own credentials. */
  const publicClient = (c: Context<AppEnv>) => {
    if (!deps.config.storagePublicUrl) {
      throw new ApiError(409, "parts go through the console", {
        detail: "CONSOLE_STORAGE_PUBLIC_URL is not set",
      });
    }
    const session = requireSession(c);
    return new S3Client({
      endpoint: deps.config.storagePublicUrl,
      region: deps.storage.region || undefined,
      credentials: {
        accessKey: session.accessKey,
        secretKey: session.secretKey,
        sessionToken: session.sessionToken || undefined,
      },
    });
  };
  return new Hono<AppEnv>()
    .post("/buckets/:bucket/uploads", async (c) => {
      const input = await readJson(c, StartUploadInput);
      return c.json(
        await uploads.startUpload(client(c), c.req.param("bucket"), input, !!deps.config.storagePublicUrl),
        201,
      );
    })
    .get(
      "/buckets/:bucket/uploads",
      async (c) =>
        c.json({
          uploads: await uploads.pendingUploads(
            client(c),
            c.req.param("bucket"),
            c.req.query("prefix") ?? "",
          ),
        }),
    )
    .get("/buckets/:bucket/uploads/:id/parts", async (c) => {
      return c.json({
        parts: await uploads.uploadedParts(
          client(c),
          c.req.param("bucket"),
          requiredQuery(c, "key"),
          c.req.param("id"),
        ),
      });
    })
    .put("/buckets/:bucket/objects/archive", async (c) => {
      const length = Number(c.req.header("content-length"));
      if (!c.req.raw.body || !Number.isSafeInteger(length)) {
        throw new ApiError(411, "the archive needs a Content-Length", {
          detail: "send the tar as one request body of known length",
        });
      }
      const prefix = c.req.query("prefix") ?? "";
      await uploadArchive(client(c), c.req.param("bucket"), prefix, c.req.raw.body, length, c.req.raw.signal);
      return c.body(null, 200);
    })
    .put("/buckets/:bucket/uploads/:id/parts/:n", async (c) => {
      const length = Number(c.req.header("content-length"));
      if (!c.req.raw.body || !Number.isSafeInteger(length)) {
        throw new ApiError(411, "the part needs a Content-Length", {
          detail: "send the part as one request body of known length",
        });
      }
      const part = await uploads.relayPart(
        client(c),
        c.req.param("bucket"),
        requiredQuery(c, "key"),
        c.req.param("id"),
        Number(c.req.param("n")),
        c.req.raw.body,
        length,
        c.req.raw.signal,
      );
      return c.json(part);
    })
    .post("/buckets/:bucket/uploads/:id/parts/:n/presign", async (c) => {
      const url = await uploads.presignPart(
        publicClient(c),
        c.req.param("bucket"),
        requiredQuery(c, "key"),
        c.req.param("id"),
        Number(c.req.param("n")),
      );
      return c.json({ url });
    })
    .post("/buckets/:bucket/uploads/:id/complete", async (c) => {
      return c.json(
        await uploads.finishUpload(
          client(c),
          c.req.param("bucket"),
          c.req.param("id"),
          await readJson(c, CompleteUploadInput),
        ),
      );
    })
    .delete("/buckets/:bucket/uploads/:id", async (c) => {
      await uploads.cancelUpload(
        client(c),
        c.req.param("bucket"),
        requiredQuery(c, "key"),
        c.req.param("id"),
      );
      return c.body(null, 204);
    });
}
