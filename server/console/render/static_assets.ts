/**
 * Serves the embedded build (static/gen/assets.ts) under /static/. Names are content-hashed, so responses
 * are cacheable forever; gzip bodies were precomputed at build time.
 */
import type { MiddlewareHandler } from "hono";
import type { EmbeddedAsset } from "../../../static/gen/manifest.ts";

type Assets = Record<string, EmbeddedAsset>;

/**
 * The embedded build, loaded by the first request for a static file: its 1.6 MB module would otherwise be
 * parsed and held at start (about 9 MiB and 70 ms) by a console that may not serve a page for hours.
 */
let builtAssets: Promise<Assets> | undefined;
const loadBuiltAssets = () => builtAssets ??= import("../../../static/gen/assets.ts").then((m) => m.assets);

interface Decoded {
  type: string;
  plain: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
}

/** Middleware answering GET/HEAD /static/<file> from the embedded assets; 404 for unknown files. */
export function serveBuiltAssets(given?: Assets): MiddlewareHandler {
  const decoded = new Map<string, Decoded>();
  const get = (assets: Assets, name: string): Decoded | undefined => {
    let hit = decoded.get(name);
    const asset = assets[name];
    if (!hit && asset) {
      hit = {
        type: asset.type,
        plain: Uint8Array.fromBase64(asset.base64) as Uint8Array<ArrayBuffer>,
        gzip: Uint8Array.fromBase64(asset.gzipBase64) as Uint8Array<ArrayBuffer>,
      };
      decoded.set(name, hit);
    }
    return hit;
  };
  return async (c, next) => {
    if (!c.req.path.startsWith("/static/")) return next();
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const assets = given ?? await loadBuiltAssets();
    const asset = Object.hasOwn(assets, c.req.path.slice(8)) ? get(assets, c.req.path.slice(8)) : undefined;
    if (!asset) return c.text("404 Not Found", 404);
    const acceptsGzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const useGzip = acceptsGzip && asset.gzip.length < asset.plain.length;
    const headers: Record<string, string> = {
      "content-type": asset.type,
      "cache-control": "public, max-age=31536000, immutable",
      "vary": "accept-encoding",
    };
    if (useGzip) headers["content-encoding"] = "gzip";
    return c.body(useGzip ? asset.gzip : asset.plain, 200, headers);
  };
}
