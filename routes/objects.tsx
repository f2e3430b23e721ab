/**
 * The object browser pages (spec 3 §2.4): /object-browser (all buckets), /object-browser/{bucket}/{folder}/
 * and /object-browser/{bucket}/{object}. Every URL renders on the server with its first page of data, so
 * deep links and reloads work; the ObjectBrowser island then moves between them in place.
 */
import { type Context, Hono } from "hono";
import ObjectBrowser, { type ObjectBrowserProps } from "../islands/ObjectBrowser/ObjectBrowser.tsx";
import { type BrowserLocation, crumbsOf, parseLocation } from "../islands/ObjectBrowser/locations.ts";
import type { AppDeps, AppEnv } from "../server/deps.ts";
import { Island } from "../server/render/island.tsx";
import { isVersioned } from "../server/services/bucket_settings.ts";
import { accountView, evaluatePermissions } from "../server/services/buckets.ts";
import { listPage, objectDetail } from "../server/services/objects.ts";
import { loadAll } from "./page_data.ts";
import { renderInShell } from "./page_context.tsx";

/**
 * Entries in the server-rendered first page: several screens of rows (40 px each), a fraction of a storage
 * page, so the HTML and its render stay small; scrolling continues with the storage's token in pages of 1,000.
 */
const FIRST_PAGE = 250;

export function objectPages(deps: AppDeps) {
  const base = deps.render.href("/");

  async function page(c: Context<AppEnv>) {
    const url = new URL(c.req.url);
    let location: BrowserLocation | null;
    try {
      location = parseLocation(url.pathname, url.search);
    } catch {
      location = null; // a malformed percent-encoding
    }
    if (!location) return c.notFound();
    const session = c.get("session")!;
    type Loaded = Pick<ObjectBrowserProps, "buckets" | "folder" | "versioned" | "detail"> & {
      canCreateBucket: boolean;
    };
    const loc = location;
    const { data, error } = await loadAll<Loaded>(deps, session, {
      canCreateBucket: [
        async (client) => {
          if (loc.kind !== "buckets") return false;
          const view = await accountView(client);
          return evaluatePermissions(view.policy, {
            actions: [{ id: "create", action: "s3:CreateBucket", bucket_name: "" }],
          }).permissions[0].can;
        },
        false,
        "Permissions",
      ],
      buckets: [
        async (client) => (loc.kind === "buckets" ? (await accountView(client)).buckets : null),
        loc.kind === "buckets" ? [] : null,
        "Buckets",
      ],
      folder: [
        async (
          client,
        ) => (loc.kind === "folder"
          ? await listPage(client, loc.bucket, { prefix: loc.prefix, limit: FIRST_PAGE })
          : null),
        null,
        "Objects",
      ],
      versioned: [
        async (
          client,
        ) => (loc.kind === "folder" ? (await isVersioned(client, loc.bucket)).is_versioned : null),
        null,
        "Versioning",
      ],
      detail: [
        async (
          client,
        ) => (loc.kind === "object" ? await objectDetail(client, loc.bucket, loc.key, loc.versionId) : null),
        null,
        "Object",
      ],
    });
    const crumbs = crumbsOf(location);
    const props: ObjectBrowserProps = {
      base,
      location,
      distributed: session.distributed,
      direct: !!deps.config.storagePublicUrl,
      ...data,
      // A folder that failed to load starts empty; the island shows the error banner's message.
      folder: location.kind === "folder" ? data.folder ?? { objects: [], total: 0 } : null,
    };
    return renderInShell(deps, c, {
      title: location.kind === "buckets"
        ? "All Buckets"
        : `${crumbs[crumbs.length - 1].label} | Object Browser`,
      error,
      body: <Island name="ObjectBrowser" component={ObjectBrowser} props={props} />,
    });
  }

  return new Hono<AppEnv>()
    .get("/object-browser", page)
    .get("/object-browser/*", page);
}
