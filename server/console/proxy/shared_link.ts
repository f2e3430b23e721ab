/**
 * Share links through the console's own address (`/shared/<bucket>/<key>?X-Amz-…`): a recipient who cannot
 * reach the storage server opens the link here and the console streams the object from storage. The
 * console proves nothing itself: it forwards the presigned request as it came (path and signature
 * untouched, no cookie), and the storage server decides, so an expired or revoked link fails at once.
 *
 * Everyone's link requests reach the storage from the console's one address, so the console slows down
 * wrong signatures itself, per sender: an address that keeps sending them waits before its next try, while
 * the link keeps working for everyone else (the storage does not throttle the link's generated key).
 */
import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { contentDisposition } from "../../lib/formats/content_disposition.ts";
import { FailureThrottle } from "../../lib/http/failure_throttle.ts";
import { clientAddress } from "../http/forwarded.ts";
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

/** The storage's code in an S3 error body (XML), or "". */
async function errorCode(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  return /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? "";
}

export function sharedLinkProxy(deps: AppDeps) {
  // As for sign-in guesses: a few free mistakes, then 1 s, doubling up to a minute; one success clears it.
  const wrongSignatures = new FailureThrottle({ freeFailures: 3, firstDelayMs: 1000, maxDelayMs: 60_000 });
  return new Hono<AppEnv>().on(["GET", "HEAD"], `/${SHARED_ROUTE}/*`, async (c) => {
    const url = new URL(c.req.url);
    const path = url.pathname.slice(SHARED_ROUTE.length + 1);
    if (
      !url.searchParams.has("X-Amz-Signature") || !url.searchParams.has("X-Amz-Credential") ||
      !/^\/[^/]+\/./.test(path)
    ) {
      return renderErrorPage(deps.render, c, ApiError.notFound());
    }
    const sender = clientAddress(c, deps.config.trustForwarded);
    const wait = wrongSignatures.waitFor(sender);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      const after = seconds === 1 ? "1 second" : `${seconds} seconds`;
      const page = renderErrorPage(
        deps.render,
        c,
        new ApiError(429, "Too many attempts with a wrong link", {
          detail: `Check that the link was copied whole, then try again in ${after}.`,
        }),
      );
      page.headers.set("retry-after", String(seconds));
      return page;
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
      if ((await errorCode(upstream)) === "SignatureDoesNotMatch") wrongSignatures.recordFailure(sender);
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
      return renderErrorPage(deps.render, c, error);
    }
    wrongSignatures.recordSuccess(sender);
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
