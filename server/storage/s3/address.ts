/**
 * Where a request points, read from the request target as the client sent it. As MinIO's router does, the
 * encoded path is split into bucket and key before either is decoded, so `/b%2Fx/k` names the bucket `b/x`
 * (invalid) and never the key `x/k` of bucket `b`; and a path with "." or ".." components is refused before
 * URL normalisation could turn it into another path (MinIO's setRequestValidityMiddleware).
 */
import { hasBadPathComponent } from "../../lib/contract/iam_names.ts";
import { badComponents, StoreError } from "../core/errors.ts";

const invalidUri = () => new StoreError("InvalidURI", "Couldn't parse the specified URI.", 400);
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalidUri();
  }
}

/**
 * Checks a raw target ("/path?query"): malformed escapes → InvalidURI; "." or ".." in the decoded path or in
 * a query value other than `delimiter` → XMinioInvalidResourceName. Returns the raw (encoded) path.
 */
export function checkTarget(target: string): string {
  const q = target.indexOf("?");
  const rawPath = q === -1 ? target : target.slice(0, q);
  if (hasBadPathComponent(decode(rawPath))) throw badComponents();
  if (q !== -1) {
    for (const pair of target.slice(q + 1).split("&")) {
      const eq = pair.indexOf("=");
      if (eq === -1) continue;
      const name = decode(pair.slice(0, eq).replace(/\+/g, " "));
      if (name !== "delimiter" && hasBadPathComponent(decode(pair.slice(eq + 1).replace(/\+/g, " ")))) {
        throw badComponents();
      }
    }
  }
  return rawPath;
}

/** Bucket and key of a checked raw path; `virtualBucket` when the Host named the bucket. */
export function addressOf(rawPath: string, virtualBucket?: string): { bucket: string; key: string } {
  const rest = rawPath.replace(/^\/+/, "");
  if (virtualBucket !== undefined) return { bucket: virtualBucket, key: decode(rest) };
  const slash = rest.indexOf("/");
  if (slash === -1) return { bucket: decode(rest), key: "" };
  return { bucket: decode(rest.slice(0, slash)), key: decode(rest.slice(slash + 1)) };
}
