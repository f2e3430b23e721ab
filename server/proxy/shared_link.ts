/**
 * Share links through the console's own address (`/shared/<bucket>/<key>?X-Amz-…`): a recipient who cannot
 * reach the storage server opens the link here and the console streams the object from storage. The
 * console proves nothing itself: it forwards the presigned request as it came (path and signature
 * untouched, no cookie), and the storage server decides, so an expired or revoked link fails at once.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { contentDisposition } from "../formats/content_disposition.ts";
import { renderErrorPage } from "../render/error_page.tsx";
import { SHARED_ROUTE } from "../services/share_links.ts";

/** Request headers a download may carry on to storage (ranges and cache validation). */
const FORWARDED_REQUEST = [
  "range",
  "if-range",
  "if-none-match",
  "if-modified-since",
  "if-match",
  "if-unmodified-since",
];
/** Response headers passed back; everything else (storage's own headers) stays behind. */
const FORWARDED_RESPONSE = [
  "content-length",
  "content-range",
  "content-type",
  "etag",
  "last-modified",
  "accept-ranges",
  "content-disposition",
];

/** The object's own name from the link's path (its last segment, as S3 percent-encoded it). */
function fileNameOf(path: string): string {
  const last = path.split("/").pop() || "download";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function sharedLinkProxy(deps: AppDeps) {
  return new Hono<AppEnv>().on(["GET", "HEAD"], `/${SHARED_ROUTE}/*`, async (c) => {
    const url = new URL(c.req.url);
    const path = url.pathname.slice(SHARED_ROUTE.length + 1);
    if (
      !url.searchParams.has("X-Amz-Signature") || !url.searchParams.has("X-Amz-Credential") ||
      !/^\/[^/]+\/./.test(path)
    ) {
      return renderErrorPage(deps, c, ApiError.notFound());
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_REQUEST) {
      const value = c.req.header(name);
      if (value) headers[name] = value;
    }
    const upstream = await deps.fetch(`${deps.storage.url}${path}${url.search}`, {
      method: c.req.method,
      headers,
      redirect: "manual",
      signal: c.req.raw.signal,
    });
    if (!upstream.ok && upstream.status !== 304) {
      await upstream.body?.cancel();
      const gone = upstream.status === 403 || upstream.status === 400;
      const error = gone
        ? new ApiError(403, "This link has expired or was revoked", {
          detail: "Ask whoever shared it for a new link.",
        })
        : upstream.status === 404
        ? new ApiError(404, "not found")
        : new ApiError(502, "The shared object cannot be read right now", {
          detail: `The storage server answered ${upstream.status}.`,
        });
      return renderErrorPage(deps, c, error);
    }
    const out = new Headers();
    for (const name of FORWARDED_RESPONSE) {
      const value = upstream.headers.get(name);
      if (value) out.set(name, value);
    }
    // Served from the console's origin: always a download, never a page that could run script here.
    if (!out.get("content-disposition")?.startsWith("attachment")) {
      out.set("content-disposition", contentDisposition("attachment", fileNameOf(path)));
    }
    out.set("x-content-type-options", "nosniff");
    out.set("content-security-policy", "sandbox; default-src 'none'");
    out.set("referrer-policy", "no-referrer");
    return new Response(upstream.body, { status: upstream.status, headers: out });
  });
}
