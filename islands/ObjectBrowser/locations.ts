/**
 * Where the object browser is, and its URL (spec 3 §2.1, §2.4): /object-browser (all buckets),
 * /object-browser/{bucket}/{folder path}/ (a folder; the bucket alone is its root) and
 * /object-browser/{bucket}/{object key} (an object). Each key segment is percent-encoded on its own, so
 * spaces, %, +, # and ? round-trip; a path ending in "/" is a folder. Shared by the server and the island.
 */
import { t } from "../lib/i18n/t.ts";

export type BrowserLocation =
  | { kind: "buckets" }
  | { kind: "folder"; bucket: string; prefix: string }
  | { kind: "object"; bucket: string; key: string; versionId?: string };

export const ROOT = "object-browser";

/** The route of a location under the console's base path (which ends in "/"). */
export function hrefOf(base: string, location: BrowserLocation): string {
  if (location.kind === "buckets") return `${base}${ROOT}`;
  const path = location.kind === "folder" ? location.prefix : location.key;
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  const version = location.kind === "object" && location.versionId
    ? `?version_id=${encodeURIComponent(location.versionId)}`
    : "";
  return `${base}${ROOT}/${encodeURIComponent(location.bucket)}/${encoded}${version}`;
}

/** Reads a location from a route path relative to the base ("/object-browser/…", still percent-encoded). */
export function parseLocation(path: string, search = ""): BrowserLocation | null {
  const match = new RegExp(`^/${ROOT}(?:/(.*))?$`).exec(path);
  if (!match) return null;
  const rest = match[1] ?? "";
  if (rest === "") return { kind: "buckets" };
  const slash = rest.indexOf("/");
  const decode = (text: string) => text.split("/").map(decodeURIComponent).join("/");
  const bucket = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash));
  const keyPart = slash === -1 ? "" : decode(rest.slice(slash + 1));
  if (keyPart === "" || keyPart.endsWith("/")) return { kind: "folder", bucket, prefix: keyPart };
  const versionId = new URLSearchParams(search).get("version_id");
  return versionId
    ? { kind: "object", bucket, key: keyPart, versionId }
    : { kind: "object", bucket, key: keyPart };
}

/** The folder an object or folder sits in ("" at the bucket's root). */
export function parentPrefix(path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  const cut = trimmed.lastIndexOf("/");
  return cut === -1 ? "" : trimmed.slice(0, cut + 1);
}

/** The last segment of a key or folder, as tables and titles show it. */
export function leafName(path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) + (path.endsWith("/") ? "/" : "");
}

export interface Crumb {
  label: string;
  location: BrowserLocation;
  /** The last crumb of an object path is the file (spec 3 §3 breadcrumb type). */
  type: "path" | "file";
}

/** Breadcrumbs starting with 'All Buckets' (spec 3 §2.4). */
export function crumbsOf(location: BrowserLocation): Crumb[] {
  const crumbs: Crumb[] = [{
    label: t("objects.browser.allBuckets"),
    location: { kind: "buckets" },
    type: "path",
  }];
  if (location.kind === "buckets") return crumbs;
  crumbs.push({
    label: location.bucket,
    location: { kind: "folder", bucket: location.bucket, prefix: "" },
    type: "path",
  });
  const path = location.kind === "folder" ? location.prefix : location.key;
  const segments = path.split("/");
  let prefix = "";
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (last && location.kind === "folder") return; // the empty segment after the final "/"
    if (last) {
      crumbs.push({ label: segment, location, type: "file" });
      return;
    }
    prefix += `${segment}/`;
    crumbs.push({
      label: segment || "/",
      location: { kind: "folder", bucket: location.bucket, prefix },
      type: "path",
    });
  });
  return crumbs;
}
