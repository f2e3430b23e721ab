/**
 * The streamed object endpoints' HTTP side: downloads and previews (ranges, safe headers), zip archives
 * and the spec's form upload. Bytes flow from storage to the browser (or back) as they arrive; a client that
 * goes away cancels the storage request.
 */
import type { Context } from "hono";
import { previewContentType } from "../../lib/contract/content_types.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { contentDisposition } from "../../lib/formats/content_disposition.ts";
import { boundaryOf, FormError } from "../../lib/formats/multipart_form.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { openDownload, uploadForm, validRange, zipObjects } from "../services/object_transfer.ts";

const baseName = (key: string) => key.replace(/\/+$/, "").split("/").pop() || key;

/**
 * Lets the page that started a download know it has begun: the answer sets a short-lived cookie named
 * after the id the page chose, which the page watches for (its spinner, spec 3 §2.4).
 */
function markDownloadStarted(c: Context, subpath: string, headers: Headers): void {
  const id = c.req.query("download_id");
  if (id && /^[A-Za-z0-9_-]{1,40}$/.test(id)) {
    headers.append("set-cookie", `deck-download=${id}; Path=${subpath}; Max-Age=60; SameSite=Strict`);
  }
}

/** GET …/objects/download: the object's bytes (one range when asked), as an attachment or a preview. */
export async function downloadResponse(
  c: Context<AppEnv>,
  client: S3Client,
  request: { bucket: string; key: string; versionId?: string; preview: boolean; subpath: string },
): Promise<Response> {
  const previewType = request.preview ? previewContentType(request.key) : null;
  if (request.preview && !previewType) {
    throw ApiError.badRequest("this file type has no preview", request.key);
  }
  const upstream = await openDownload(client, request.bucket, request.key, {
    versionId: request.versionId,
    range: validRange(c.req.header("range")),
    signal: c.req.raw.signal,
  });
  const headers = new Headers();
  for (const name of ["content-length", "content-range", "etag", "last-modified"]) {
    const value = upstream.headers.get(name);
    if (value) headers.set(name, value);
  }
  headers.set("accept-ranges", "bytes");
  headers.set(
    "content-type",
    previewType ?? upstream.headers.get("content-type") ?? "application/octet-stream",
  );
  headers.set(
    "content-disposition",
    contentDisposition(request.preview ? "inline" : "attachment", baseName(request.key)),
  );
  headers.set("x-content-type-options", "nosniff");
  if (request.preview) {
    // Shown in the object page's frame; never as a page that could run script on the console's origin.
    headers.set("x-frame-options", "SAMEORIGIN");
    headers.set(
      "content-security-policy",
      previewType === "application/pdf"
        ? "default-src 'none'; frame-ancestors 'self'"
        : "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; frame-ancestors 'self'",
    );
  } else {
    headers.set("content-security-policy", "sandbox; default-src 'none'");
  }
  markDownloadStarted(c, request.subpath, headers);
  return new Response(upstream.body, { status: upstream.status, headers });
}

/** A zip of `paths` (objects, and folders ending in "/") named relative to `base`, streamed as it is built. */
export async function zipResponse(
  c: Context<AppEnv>,
  client: S3Client,
  paths: string[],
  base: string,
  subpath: string,
): Promise<Response> {
  const bucket = c.req.param("bucket")!;
  // A single folder zips under its own name: photos/2024/ → 2024.zip holding 2024/…
  const from = base || (paths.length === 1 ? paths[0].replace(/[^/]*\/?$/, "") : "");
  const name = paths.length === 1 ? baseName(paths[0]) : (baseName(from) || bucket);
  const headers = new Headers({
    "content-type": "application/zip",
    "content-disposition": contentDisposition("attachment", `${name}.zip`),
    "content-security-policy": "sandbox; default-src 'none'",
  });
  markDownloadStarted(c, subpath, headers);
  return new Response(await zipObjects(client, bucket, paths, from, c.req.raw.signal), {
    status: 200,
    headers,
  });
}

/** POST …/objects/upload: the multipart form streamed file by file into storage. */
export async function formUpload(c: Context<AppEnv>, client: S3Client): Promise<Response> {
  const boundary = boundaryOf(c.req.header("content-type") ?? null);
  if (!boundary || !c.req.raw.body) {
    throw ApiError.badRequest(
      "expected a multipart/form-data body",
      "send the files as form parts named after their object names",
    );
  }
  try {
    await uploadForm(
      client,
      c.req.param("bucket")!,
      c.req.query("prefix") ?? "",
      c.req.raw.body,
      boundary,
      c.req.raw.signal,
    );
  } catch (error) {
    if (error instanceof FormError) throw ApiError.badRequest("malformed upload form", error.message);
    throw error;
  }
  return c.body(null, 200);
}
